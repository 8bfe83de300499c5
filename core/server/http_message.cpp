// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_message.h"

#include <algorithm>
#include <cctype>

#include "core/common/ascii.h"

namespace dra::server {

std::string percentDecode(std::string_view text, bool plusIsSpace)
{
    std::string decoded;
    decoded.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size()) {
            const int high = common::hexValue(text[i + 1]);
            const int low = common::hexValue(text[i + 2]);
            if (high >= 0 && low >= 0) {
                decoded.push_back(char(high * 16 + low));
                i += 2;
                continue;
            }
        }
        decoded.push_back(plusIsSpace && c == '+' ? ' ' : c);
    }
    return decoded;
}

QueryParams QueryParams::parse(std::string_view rawQuery)
{
    QueryParams params;
    size_t start = 0;
    while (start <= rawQuery.size()) {
        size_t end = rawQuery.find('&', start);
        if (end == std::string_view::npos)
            end = rawQuery.size();
        const std::string_view pair = rawQuery.substr(start, end - start);
        if (!pair.empty()) {
            const size_t eq = pair.find('=');
            std::string name = percentDecode(pair.substr(0, eq), true);
            std::string value = eq == std::string_view::npos
                ? std::string()
                : percentDecode(pair.substr(eq + 1), true);
            params.m_items.emplace_back(std::move(name), std::move(value));
        }
        start = end + 1;
    }
    return params;
}

bool QueryParams::contains(std::string_view name) const
{
    for (const auto &[key, value] : m_items) {
        if (key == name)
            return true;
    }
    return false;
}

std::optional<std::string> QueryParams::value(std::string_view name) const
{
    for (const auto &[key, value] : m_items) {
        if (key == name)
            return value;
    }
    return std::nullopt;
}

std::vector<std::string> QueryParams::values(std::string_view name) const
{
    std::vector<std::string> found;
    for (const auto &[key, value] : m_items) {
        if (key == name)
            found.push_back(value);
    }
    return found;
}

std::string Request::header(std::string_view lowerName) const
{
    for (const Header &field : headers) {
        if (field.name == lowerName)
            return field.value;
    }
    return {};
}

std::string_view reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

bool acceptsMediaType(std::string_view accept, std::initializer_list<std::string_view> params)
{
    const auto trimmed = [](std::string_view text) {
        while (!text.empty() && text.front() == ' ')
            text.remove_prefix(1);
        while (!text.empty() && text.back() == ' ')
            text.remove_suffix(1);
        return text;
    };
    size_t start = 0;
    while (start < accept.size()) {
        size_t end = accept.find(',', start);
        if (end == std::string_view::npos)
            end = accept.size();
        const std::string_view clause = accept.substr(start, end - start);
        size_t found = 0;
        for (const std::string_view wanted : params) {
            bool present = false;
            for (size_t param = 0; param <= clause.size() && !present;) {
                size_t stop = clause.find(';', param);
                if (stop == std::string_view::npos)
                    stop = clause.size();
                present = trimmed(clause.substr(param, stop - param)) == wanted;
                param = stop + 1;
            }
            found += present ? 1 : 0;
        }
        if (found == params.size())
            return true;
        start = end + 1;
    }
    return false;
}

bool headerListContains(std::string_view list, std::string_view token)
{
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string_view::npos)
            end = list.size();
        std::string_view item = list.substr(start, end - start);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t' || item.back() == '\r'))
            item.remove_suffix(1);
        if (std::equal(item.begin(), item.end(), token.begin(), token.end(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a))
                    == std::tolower(static_cast<unsigned char>(b));
            }))
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace dra::server
