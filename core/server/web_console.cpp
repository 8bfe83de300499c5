// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/web_console.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>

namespace dra::server::web_console {

namespace {

Response consoleText(int status, std::string_view text)
{
    Response response;
    response.status = status;
    response.contentType = "text/plain; charset=utf-8";
    response.body = QByteArray(text.data(), static_cast<qsizetype>(text.size()));
    return response;
}

std::string_view contentTypeOf(std::string_view name)
{
    if (name.ends_with(".html"))
        return "text/html; charset=utf-8";
    if (name.ends_with(".js") || name.ends_with(".mjs"))
        return "text/javascript; charset=utf-8";
    if (name.ends_with(".css"))
        return "text/css; charset=utf-8";
    if (name.ends_with(".svg"))
        return "image/svg+xml";
    if (name.ends_with(".png"))
        return "image/png";
    if (name.ends_with(".json"))
        return "application/json";
    return {};
}

// A file name under the console's root: path segments of letters, digits, '-', '_' and '.',
// none starting with a dot, so nothing outside the root (or hidden in it) can be named.
bool isSafeName(std::string_view name)
{
    if (name.empty())
        return false;
    bool segmentStart = true;
    for (char c : name) {
        if (c == '/') {
            if (segmentStart)
                return false;
            segmentStart = true;
            continue;
        }
        const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        if (!allowed || (segmentStart && c == '.'))
            return false;
        segmentStart = false;
    }
    return !segmentStart;
}

QByteArray newNonce()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof(words))
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

bool isConsolePath(std::string_view path)
{
    return path == kPrefix
        || (path.starts_with(kPrefix) && path.size() > kPrefix.size()
            && path[kPrefix.size()] == '/');
}

std::string contentSecurityPolicy(std::string_view nonce)
{
    return "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-" + std::string(nonce)
        + "'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
}

Response serve(std::string_view path, const Files &files)
{
    if (path == kPrefix) {
        Response redirect = consoleText(301, "moved to /ui/\n");
        redirect.headers.push_back({ "location", "/ui/" });
        return redirect;
    }
    std::string_view name = path.substr(kPrefix.size() + 1);
    if (name.empty())
        name = "index.html";
    const std::string_view contentType = contentTypeOf(name);
    if (!isSafeName(name) || contentType.empty())
        return consoleText(404, "no such web console file\n");
    QFile file(QDir(files.root).filePath(QString::fromUtf8(name.data(), qsizetype(name.size()))));
    if (!file.open(QIODevice::ReadOnly)) {
        if (name == "index.html" && !QFile::exists(files.root))
            return consoleText(500, "the web console is missing from this build\n");
        return consoleText(404, "no such web console file\n");
    }
    Response response;
    response.contentType = std::string(contentType);
    response.body = file.readAll();
    const QByteArray nonce = newNonce();
    if (name == "index.html") // the page hands the nonce to the editor, which styles with it
        response.body.replace("{{CSP_NONCE}}", nonce);
    // The page must not be framed or sniffed; it talks only to this server.
    response.headers.push_back({ "x-content-type-options", "nosniff" });
    response.headers.push_back({ "x-frame-options", "DENY" });
    response.headers.push_back({ "referrer-policy", "no-referrer" });
    response.headers.push_back({ "cache-control", "no-cache" });
    response.headers.push_back(
        { "content-security-policy", contentSecurityPolicy(nonce.toStdString()) });
    return response;
}

} // namespace dra::server::web_console
