// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/device_access.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/inventory/device_quota.h"

namespace dra::inventory {

namespace {

using nlohmann::json;

constexpr std::string_view kAdminAccessLabel = "resource.kubernetes.io/admin-access";
constexpr std::string_view kResourceGroup = model::kResourceGroup;
const std::vector<std::string_view> kWriteVerbs = { "create", "update", "patch", "delete" };

bool contains(const std::vector<std::string> &values, std::string_view value)
{
    return std::ranges::find(values, value) != values.end();
}

// A subject with its service account namespace filled in from the binding, as RBAC reads it.
model::RbacSubject resolved(const model::RbacSubject &subject, const model::RbacBinding &binding)
{
    model::RbacSubject out = subject;
    if (out.kind == "ServiceAccount" && out.ns.empty())
        out.ns = binding.ns;
    if (out.kind != "ServiceAccount")
        out.ns.clear();
    return out;
}

auto subjectKey(const model::RbacSubject &subject)
{
    return std::tie(subject.kind, subject.name, subject.ns);
}

std::string bindingText(const model::RbacBinding &binding)
{
    return binding.isCluster() ? "ClusterRoleBinding " + binding.name
                               : "RoleBinding " + binding.ns + "/" + binding.name;
}

std::string roleText(const model::RbacBinding &binding)
{
    return binding.roleKind + " " + binding.roleName;
}

// A Kubernetes component rather than a person or a workload: system: users and groups other
// than the ones every user or service account is in, and kube-system's service accounts.
bool isSystem(const model::RbacSubject &subject)
{
    if (subject.kind == "ServiceAccount")
        return subject.ns == "kube-system";
    return subject.name.starts_with("system:") && subject.name != model::kAuthenticatedGroup
        && subject.name != "system:unauthenticated"
        && !subject.name.starts_with("system:serviceaccounts");
}

bool grantsEverything(const model::PolicyRule &rule)
{
    return contains(rule.verbs, "*") && contains(rule.apiGroups, "*")
        && contains(rule.resources, "*");
}

// Subjects that may do everything everywhere: bound cluster-wide to a role with a rule for every
// verb on every resource (cluster-admin), or in system:masters.
class Admins
{
public:
    explicit Admins(const model::RbacPolicy &policy)
    {
        m_subjects.insert({ "Group", std::string(model::kMastersGroup), "" });
        for (const model::RbacBinding &binding : policy.bindings()) {
            if (!binding.isCluster())
                continue;
            const std::vector<model::PolicyRule> *rules = policy.roleRules(binding);
            if (rules && std::ranges::any_of(*rules, grantsEverything))
                for (const model::RbacSubject &subject : binding.subjects) {
                    const model::RbacSubject one = resolved(subject, binding);
                    m_subjects.insert({ one.kind, one.name, one.ns });
                }
        }
    }

