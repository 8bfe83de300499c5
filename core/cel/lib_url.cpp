// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Kubernetes' URL library: url(), isURL() and getScheme/getHost/getHostname/getPort/
// getEscapedPath/getQuery. Parsing follows Go's url.ParseRequestURI, which Kubernetes uses:
// an absolute URI with an authority or path, or an absolute path.

#include <algorithm>
#include <cctype>

#include "core/cel/env.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

struct Url
{
    std::string scheme;
    std::string host; // with port, IPv6 in brackets
    std::string path;
    std::string query;
};

std::optional<Url> parseUrl(std::string_view s)
{
    Url u;
    if (s.empty() || s.find_first_of(" \t\n\r") != std::string_view::npos)
        return std::nullopt;
    std::string_view rest = s;
    if (rest.front() != '/') {
        size_t i = 0;
        while (i < rest.size()
            && (std::isalnum(static_cast<unsigned char>(rest[i])) || rest[i] == '+'
                || rest[i] == '-' || rest[i] == '.'))
            ++i;
        if (i == 0 || i >= rest.size() || rest[i] != ':'
            || !std::isalpha(static_cast<unsigned char>(rest[0])))
            return std::nullopt;
        u.scheme = std::string(rest.substr(0, i));
        rest.remove_prefix(i + 1);
        if (rest.empty() || rest.front() != '/')
            return std::nullopt; // opaque URIs are not request URIs
        if (rest.starts_with("//")) {
            rest.remove_prefix(2);
            const size_t end = rest.find_first_of("/?");
            std::string_view authority = rest.substr(0, end);
            rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
            if (const size_t at = authority.rfind('@'); at != std::string_view::npos)
                authority.remove_prefix(at + 1);
            u.host = std::string(authority);
        }
    }
    const size_t q = rest.find('?');
    u.path = std::string(rest.substr(0, q));
    if (q != std::string_view::npos)
        u.query = std::string(rest.substr(q + 1));
    return u;
}

std::string unescape(std::string_view s)
{
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size()
            && std::isxdigit(static_cast<unsigned char>(s[i + 1]))
            && std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

class UrlType final : public HostType
{
public:
    std::string_view typeName() const override { return "kubernetes.URL"; }
    bool equals(const Value &a, const Value &b) const override
    {
        const Url &x = get(a);
        const Url &y = get(b);
        return x.scheme == y.scheme && x.host == y.host && x.path == y.path && x.query == y.query;
    }
    static const Url &get(const Value &v) { return *static_cast<const Url *>(v.hostData()); }
};

const UrlType kUrlType;

const Url &url(const Value &v)
{
    return UrlType::get(v);
}

Value makeUrl(Args a, EvalFrame &)
{
    auto parsed = parseUrl(a[0].asString());
    if (!parsed)
        return Value::error(
            "URL parse error during conversion from string: " + std::string(a[0].asString()));
    auto owned = std::make_shared<const Url>(std::move(*parsed));
    const Url *raw = owned.get();
    return Value::host(&kUrlType, raw, {}, std::move(owned));
}

Value isUrl(Args a, EvalFrame &)
{
    return Value::boolean(parseUrl(a[0].asString()).has_value());
}
Value scheme(Args a, EvalFrame &)
{
    return Value::string(url(a[0]).scheme);
}
Value host(Args a, EvalFrame &)
{
    return Value::string(url(a[0]).host);
}

Value hostname(Args a, EvalFrame &)
{
    std::string_view h = url(a[0]).host;
    if (h.starts_with('[')) {
        const size_t close = h.find(']');
        return Value::string(
            std::string(h.substr(1, close == std::string_view::npos ? h.npos : close - 1)));
    }
    return Value::string(std::string(h.substr(0, h.find(':'))));
}

Value port(Args a, EvalFrame &)
{
    std::string_view h = url(a[0]).host;
    if (h.starts_with('[')) {
        const size_t close = h.find(']');
        h = close == std::string_view::npos ? std::string_view() : h.substr(close + 1);
    }
    const size_t colon = h.find(':');
    return Value::string(
        colon == std::string_view::npos ? std::string() : std::string(h.substr(colon + 1)));
}

Value escapedPath(Args a, EvalFrame &)
{
    return Value::string(url(a[0]).path);
}

Value query(Args a, EvalFrame &)
{
    std::vector<std::pair<std::string, std::vector<Value>>> entries;
    std::string_view q = url(a[0]).query;
    while (!q.empty()) {
        const size_t amp = q.find('&');
        const std::string_view pair = q.substr(0, amp);
        q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
        if (pair.empty())
            continue;
        const size_t eq = pair.find('=');
        const std::string key = unescape(pair.substr(0, eq));
        const std::string value
            = eq == std::string_view::npos ? std::string() : unescape(pair.substr(eq + 1));
        auto it = std::find_if(
            entries.begin(), entries.end(), [&](const auto &e) { return e.first == key; });
        if (it == entries.end())
            it = entries.insert(entries.end(), { key, {} });
        it->second.push_back(Value::string(value));
    }
    auto map = std::make_shared<MapData>();
    for (auto &[k, values] : entries)
        map->insert(Value::string(k), Value::list(std::move(values)));
    return Value::map(std::shared_ptr<const MapData>(std::move(map)));
}

} // namespace

void registerUrlLibrary(FunctionRegistry &r)
{
    const ParamSpec U(&kUrlType);
    r.global("url", { Kind::String }, makeUrl);
    r.global("isURL", { Kind::String }, isUrl);
    r.member("getScheme", { U }, scheme);
    r.member("getHost", { U }, host);
    r.member("getHostname", { U }, hostname);
    r.member("getPort", { U }, port);
    r.member("getEscapedPath", { U }, escapedPath);
    r.member("getQuery", { U }, query);
}

} // namespace dra::cel
