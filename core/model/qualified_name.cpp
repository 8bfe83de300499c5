// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/qualified_name.h"

#include <algorithm>

#include "core/common/json_text.h"

namespace dra::model {

namespace {

using common::Error;
using common::qs;

bool isLowerAlphanumeric(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool isIdentifierStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// [A-Za-z_][A-Za-z0-9_]*
bool isCIdentifier(std::string_view text)
{
    return !text.empty() && isIdentifierStart(text[0]) && std::ranges::all_of(text, [](char c) {
        return isIdentifierStart(c) || (c >= '0' && c <= '9');
    });
}

// An RFC 1123 subdomain: dot-separated labels of lower-case letters, digits and inner hyphens.
bool isDnsSubdomain(std::string_view text)
{
    size_t start = 0;
    while (true) {
        const size_t dot = text.find('.', start);
        const std::string_view label
            = text.substr(start, dot == std::string_view::npos ? dot : dot - start);
        if (label.empty() || !isLowerAlphanumeric(label.front())
            || !isLowerAlphanumeric(label.back()))
            return false;
        if (!std::ranges::all_of(label, [](char c) { return isLowerAlphanumeric(c) || c == '-'; }))
            return false;
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

QString invalidName(std::string_view text, const QString &reason)
{
    return QStringLiteral("attribute name \"%1\" is invalid: %2").arg(qs(text), reason);
}

} // namespace

QualifiedName QualifiedName::resolve(std::string_view name, std::string_view driver)
{
    if (const size_t slash = name.find('/'); slash != std::string_view::npos)
        return { std::string(name.substr(0, slash)), std::string(name.substr(slash + 1)) };
    return { std::string(driver), std::string(name) };
}

Result<QualifiedName> QualifiedName::parse(std::string_view text)
{
    if (text.empty())
        return dra::fail(
            Error::Code::Invalid, QStringLiteral("an attribute name must not be empty"));
    QualifiedName result;
    std::string_view name = text;
    if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
        const std::string_view domain = text.substr(0, slash);
        name = text.substr(slash + 1);
        if (name.find('/') != std::string_view::npos)
            return dra::fail(Error::Code::Invalid,
                invalidName(text,
                    QStringLiteral("expected an identifier or a domain, '/' and an identifier")));
        if (domain.empty())
            return dra::fail(Error::Code::Invalid,
                invalidName(text, QStringLiteral("the domain must not be empty")));
        if (domain.size() > maxDomainLength)
            return dra::fail(Error::Code::Invalid,
                invalidName(text,
                    QStringLiteral("the domain is longer than %1 characters")
                        .arg(maxDomainLength)));
        if (!isDnsSubdomain(domain))
            return dra::fail(Error::Code::Invalid,
                invalidName(text,
                    QStringLiteral("the domain must be a lower-case DNS subdomain such as "
                                   "gpu.example.com")));
        result.domain = std::string(domain);
    }
    if (name.empty())
        return dra::fail(
            Error::Code::Invalid, invalidName(text, QStringLiteral("the name must not be empty")));
    if (name.size() > maxNameLength)
        return dra::fail(Error::Code::Invalid,
            invalidName(
                text, QStringLiteral("the name is longer than %1 characters").arg(maxNameLength)));
    if (!isCIdentifier(name))
        return dra::fail(Error::Code::Invalid,
            invalidName(text,
                QStringLiteral("the name must be a C identifier (letters, digits, '_', "
                               "not starting with a digit)")));
    result.name = std::string(name);
    return result;
}

std::string QualifiedName::toString() const
{
    return domain.empty() ? name : domain + '/' + name;
}

} // namespace dra::model
