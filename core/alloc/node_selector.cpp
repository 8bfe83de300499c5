// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/node_selector.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::alloc {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

std::vector<std::string> stringValues(const json &requirement)
{
    std::vector<std::string> values;
    if (const auto it = requirement.find("values"); it != requirement.end() && it->is_array())
        for (const json &value : *it)
            if (value.is_string())
                values.push_back(value.get<std::string>());
    return values;
}

const std::string *label(const NodeInfo &node, const std::string &key)
{
    for (const auto &[k, v] : node.labels)
        if (k == key)
            return &v;
    return nullptr;
}

bool parseInt(const std::string &text, int64_t *value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
    return ec == std::errc() && end == text.data() + text.size();
}

Result<bool> labelRequirement(const json &requirement, const NodeInfo &node)
{
    const std::string key = common::stringMember(requirement, "key");
    const std::string op = common::stringMember(requirement, "operator");
    const std::vector<std::string> values = stringValues(requirement);
    const std::string *value = label(node, key);
    if (op == "In" || op == "NotIn") {
        if (values.empty())
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("node selector: %1 for %2 needs values").arg(qs(op), qs(key)));
        const bool in = value && std::find(values.begin(), values.end(), *value) != values.end();
        return op == "In" ? in : !in;
    }
    if (op == "Exists" || op == "DoesNotExist") {
        if (!values.empty())
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("node selector: %1 for %2 takes no values").arg(qs(op), qs(key)));
        return op == "Exists" ? value != nullptr : value == nullptr;
    }
    if (op == "Gt" || op == "Lt") {
        int64_t limit = 0;
        if (values.size() != 1 || !parseInt(values[0], &limit))
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("node selector: %1 for %2 needs one integer value")
                    .arg(qs(op), qs(key)));
        int64_t actual = 0;
        if (!value || !parseInt(*value, &actual))
            return false;
        return op == "Gt" ? actual > limit : actual < limit;
    }
    return dra::fail(Error::Code::Invalid,
        QStringLiteral("node selector: %1 is not a valid operator (key %2)").arg(qs(op), qs(key)));
}

Result<bool> fieldRequirement(const json &requirement, const NodeInfo &node)
{
    const std::string key = common::stringMember(requirement, "key");
    const std::string op = common::stringMember(requirement, "operator");
    const std::vector<std::string> values = stringValues(requirement);
    if (key != "metadata.name")
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("node selector: field %1 is not supported, only metadata.name")
                .arg(qs(key)));
    if ((op != "In" && op != "NotIn") || values.size() != 1)
        return dra::fail(Error::Code::Invalid,
            QStringLiteral(
                "node selector: metadata.name needs In or NotIn with exactly one value"));
    const bool in = values[0] == node.name;
    return op == "In" ? in : !in;
}

Result<bool> termMatches(const json &term, const NodeInfo &node)
{
    const auto expressions = term.find("matchExpressions");
    const auto fields = term.find("matchFields");
    const bool hasExpressions
        = expressions != term.end() && expressions->is_array() && !expressions->empty();
    const bool hasFields = fields != term.end() && fields->is_array() && !fields->empty();
    if (!hasExpressions && !hasFields)
        return false;
    bool matches = true;
    if (hasExpressions)
        for (const json &requirement : *expressions) {
            Result<bool> ok = labelRequirement(requirement, node);
            if (!ok)
                return ok;
            matches = matches && *ok;
        }
    if (hasFields)
        for (const json &requirement : *fields) {
            Result<bool> ok = fieldRequirement(requirement, node);
            if (!ok)
                return ok;
            matches = matches && *ok;
        }
    return matches;
}

} // namespace

Result<bool> nodeSelectorMatches(const json &selector, const NodeInfo &node)
{
    if (!selector.is_object())
        return dra::fail(Error::Code::Invalid, QStringLiteral("node selector: expected an object"));
    const auto terms = selector.find("nodeSelectorTerms");
    if (terms == selector.end() || !terms->is_array())
        return false;
    // Kubernetes parses every term before matching, so a broken term is an error even when an
    // earlier one would match.
    bool any = false;
    for (const json &term : *terms) {
        Result<bool> ok = termMatches(term, node);
        if (!ok)
            return ok;
        any = any || *ok;
    }
    return any;
}

Result<bool> nodeMatches(
    const NodeInfo &node, const std::string &nodeName, bool allNodes, const json &selector)
{
    if (!nodeName.empty())
        return node.name == nodeName;
    if (allNodes)
        return true;
    if (!selector.is_null())
        return nodeSelectorMatches(selector, node);
    return false;
}

json nodeNameSelector(const std::string &nodeName)
{
    return json { { "nodeSelectorTerms",
        json::array({ json { { "matchFields",
            json::array({ json { { "key", "metadata.name" }, { "operator", "In" },
                { "values", json::array({ nodeName }) } } }) } } }) } };
}

void addNewRequirements(const json &from, json &to)
{
    if (!from.is_array())
        return;
    if (!to.is_array())
        to = json::array();
    for (const json &requirement : from) {
        const std::vector<std::string> values = stringValues(requirement);
        const std::set<std::string> wanted(values.begin(), values.end());
        const bool present = std::any_of(to.begin(), to.end(), [&](const json &existing) {
            if (common::stringMember(existing, "key") != common::stringMember(requirement, "key")
                || common::stringMember(existing, "operator")
                    != common::stringMember(requirement, "operator"))
                return false;
            const std::vector<std::string> have = stringValues(existing);
            return std::set<std::string>(have.begin(), have.end()) == wanted;
        });
        if (!present)
            to.push_back(requirement);
    }
}

} // namespace dra::alloc
