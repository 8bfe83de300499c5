// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/rbac_policy.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/model/decode_support.h"

namespace dra::model {

namespace {

using nlohmann::json;

bool contains(const std::vector<std::string> &values, std::string_view value)
{
    return std::ranges::find(values, value) != values.end();
}

std::vector<PolicyRule> rulesOf(const json &object)
{
    std::vector<PolicyRule> rules;
    detail::forEach(object, "rules", [&](const json &rule) {
        rules.push_back({ detail::getStrings(rule, "verbs"), detail::getStrings(rule, "apiGroups"),
            detail::getStrings(rule, "resources"), detail::getStrings(rule, "resourceNames"),
            detail::getStrings(rule, "nonResourceURLs") });
    });
    return rules;
}

bool resourceMatches(const PolicyRule &rule, const AccessAttributes &attributes)
{
    const std::string combined = attributes.subresource.empty()
        ? attributes.resource
        : attributes.resource + "/" + attributes.subresource;
    for (const std::string &resource : rule.resources) {
        if (resource == "*" || resource == combined)
            return true;
        // "*/status": that subresource of every resource.
        if (!attributes.subresource.empty() && resource.size() == attributes.subresource.size() + 2
            && resource.starts_with("*/") && resource.ends_with(attributes.subresource))
            return true;
    }
    return false;
}

bool urlMatches(const PolicyRule &rule, std::string_view url)
{
    for (const std::string &pattern : rule.nonResourceURLs) {
        if (pattern == "*" || pattern == url)
            return true;
        if (pattern.ends_with('*')
            && url.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1)))
            return true;
    }
    return false;
}

std::string describeSubject(const RbacSubject &subject)
{
    const std::string name = subject.kind == "ServiceAccount" && !subject.ns.empty()
        ? subject.name + "/" + subject.ns
        : subject.name;
    return subject.kind + " \"" + name + "\"";
}

bool subjectNames(
    const RbacSubject &subject, const std::string &bindingNs, const UserIdentity &user)
{
    if (subject.kind == "User")
        return subject.name == user.name;
    if (subject.kind == "Group")
        return contains(user.groups, subject.name);
    if (subject.kind == "ServiceAccount")
        return user.name
            == serviceAccountUser(subject.ns.empty() ? bindingNs : subject.ns, subject.name);
    return false;
}

bool labelsMatch(const StringPairs &labels, const StringPairs &want)
{
    return std::ranges::all_of(want,
        [&](const auto &wanted) { return std::ranges::find(labels, wanted) != labels.end(); });
}

} // namespace

std::string serviceAccountUser(std::string_view ns, std::string_view name)
{
    return "system:serviceaccount:" + std::string(ns) + ":" + std::string(name);
}

bool PolicyRule::allows(const AccessAttributes &attributes) const
{
    if (!contains(verbs, "*") && !contains(verbs, attributes.verb))
        return false;
    if (!attributes.resourceRequest)
        return urlMatches(*this, attributes.path);
    return (contains(apiGroups, "*") || contains(apiGroups, attributes.apiGroup))
        && resourceMatches(*this, attributes)
        && (resourceNames.empty() || contains(resourceNames, attributes.name));
}

bool RbacBinding::names(const UserIdentity &user) const
{
    return std::ranges::any_of(
        subjects, [&](const RbacSubject &subject) { return subjectNames(subject, ns, user); });
}

void RbacPolicy::add(Kind kind, const json &object)
{
    // Read with the decoders' field readers; an object of the wrong shape grants nothing.
    try {
        const ObjectMeta meta = detail::decodeMeta(object);
        switch (kind) {
        case Kind::Role:
            m_roles[{ meta.ns, meta.name }] = rulesOf(object);
            return;
        case Kind::ClusterRole: {
            ClusterRole role { rulesOf(object), meta.labels, {} };
            if (const json *aggregation = detail::field(object, "aggregationRule"))
                detail::forEach(*aggregation, "clusterRoleSelectors", [&](const json &selector) {
                    role.aggregateSelectors.push_back(
                        detail::getStringMap(selector, "matchLabels"));
                });
            m_clusterRoles[meta.name] = std::move(role);
            return;
        }
        case Kind::RoleBinding:
        case Kind::ClusterRoleBinding: {
            const json *ref = detail::field(object, "roleRef");
            if (!ref)
                return;
            RbacBinding binding { kind == Kind::RoleBinding ? meta.ns : std::string(), meta.name,
                detail::getString(*ref, "kind"), detail::getString(*ref, "name"), {} };
            detail::forEach(object, "subjects", [&](const json &subject) {
                binding.subjects.push_back({ detail::getString(subject, "kind"),
                    detail::getString(subject, "name"), detail::getString(subject, "namespace") });
            });
            m_bindings.push_back(std::move(binding));
            return;
        }
        default:
            return;
        }
    } catch (const detail::DecodeError &) {
        return;
    }
}

