// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Comments survive a rewrite of a YAML document by a writer that does not know them
// (jsonToYaml): the structured form of the template editor rewrites the document on every
// edit, and an author's comments must not vanish with it.
#pragma once

#include <string>
#include <string_view>

namespace dra::model {

// `after`, the same document rewritten, with the comments and blank lines of `before` put back.
// Lines of comments (and blank lines) before a key go before the line with the same key path in
// `after`, indented as that line; a comment at the end of a line goes to the end of the line with
// the same path; those after the last key stay at the end. Key paths count list items by
// position ("spec/devices/requests/[1]/name"), so a comment stays with the place it was written
// at, and goes when its key goes. Reads block-style YAML as people and jsonToYaml write it; the
// lines of a block scalar (`|`, `>`) are text, never comments.
std::string carryComments(std::string_view before, std::string_view after);

} // namespace dra::model
