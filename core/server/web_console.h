// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <QString>

#include "core/server/http_message.h"

namespace dra::server::web_console {

// Where the web console lives: GET /ui/ is its page, /ui/app.js and /ui/style.css the rest.
inline constexpr std::string_view kPrefix = "/ui";

// True for /ui and everything under /ui/.
bool isConsolePath(std::string_view path);

// The files of the console: the bundle compiled into the binary (":/web", the default), or a
// folder on disk (`dractl serve --web-root DIR`, while working on the console).
struct Files
{
    QString root = QStringLiteral(":/web");
};

// The file at `path` of `files`, 404 for an unknown one, or a redirect from /ui to /ui/. The
// files hold no data: every request the page makes carries the token. The page comes with a
// Content-Security-Policy that allows no inline script, and styles only from the console's
// own files or with the nonce the page carries (the editor injects its styles with it).
Response serve(std::string_view path, const Files &files = {});

// The Content-Security-Policy of a page whose injected styles carry `nonce`.
std::string contentSecurityPolicy(std::string_view nonce);

} // namespace dra::server::web_console
