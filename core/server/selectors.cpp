// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/selectors.h"

#include <algorithm>

#include "core/common/json_text.h"

namespace dra::server {

namespace {

using common::Error;
using common::qs;

std::string_view trimSpaces(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    return text;
}

// Splits on commas outside parentheses, so "a in (x,y),b" is two terms.
std::vector<std::string_view> splitTerms(std::string_view text)
{
    std::vector<std::string_view> terms;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] == '(')
            ++depth;
        else if (i < text.size() && text[i] == ')')
            --depth;
        else if (i == text.size() || (text[i] == ',' && depth == 0)) {
            terms.push_back(trimSpaces(text.substr(start, i - start)));
            start = i + 1;
        }
    }
    return terms;
}

bool validKey(std::string_view key)
{
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'
            || c == '/';
    });
}

bool validValue(std::string_view value)
{
    return std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
}

std::unexpected<Error> invalid(std::string_view what, std::string_view term)
{
    return dra::fail(Error::Code::Invalid,
        QStringLiteral("unable to parse requirement: %1: \"%2\"").arg(qs(what), qs(term)));
}

} // namespace

Result<LabelSelector> LabelSelector::parse(std::string_view text)
{
    LabelSelector selector;
    if (trimSpaces(text).empty())
        return selector;
    for (std::string_view term : splitTerms(text)) {
        if (term.empty())
            return invalid("empty requirement", text);
        Term parsed;
        if (term.front() == '!') {
            parsed = { std::string(trimSpaces(term.substr(1))), Op::DoesNotExist, {} };
        } else if (const size_t paren = term.find('('); paren != std::string_view::npos) {
            if (term.back() != ')')
                return invalid("missing ')'", term);
            const std::string_view head = trimSpaces(term.substr(0, paren));
            const size_t space = head.rfind(' ');
            if (space == std::string_view::npos)
                return invalid("expected 'in' or 'notin'", term);
            const std::string_view op = head.substr(space + 1);
            if (op != "in" && op != "notin")
                return invalid("expected 'in' or 'notin'", term);
            parsed = { std::string(trimSpaces(head.substr(0, space))),
                op == "in" ? Op::In : Op::NotIn, {} };
            for (std::string_view value :
                splitTerms(term.substr(paren + 1, term.size() - paren - 2))) {
                if (!validValue(value))
                    return invalid("invalid label value", value);
                parsed.values.emplace_back(value);
            }
        } else if (const size_t bang = term.find("!="); bang != std::string_view::npos) {
            parsed = { std::string(trimSpaces(term.substr(0, bang))), Op::NotEquals,
                { std::string(trimSpaces(term.substr(bang + 2))) } };
        } else if (const size_t eq = term.find('='); eq != std::string_view::npos) {
            const size_t valueStart = term.substr(eq).starts_with("==") ? eq + 2 : eq + 1;
            parsed = { std::string(trimSpaces(term.substr(0, eq))), Op::Equals,
                { std::string(trimSpaces(term.substr(valueStart))) } };
        } else {
            parsed = { std::string(term), Op::Exists, {} };
        }
        if (!validKey(parsed.key))
            return invalid("invalid label key", term);
        for (const std::string &value : parsed.values) {
            if (!validValue(value))
                return invalid("invalid label value", term);
        }
        selector.m_terms.push_back(std::move(parsed));
    }
    return selector;
}

bool LabelSelector::matches(const model::ObjectMeta &meta) const
{
    for (const Term &term : m_terms) {
        const std::string *value = meta.label(term.key);
        const bool listed = value
            && std::find(term.values.begin(), term.values.end(), *value) != term.values.end();
        switch (term.op) {
        case Op::Equals:
        case Op::In:
            if (!listed)
                return false;
            break;
        case Op::NotEquals:
        case Op::NotIn:
            if (listed)
                return false; // a missing label satisfies != and notin, as upstream
            break;
        case Op::Exists:
            if (!value)
                return false;
            break;
        case Op::DoesNotExist:
            if (value)
                return false;
            break;
        }
    }
    return true;
}

Result<FieldSelector> FieldSelector::parse(std::string_view text)
{
    FieldSelector selector;
    if (trimSpaces(text).empty())
        return selector;
    for (std::string_view term : splitTerms(text)) {
        Term parsed;
        size_t opAt = term.find("!=");
        size_t valueAt = 0;
        if (opAt != std::string_view::npos) {
            parsed.equals = false;
            valueAt = opAt + 2;
        } else if (opAt = term.find('='); opAt != std::string_view::npos) {
            parsed.equals = true;
            valueAt = term.substr(opAt).starts_with("==") ? opAt + 2 : opAt + 1;
        } else {
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("invalid selector: '%1'; can't understand '%2'")
                    .arg(qs(text), qs(term)));
        }
        parsed.field = std::string(trimSpaces(term.substr(0, opAt)));
        parsed.value = std::string(trimSpaces(term.substr(valueAt)));
        if (parsed.field != "metadata.name" && parsed.field != "metadata.namespace")
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("field label not supported: %1").arg(qs(parsed.field)));
        selector.m_terms.push_back(std::move(parsed));
    }
    return selector;
}

bool FieldSelector::matches(const model::ObjectMeta &meta) const
{
    for (const Term &term : m_terms) {
        const std::string &actual = term.field == "metadata.name" ? meta.name : meta.ns;
        if ((actual == term.value) != term.equals)
            return false;
    }
    return true;
}

std::string FieldSelector::exactName() const
{
    for (const Term &term : m_terms) {
        if (term.field == "metadata.name" && term.equals)
            return term.value;
    }
    return {};
}

} // namespace dra::server