    bool contains(const model::RbacSubject &subject) const
    {
        return m_subjects.contains({ subject.kind, subject.name, subject.ns });
    }

private:
    std::set<std::tuple<std::string, std::string, std::string>> m_subjects;
};

// What to ask RBAC: `verbs` on group/resource[/subresource] in each of `namespaces` ("" for
// the cluster scope and cluster-scoped kinds).
struct Question
{
    std::string_view resource, subresource;
    std::vector<std::string_view> verbs;
    std::vector<std::string> namespaces;
};

// Every subject a binding grants the question to, one entry per subject and binding with the
// verbs it may use.
std::vector<AccessGrant> grantsOf(
    const model::RbacPolicy &policy, const Admins &admins, const Question &question)
{
    std::vector<AccessGrant> grants;
    auto entryFor = [&](const model::RbacBinding &binding, const model::RbacSubject &subject) {
        const std::string text = bindingText(binding);
        const auto it = std::ranges::find_if(grants, [&](const AccessGrant &grant) {
            return grant.binding == text && subjectKey(grant.subject) == subjectKey(subject);
        });
        if (it != grants.end())
            return it;
        grants.push_back(
            { subject, text, roleText(binding), binding.ns, {}, admins.contains(subject) });
        return grants.end() - 1;
    };
    for (const std::string &ns : question.namespaces)
        for (std::string_view verb : question.verbs) {
            model::AccessAttributes attributes;
            attributes.verb = verb;
            attributes.apiGroup = kResourceGroup;
            attributes.resource = question.resource;
            attributes.subresource = question.subresource;
            attributes.ns = ns;
            for (const model::RbacGrant &grant : policy.grantsFor(attributes))
                for (const model::RbacSubject &named : grant.binding->subjects) {
                    auto entry = entryFor(*grant.binding, resolved(named, *grant.binding));
                    if (!contains(entry->verbs, verb))
                        entry->verbs.emplace_back(verb);
                }
        }
    // Admins first, then cluster-wide grants before a namespace's, then by subject.
    std::ranges::stable_sort(grants, [](const AccessGrant &a, const AccessGrant &b) {
        return std::tuple(!a.admin, a.scope, subjectText(a.subject))
            < std::tuple(!b.admin, b.scope, subjectText(b.subject));
    });
    return grants;
}

model::RbacPolicy policyOf(const Snapshot &snapshot, size_t &objects)
{
    model::RbacPolicy policy;
    objects = 0;
    for (model::Kind kind : { model::Kind::ClusterRole, model::Kind::Role,
             model::Kind::ClusterRoleBinding, model::Kind::RoleBinding })
        for (const auto &object : snapshot.objects(kind)) {
            policy.add(kind, *object->raw);
            ++objects;
        }
    policy.finish();
    return policy;
}

// The user's own rules as a policy the report can ask: per namespace a Role bound to them, and
// the rules that name a cluster-scoped DRA resource as a ClusterRole bound everywhere (a Role
// could not grant those, so a ClusterRoleBinding did). Wildcard rules stay in their namespace.
model::RbacPolicy selfPolicy(const SelfRules &self)
{
    using nlohmann::json;
    const auto rulesJson = [](const std::vector<model::PolicyRule> &rules) {
        json out = json::array();
        for (const model::PolicyRule &r : rules)
            out.push_back({ { "verbs", r.verbs }, { "apiGroups", r.apiGroups },
                { "resources", r.resources }, { "resourceNames", r.resourceNames } });
        return out;
    };
    const json subject = { { "kind", self.subject.kind }, { "name", self.subject.name },
        { "apiGroup", "rbac.authorization.k8s.io" } };
    const std::string name = "self-subject-rules";
    model::RbacPolicy policy;
    std::vector<model::PolicyRule> clusterWide;
    for (const auto &[ns, rules] : self.byNamespace) {
        policy.add(model::Kind::Role,
            { { "kind", "Role" }, { "metadata", { { "name", name }, { "namespace", ns } } },
                { "rules", rulesJson(rules) } });
        policy.add(model::Kind::RoleBinding,
            { { "kind", "RoleBinding" }, { "metadata", { { "name", name }, { "namespace", ns } } },
                { "roleRef",
                    { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "Role" },
                        { "name", name } } },
                { "subjects", json::array({ subject }) } });
        for (const model::PolicyRule &rule : rules)
            if (std::ranges::any_of(rule.resources, [](const std::string &resource) {
                    return resource == "deviceclasses" || resource == "resourceslices"
                        || resource == "devicetaintrules";
                }))
                clusterWide.push_back(rule);
    }
    if (!clusterWide.empty()) {
        policy.add(model::Kind::ClusterRole,
            { { "kind", "ClusterRole" }, { "metadata", { { "name", name } } },
                { "rules", rulesJson(clusterWide) } });
        policy.add(model::Kind::ClusterRoleBinding,
            { { "kind", "ClusterRoleBinding" }, { "metadata", { { "name", name } } },
                { "roleRef",
                    { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "ClusterRole" },
                        { "name", name } } },
                { "subjects", json::array({ subject }) } });
    }
    policy.finish();
    return policy;
}

bool labelled(const model::Object &ns)
{
    return std::ranges::any_of(ns.meta.labels, [](const auto &label) {
        return label.first == kAdminAccessLabel && label.second == "true";
    });
}

std::vector<std::string> namespacesOf(const Snapshot &snapshot, const AccessQuery &query)
{
    if (!query.ns.empty())
        return { query.ns };
    std::set<std::string> names;
    for (const auto &object : snapshot.objects(model::Kind::Namespace))
        names.insert(object->meta.name);
    for (const auto &object : snapshot.objects(model::Kind::ResourceQuota))
        names.insert(object->meta.ns);
    for (const auto &object : snapshot.objects(model::Kind::RoleBinding))
        names.insert(object->meta.ns);
    return { names.begin(), names.end() };
}

std::vector<std::string> classesOf(const Snapshot &snapshot, const AccessQuery &query)
{
    if (!query.className.empty())
        return { query.className };
    std::vector<std::string> names;
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass))
        names.push_back(object->meta.name);
    return names;
}

