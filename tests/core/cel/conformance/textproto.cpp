// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "textproto.h"

#include <set>
#include <string>

namespace {

using nlohmann::json;

// Fields that are repeated in simple.proto / value.proto / checked.proto: always arrays.
const std::set<std::string> kRepeated = { "section", "test", "errors", "values", "entries",
    "type_env", "overloads", "params", "any_eval_errors" };

std::string camel(const std::string &snake)
{
    std::string out;
    bool upper = false;
    for (char c : snake) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

std::string base64(const std::string &in)
{
    static const char *alphabet
        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
        out += alphabet[n >> 18];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    if (i < in.size()) {
        uint32_t n = uint8_t(in[i]) << 16;
        if (i + 1 < in.size())
            n |= uint8_t(in[i + 1]) << 8;
        out += alphabet[n >> 18];
        out += alphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

class Reader
{
public:
    explicit Reader(std::string_view text)
        : m_text(text)
    {
    }

    bool message(json &out, bool topLevel)
    {
        out = json::object();
        while (true) {
            skip();
            if (m_pos >= m_text.size())
                return topLevel;
            if (m_text[m_pos] == '}')
                return !topLevel;
            std::string name;
            if (m_text[m_pos] == '[') {
                const size_t end = m_text.find(']', m_pos);
                if (end == std::string_view::npos)
                    return false;
                name = "@any:" + std::string(m_text.substr(m_pos + 1, end - m_pos - 1));
                m_pos = end + 1;
            } else {
                name = identifier();
                if (name.empty())
                    return false;
            }
            skip();
            json value;
            if (peek(':')) {
                ++m_pos;
                skip();
            }
            if (peek('{') || peek('<')) {
                const char close = m_text[m_pos] == '{' ? '}' : '>';
                ++m_pos;
                if (!message(value, false))
                    return false;
                skip();
                if (!peek(close) && !peek('}'))
                    return false;
                ++m_pos;
            } else if (!scalar(name, value)) {
                return false;
            }
            add(out, name, std::move(value));
            skip();
            if (peek(',') || peek(';'))
                ++m_pos;
        }
    }

private:
    void add(json &out, const std::string &name, json value)
    {
        if (name.rfind("@any:", 0) == 0) {
            value["@type"] = name.substr(5);
            out = std::move(value);
            return;
        }
        if (name == "bindings") {
            out["bindings"][value["key"].get<std::string>()] = value["value"];
            return;
        }
        std::string key = camel(name);
        if (name == "section")
            key = "suites";
        else if (name == "test")
            key = "tests";
        if (kRepeated.count(name))
            out[key].push_back(std::move(value));
        else
            out[key] = std::move(value);
    }

    void skip()
    {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '#') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
            } else {
                break;
            }
        }
    }

    bool peek(char c) const { return m_pos < m_text.size() && m_text[m_pos] == c; }

    std::string identifier()
    {
        const size_t start = m_pos;
        while (m_pos < m_text.size()
            && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'
                || m_text[m_pos] == '.' || m_text[m_pos] == '-' || m_text[m_pos] == '+'))
            ++m_pos;
        return std::string(m_text.substr(start, m_pos - start));
    }

    bool quoted(std::string &out)
    {
        const char q = m_text[m_pos++];
        while (m_pos < m_text.size() && m_text[m_pos] != q) {
            char c = m_text[m_pos++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                return false;
            c = m_text[m_pos++];
            switch (c) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case 'a':
                out += '\a';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'v':
                out += '\v';
                break;
            case 'x': {
                int v = 0;
                for (int k = 0; k < 2 && m_pos < m_text.size()
                     && std::isxdigit(static_cast<unsigned char>(m_text[m_pos]));
                     ++k)
                    v = v * 16 + std::stoi(std::string(1, m_text[m_pos++]), nullptr, 16);
                out += static_cast<char>(v);
                break;
            }
            default:
                if (c >= '0' && c <= '7') {
                    int v = c - '0';
                    for (int k = 0; k < 2 && m_pos < m_text.size() && m_text[m_pos] >= '0'
                         && m_text[m_pos] <= '7';
                         ++k)
                        v = v * 8 + (m_text[m_pos++] - '0');
                    out += static_cast<char>(v);
                } else {
                    out += c;
                }
            }
        }
        if (m_pos >= m_text.size())
            return false;
        ++m_pos;
        return true;
    }

    bool scalar(const std::string &name, json &out)
    {
        if (peek('"') || peek('\'')) {
            std::string s;
            // Adjacent string literals concatenate.
            do {
                if (!quoted(s))
                    return false;
                skip();
            } while (peek('"') || peek('\''));
            out = name == "bytes_value" ? json(base64(s)) : json(s);
            return true;
        }
        const std::string word = identifier();
        if (word.empty())
            return false;
        if (word == "true" || word == "false") {
            out = word == "true";
        } else if (std::isdigit(static_cast<unsigned char>(word[0])) || word[0] == '-'
            || word[0] == '+') {
            if (name == "double_value")
                out = std::stod(word);
            else
                out = word; // 64-bit integers stay text, as in the JSON mapping
        } else {
            out = word; // enum names such as NULL_VALUE, INT64
        }
        return true;
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

} // namespace

nlohmann::json textprotoToJson(std::string_view text)
{
    json out;
    Reader reader(text);
    if (!reader.message(out, true))
        return json(json::value_t::discarded);
    return out;
}
