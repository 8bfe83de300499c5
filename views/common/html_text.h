// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>

#include <QString>

namespace dra::views {

// Object names, messages and attribute values are shown in rich-text labels: escape them so a
// `<` in a user's string never turns into markup.
inline QString escapedHtml(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

} // namespace dra::views