ClassAccess classAccess(
    const std::string &className, const NamespaceAccess &ns, const std::vector<DeviceQuota> &quotas)
{
    ClassAccess access;
    access.className = className;
    access.adminAccess = ns.adminAccessLabel;
    for (const DeviceQuota &quota : quotas)
        for (const QuotaLine &line : quota.lines)
            if (line.className == className && (!access.hard || line.hard < *access.hard)) {
                access.hard = line.hard;
                access.used = line.used;
                access.quota = quota.name;
            }
    access.blocked = access.hard && *access.hard == 0;
    access.usable = !ns.claimAuthors.empty() && !access.blocked;
    if (access.blocked)
        access.why = "ResourceQuota " + access.quota + " allows no devices of " + className + " in "
            + ns.ns + ".";
    else if (std::ranges::all_of(ns.claimAuthors, &AccessGrant::admin))
        access.why = "Only cluster admins may create ResourceClaims in " + ns.ns + ".";
    else {
        access.why = nonAdminSubjects(ns.claimAuthors, 3) + " may create claims here; ";
        access.why += access.hard
            ? "ResourceQuota " + access.quota + " allows " + std::to_string(*access.hard)
                + " devices, " + std::to_string(*access.used) + " in use."
            : "no quota limits the class.";
    }
    return access;
}

std::string_view verbPhrase(std::string_view resource)
{
    if (resource == "deviceclasses")
        return "write DeviceClasses (which devices every claim of a class may get)";
    if (resource == "resourceslices")
        return "write ResourceSlices (the inventory drivers publish)";
    if (resource == "devicetaintrules")
        return "write DeviceTaintRules (which devices are kept from claims)";
    return "write ResourceClaim allocations";
}

// Non-admins who may write the inventory or claim status.
// A grant a wildcard finding already names (same subject and binding) is not repeated.
void writerFindings(const InventoryWriters &writers, const std::vector<AccessFinding> &wildcards,
    std::vector<AccessFinding> &findings)
{
    const bool claimStatus = writers.resource.starts_with("resourceclaims/");
    for (const AccessGrant &grant : writers.grants) {
        if (grant.admin || std::ranges::any_of(wildcards, [&](const AccessFinding &wildcard) {
                return wildcard.severity == AccessSeverity::Warning
                    && wildcard.binding == grant.binding
                    && subjectKey(wildcard.subject) == subjectKey(grant.subject);
            }))
            continue;
        AccessFinding finding;
        finding.code = claimStatus ? "ClaimStatusWriter" : "NonAdminWritesInventory";
        finding.subject = grant.subject;
        finding.binding = grant.binding;
        finding.role = grant.role;
        // Drivers publish their slices with their own service account, and the scheduler and
        // controllers write claim status: expected, but worth knowing who they are.
        const bool expected = isSystem(grant.subject)
            || (writers.resource == "resourceslices" && grant.subject.kind == "ServiceAccount");
        finding.severity = expected ? AccessSeverity::Info : AccessSeverity::Warning;
        finding.message = subjectText(grant.subject) + " may "
            + std::string(verbPhrase(writers.resource)) + " (" + writers.resource + ": ";
        for (size_t i = 0; i < grant.verbs.size(); ++i)
            finding.message += (i ? ", " : "") + grant.verbs[i];
        finding.message += ") through " + grant.binding + " of " + grant.role + ".";
        if (expected)
            finding.message += writers.resource == "resourceslices"
                ? " Drivers publish slices with their service account: make sure this is a "
                  "driver's."
                : " A system component: expected if it is the scheduler or a controller.";
        findings.push_back(std::move(finding));
    }
}

