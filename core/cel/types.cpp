// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/types.h"

#include <cctype>

namespace dra::cel {

std::string CelType::toString() const
{
    switch (kind) {
    case Kind::Dyn:
        return "dyn";
    case Kind::Any:
        return "google.protobuf.Any";
    case Kind::Null:
        return "null_type";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Uint:
        return "uint";
    case Kind::Double:
        return "double";
    case Kind::String:
        return "string";
    case Kind::Bytes:
        return "bytes";
    case Kind::Timestamp:
        return "google.protobuf.Timestamp";
    case Kind::Duration:
        return "google.protobuf.Duration";
    case Kind::List:
        return "list(" + params[0].toString() + ")";
    case Kind::Map:
        return "map(" + params[0].toString() + ", " + params[1].toString() + ")";
    case Kind::Type:
        return "type(" + params[0].toString() + ")";
    case Kind::Optional:
        return "optional_type(" + params[0].toString() + ")";
    case Kind::Opaque: {
        if (params.empty())
            return name;
        std::string out = name + "(";
        for (size_t i = 0; i < params.size(); ++i)
            out += (i ? ", " : "") + params[i].toString();
        return out + ")";
    }
    case Kind::Object:
    case Kind::Param:
        return name;
    case Kind::Error:
        return "*error*";
    }
    return "dyn";
}

namespace {

class TypeReader final
{
public:
    explicit TypeReader(std::string_view text)
        : m_text(text)
    {
    }

    CelType read()
    {
        skipSpace();
        size_t start = m_pos;
        while (m_pos < m_text.size()
            && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.'
                || m_text[m_pos] == '_'))
            ++m_pos;
        const std::string_view word = m_text.substr(start, m_pos - start);
        std::vector<CelType> params;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '(') {
            ++m_pos;
            for (;;) {
                params.push_back(read());
                skipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                ++m_pos; // ')'
                break;
            }
        }
        using K = CelType::Kind;
        if (word == "list")
            return CelType::list(params.empty() ? CelType::dyn() : params[0]);
        if (word == "map")
            return CelType::map(params.at(0), params.at(1));
        if (word == "type")
            return CelType::typeOf(params.empty() ? CelType::dyn() : params[0]);
        if (word == "optional")
            return CelType::optional(params.at(0));
        static const std::pair<std::string_view, K> simple[] = { { "dyn", K::Dyn },
            { "any", K::Any }, { "null", K::Null }, { "bool", K::Bool }, { "int", K::Int },
            { "uint", K::Uint }, { "double", K::Double }, { "string", K::String },
            { "bytes", K::Bytes }, { "timestamp", K::Timestamp }, { "duration", K::Duration } };
        for (const auto &[n, k] : simple) {
            if (word == n)
                return CelType::simple(k);
        }
        if (word.size() == 1 && std::isupper(static_cast<unsigned char>(word[0])))
            return CelType::param(std::string(word));
        return CelType::opaque(std::string(word), std::move(params));
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text[m_pos] == ' ')
            ++m_pos;
    }
    std::string_view m_text;
    size_t m_pos = 0;
};

} // namespace

CelType parseType(std::string_view text)
{
    return TypeReader(text).read();
}

} // namespace dra::cel
