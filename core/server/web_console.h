// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string_view>

#include "core/server/http_message.h"

namespace dra::server::web_console {

// Where the web console lives: GET /ui/ is its page, /ui/app.js and /ui/style.css the rest.
inline constexpr std::string_view kPrefix = "/ui";

// True for /ui and everything under /ui/.
bool isConsolePath(std::string_view path);

// The static file at `path` (compiled in from resources/web), 404 for an unknown one, or a
// redirect from /ui to /ui/. The files hold no data: every request they make carries the token.
Response serve(std::string_view path);

} // namespace dra::server::web_console