// Rules that cover every resource (or every verb) of resource.k8s.io, granted to non-admins.
void wildcardFindings(
    const model::RbacPolicy &policy, const Admins &admins, std::vector<AccessFinding> &findings)
{
    for (const model::RbacBinding &binding : policy.bindings()) {
        const std::vector<model::PolicyRule> *rules = policy.roleRules(binding);
        if (!rules)
            continue;
        const auto rule = std::ranges::find_if(*rules, [](const model::PolicyRule &candidate) {
            return (contains(candidate.apiGroups, "*")
                       || contains(candidate.apiGroups, kResourceGroup))
                && (contains(candidate.resources, "*") || contains(candidate.verbs, "*"));
        });
        if (rule == rules->end())
            continue;
        const bool writes = contains(rule->verbs, "*")
            || std::ranges::any_of(kWriteVerbs,
                [&](std::string_view verb) { return contains(rule->verbs, std::string(verb)); });
        for (const model::RbacSubject &named : binding.subjects) {
            const model::RbacSubject subject = resolved(named, binding);
            if (admins.contains(subject))
                continue;
            AccessFinding finding { "WildcardDraGrant",
                writes ? AccessSeverity::Warning : AccessSeverity::Info, subject,
                bindingText(binding), roleText(binding), {} };
            std::string verbs, resources;
            for (const std::string &verb : rule->verbs)
                verbs += (verbs.empty() ? "" : ",") + verb;
            for (const std::string &resource : rule->resources)
                resources += (resources.empty() ? "" : ",") + resource;
            finding.message = subjectText(subject) + " is granted " + verbs + " on " + resources
                + " of " + (contains(rule->apiGroups, "*") ? "every API group" : "resource.k8s.io")
                + (binding.isCluster() ? " in every namespace" : " in " + binding.ns) + " through "
                + finding.binding + " of " + finding.role
                + (writes ? ": that covers every DRA kind, claim status and kinds added later."
                          : ": it reads every DRA kind, including claims' status and kinds "
                            "added later.");
            findings.push_back(std::move(finding));
        }
    }
}

json subjectJson(const model::RbacSubject &subject)
{
    json out = { { "kind", subject.kind }, { "name", subject.name } };
    if (!subject.ns.empty())
        out["namespace"] = subject.ns;
    return out;
}

json grantsJson(const std::vector<AccessGrant> &grants)
{
    json list = json::array();
    for (const AccessGrant &grant : grants) {
        json entry = { { "subject", subjectJson(grant.subject) }, { "binding", grant.binding },
            { "role", grant.role }, { "verbs", grant.verbs }, { "admin", grant.admin } };
        if (!grant.scope.empty())
            entry["scope"] = grant.scope;
        list.push_back(std::move(entry));
    }
    return list;
}

} // namespace

std::string subjectText(const model::RbacSubject &subject)
{
    if (subject.kind == "ServiceAccount")
        return "ServiceAccount " + subject.ns + "/" + subject.name;
    return subject.kind + " " + subject.name;
}

std::string nonAdminSubjects(const std::vector<AccessGrant> &grants, size_t shown)
{
    std::vector<std::string> names;
    for (const AccessGrant &grant : grants)
        if (std::string text = subjectText(grant.subject); !grant.admin && !contains(names, text))
            names.push_back(std::move(text));
    std::string out;
    for (size_t i = 0; i < names.size() && i < shown; ++i)
        out += (i ? ", " : "") + names[i];
    if (names.size() > shown)
        out += " and " + std::to_string(names.size() - shown) + " more";
    return out.empty() ? std::string("admins only") : out;
}

std::string_view verdictText(const ClassAccess &access)
{
    if (access.blocked)
        return "blocked by quota";
    return access.usable ? "usable" : "no claim authors";
}

void noteSelfRulesUnavailable(AccessReport &report, const std::string &why)
{
    report.sourceNote += " Asking the cluster for your own rules failed: " + why;
}

