// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/web_console.h"

#include <array>
#include <utility>

#include <QFile>

namespace dra::server::web_console {

namespace {

struct ConsoleFile
{
    std::string_view path;
    const char *resource;
    std::string_view contentType;
};

constexpr std::array kConsoleFiles {
    ConsoleFile { "/ui/", ":/web/index.html", "text/html; charset=utf-8" },
    ConsoleFile { "/ui/index.html", ":/web/index.html", "text/html; charset=utf-8" },
    ConsoleFile { "/ui/app.js", ":/web/app.js", "text/javascript; charset=utf-8" },
    ConsoleFile { "/ui/style.css", ":/web/style.css", "text/css; charset=utf-8" },
};

Response consoleText(int status, std::string_view text)
{
    Response response;
    response.status = status;
    response.contentType = "text/plain; charset=utf-8";
    response.body = QByteArray(text.data(), static_cast<qsizetype>(text.size()));
    return response;
}

} // namespace

bool isConsolePath(std::string_view path)
{
    return path == kPrefix
        || (path.starts_with(kPrefix) && path.size() > kPrefix.size()
            && path[kPrefix.size()] == '/');
}

Response serve(std::string_view path)
{
    if (path == kPrefix) {
        Response redirect = consoleText(301, "moved to /ui/\n");
        redirect.headers.push_back({ "location", "/ui/" });
        return redirect;
    }
    for (const ConsoleFile &file : kConsoleFiles) {
        if (file.path != path)
            continue;
        QFile resource(QString::fromLatin1(file.resource));
        if (!resource.open(QIODevice::ReadOnly))
            return consoleText(500, "the web console is missing from this build\n");
        Response response;
        response.contentType = std::string(file.contentType);
        response.body = resource.readAll();
        // The page must not be framed or sniffed; it talks only to this server.
        response.headers.push_back({ "x-content-type-options", "nosniff" });
        response.headers.push_back({ "x-frame-options", "DENY" });
        response.headers.push_back({ "cache-control", "no-cache" });
        response.headers.push_back({ "content-security-policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            "frame-ancestors 'none'" });
        return response;
    }
    return consoleText(404, "no such web console file\n");
}

} // namespace dra::server::web_console
