// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

namespace dra::common {

// `text` as HTML text or attribute value: &, <, > and " escaped, so object names, reasons and
// evidence in the reports core writes (rollout evidence, readiness) are shown, never read as
// markup.
std::string escapeHtml(std::string_view text);

} // namespace dra::common