AccessReport deviceAccess(const Snapshot &snapshot, const AccessQuery &query, const SelfRules *self)
{
    AccessReport report;
    size_t rbacObjects = 0;
    model::RbacPolicy policy = policyOf(snapshot, rbacObjects);
    if (rbacObjects == 0 && self) {
        policy = selfPolicy(*self);
        report.source = AccessSource::SelfRules;
        report.sourceNote = "The Roles and bindings cannot be read with your rights: these are "
                            "your own rules ("
            + subjectText(self->subject) + "), as SelfSubjectRulesReview answers them in "
            + std::to_string(self->byNamespace.size())
            + " namespace(s): what you may do, not who else may. Quotas and labels below are "
              "the cluster's.";
    } else if (rbacObjects == 0) {
        report.source = AccessSource::None;
        report.sourceNote = "The cache holds no Roles, ClusterRoles or bindings (the mirror, or "
                            "you, may not read them): who may create claims is unknown here; "
                            "ask the cluster with kubectl auth can-i. Quotas and labels below "
                            "are the cluster's.";
    } else {
        report.source = AccessSource::Rbac;
        report.sourceNote = "From the " + std::to_string(rbacObjects)
            + " Roles, ClusterRoles and bindings the cache holds. Members of system:masters may "
              "do everything; kubelets write their own node's slices through the node "
              "authorizer; neither is RBAC and neither is listed. Admission policies that name "
              "a class are not mirrored and may still refuse a claim.";
    }
    const Admins admins(policy);
    const std::vector<std::string> namespaces = namespacesOf(snapshot, query);
    const std::vector<std::string> classes = classesOf(snapshot, query);

    // Counted once (every claim of the asked namespaces), then handed out per namespace.
    std::map<std::string, std::vector<DeviceQuota>> quotasIn;
    for (DeviceQuota &quota : deviceQuotas(snapshot, query.ns))
        quotasIn[quota.ns].push_back(std::move(quota));
    for (const std::string &name : namespaces) {
        NamespaceAccess ns;
        ns.ns = name;
        if (const model::Object *object = snapshot.object(model::Kind::Namespace, {}, name))
            ns.adminAccessLabel = labelled(*object);
        ns.claimAuthors
            = grantsOf(policy, admins, { "resourceclaims", {}, { "create" }, { name } });
        ns.templateAuthors
            = grantsOf(policy, admins, { "resourceclaimtemplates", {}, { "create" }, { name } });
        const std::vector<DeviceQuota> &quotas = quotasIn[name];
        for (const std::string &className : classes)
            ns.classes.push_back(classAccess(className, ns, quotas));
        report.namespaces.push_back(std::move(ns));
    }

    // Writers of the inventory are asked cluster-wide; claim status in every namespace too.
    std::vector<std::string> everyNamespace = namespacesOf(snapshot, {});
    everyNamespace.insert(everyNamespace.begin(), std::string());
    for (std::string_view resource : { "deviceclasses", "resourceslices", "devicetaintrules" })
        report.writers.push_back({ std::string(resource),
            grantsOf(policy, admins, { resource, {}, kWriteVerbs, { "" } }) });
    // The scheduler writes allocations through status; newer releases split out `binding` and
    // `driver` subresources so that fewer need all of status.
    for (std::string_view subresource : { "status", "binding", "driver" })
        report.writers.push_back({ "resourceclaims/" + std::string(subresource),
            grantsOf(policy, admins,
                { "resourceclaims", subresource, { "update", "patch" }, everyNamespace }) });

    wildcardFindings(policy, admins, report.findings);
    const std::vector<AccessFinding> wildcards = report.findings;
    for (const InventoryWriters &writers : report.writers)
        writerFindings(writers, wildcards, report.findings);
    std::ranges::stable_sort(report.findings, [](const AccessFinding &a, const AccessFinding &b) {
        return std::tuple(a.severity != AccessSeverity::Warning, subjectText(a.subject))
            < std::tuple(b.severity != AccessSeverity::Warning, subjectText(b.subject));
    });
    return report;
}

json accessJson(const Snapshot &snapshot, const AccessReport &report)
{
    json namespaces = json::array();
    for (const NamespaceAccess &ns : report.namespaces) {
        json classes = json::array();
        for (const ClassAccess &access : ns.classes) {
            json entry = { { "class", access.className }, { "blocked", access.blocked },
                { "adminAccess", access.adminAccess }, { "usable", access.usable },
                { "verdict", verdictText(access) }, { "why", access.why } };
            if (access.hard) {
                entry["hard"] = *access.hard;
                entry["used"] = *access.used;
                entry["quota"] = access.quota;
            }
            classes.push_back(std::move(entry));
        }
        namespaces.push_back({ { "namespace", ns.ns }, { "adminAccessLabel", ns.adminAccessLabel },
            { "claimAuthors", grantsJson(ns.claimAuthors) },
            { "templateAuthors", grantsJson(ns.templateAuthors) },
            { "classes", std::move(classes) } });
    }
    json writers = json::array();
    for (const InventoryWriters &entry : report.writers)
        writers.push_back(
            { { "resource", entry.resource }, { "grants", grantsJson(entry.grants) } });
    json findings = json::array();
    for (const AccessFinding &finding : report.findings)
        findings.push_back({ { "code", finding.code },
            { "severity", finding.severity == AccessSeverity::Warning ? "warning" : "info" },
            { "subject", subjectJson(finding.subject) }, { "binding", finding.binding },
            { "role", finding.role }, { "message", finding.message } });
    return { { "cluster", snapshot.cluster() }, { "rev", snapshot.rev() },
        { "source",
            report.source == AccessSource::Rbac            ? "rbac"
                : report.source == AccessSource::SelfRules ? "self-rules"
                                                           : "none" },
        { "sourceNote", report.sourceNote }, { "namespaces", std::move(namespaces) },
        { "writers", std::move(writers) }, { "findings", std::move(findings) } };
}

} // namespace dra::inventory