void RbacPolicy::finish()
{
    // An aggregated role collects the rules of the roles its selectors match; a role may
    // aggregate another aggregated one, so repeat until nothing changes (bounded for cycles).
    for (int round = 0; round < 8; ++round) {
        bool changed = false;
        for (auto &[name, role] : m_clusterRoles) {
            if (role.aggregateSelectors.empty())
                continue;
            std::vector<PolicyRule> rules;
            for (const auto &[otherName, other] : m_clusterRoles) {
                if (otherName == name)
                    continue;
                if (std::ranges::any_of(role.aggregateSelectors, [&](const auto &selector) {
                        return !selector.empty() && labelsMatch(other.labels, selector);
                    }))
                    rules.insert(rules.end(), other.rules.begin(), other.rules.end());
            }
            if (rules.size() != role.rules.size()) {
                role.rules = std::move(rules);
                changed = true;
            }
        }
        if (!changed)
            return;
    }
}

const std::vector<PolicyRule> *RbacPolicy::roleRules(const RbacBinding &binding) const
{
    if (binding.roleKind == "ClusterRole") {
        const auto it = m_clusterRoles.find(binding.roleName);
        return it == m_clusterRoles.end() ? nullptr : &it->second.rules;
    }
    if (binding.roleKind == "Role" && !binding.isCluster()) {
        const auto it = m_roles.find({ binding.ns, binding.roleName });
        return it == m_roles.end() ? nullptr : &it->second;
    }
    return nullptr;
}

std::vector<RbacGrant> RbacPolicy::grantsFor(const AccessAttributes &attributes) const
{
    std::vector<RbacGrant> grants;
    for (const RbacBinding &binding : m_bindings) {
        // A RoleBinding grants within its namespace only, and never non-resource paths.
        if (!binding.isCluster() && (!attributes.resourceRequest || binding.ns != attributes.ns))
            continue;
        const std::vector<PolicyRule> *rules = roleRules(binding);
        if (!rules)
            continue;
        const auto rule = std::ranges::find_if(
            *rules, [&](const PolicyRule &candidate) { return candidate.allows(attributes); });
        if (rule != rules->end())
            grants.push_back({ &binding, &*rule });
    }
    return grants;
}

AccessDecision RbacPolicy::authorize(
    const UserIdentity &user, const AccessAttributes &attributes) const
{
    if (contains(user.groups, kMastersGroup))
        return { true, "allowed: member of " + std::string(kMastersGroup) };
    for (const RbacGrant &grant : grantsFor(attributes)) {
        const RbacBinding &binding = *grant.binding;
        const auto subject
            = std::ranges::find_if(binding.subjects, [&](const RbacSubject &candidate) {
                  return subjectNames(candidate, binding.ns, user);
              });
        if (subject == binding.subjects.end())
            continue;
        const std::string bindingName
            = binding.isCluster() ? binding.name : binding.name + "/" + binding.ns;
        return { true,
            "RBAC: allowed by "
                + std::string(binding.isCluster() ? "ClusterRoleBinding" : "RoleBinding") + " \""
                + bindingName + "\" of " + binding.roleKind + " \"" + binding.roleName + "\" to "
                + describeSubject(*subject) };
    }
    return { false, {} };
}

std::vector<PolicyRule> RbacPolicy::rulesFor(const UserIdentity &user, std::string_view ns) const
{
    std::vector<PolicyRule> rules;
    if (contains(user.groups, kMastersGroup)) {
        rules.push_back({ { "*" }, { "*" }, { "*" }, {}, {} });
        rules.push_back({ { "*" }, {}, {}, {}, { "*" } });
        return rules;
    }
    for (const RbacBinding &binding : m_bindings) {
        if (!binding.isCluster() && binding.ns != ns)
            continue;
        if (!binding.names(user))
            continue;
        if (const std::vector<PolicyRule> *granted = roleRules(binding))
            for (const PolicyRule &rule : *granted)
                // Paths are granted by cluster bindings only.
                if (binding.isCluster() || rule.nonResourceURLs.empty())
                    rules.push_back(rule);
    }
    return rules;
}

} // namespace dra::model
