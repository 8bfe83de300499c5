// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Who may use which DeviceClass where, and who may write the inventory, read from RBAC.
#include <gtest/gtest.h>

#include "core/inventory/device_access.h"
#include "core/sandbox/demo_access.h"
#include "core/sandbox/object_factory.h"
#include "tests/support/inventory_fixtures.h"

namespace dra::inventory::access_test {

using nlohmann::json;

json rule(json groups, json resources, json verbs)
{
    return { { "apiGroups", std::move(groups) }, { "resources", std::move(resources) },
        { "verbs", std::move(verbs) } };
}

json clusterRole(const std::string &name, json rules)
{
    return { { "apiVersion", "rbac.authorization.k8s.io/v1" }, { "kind", "ClusterRole" },
        { "metadata", { { "name", name } } }, { "rules", std::move(rules) } };
}

json subject(const std::string &kind, const std::string &name, const std::string &ns = {})
{
    json out = { { "kind", kind }, { "name", name } };
    if (!ns.empty())
        out["namespace"] = ns;
    return out;
}

// A ClusterRoleBinding (ns empty) or RoleBinding of ClusterRole `role` to `subjects`.
json binding(const std::string &name, const std::string &ns, const std::string &role, json subjects)
{
    json object = { { "apiVersion", "rbac.authorization.k8s.io/v1" },
        { "kind", ns.empty() ? "ClusterRoleBinding" : "RoleBinding" },
        { "metadata", { { "name", name } } },
        { "roleRef",
            { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "ClusterRole" },
                { "name", role } } },
        { "subjects", std::move(subjects) } };
    if (!ns.empty())
        object["metadata"]["namespace"] = ns;
    return object;
}

json namespaceObject(const std::string &name, bool adminAccess = false)
{
    json object
        = { { "apiVersion", "v1" }, { "kind", "Namespace" }, { "metadata", { { "name", name } } } };
    if (adminAccess)
        object["metadata"]["labels"] = { { "resource.kubernetes.io/admin-access", "true" } };
    return object;
}

json quota(const std::string &ns, json hard)
{
    return { { "apiVersion", "v1" }, { "kind", "ResourceQuota" },
        { "metadata", { { "namespace", ns }, { "name", "devices" } } },
        { "spec", { { "hard", std::move(hard) } } } };
}

// Two teams and their classes: ml may create claims (and asks for admin access), batch has no
// author but the admins and a quota that keeps MIG out.
std::vector<json> teams()
{
    return { dra::test::deviceClass("gpu.example.com", "true"),
        dra::test::deviceClass("mig.example.com", "true"), namespaceObject("ml", true),
        namespaceObject("batch"), clusterRole("cluster-admin", { rule({ "*" }, { "*" }, { "*" }) }),
        binding("cluster-admin", "", "cluster-admin", { subject("User", "root") }),
        clusterRole("claim-author",
            { rule({ "resource.k8s.io" }, { "resourceclaims", "resourceclaimtemplates" },
                { "get", "create", "delete" }) }),
        binding("ml-authors", "ml", "claim-author", { subject("Group", "ml-team") }),
        quota("batch",
            { { "gpu.example.com.deviceclass.resource.k8s.io/devices", "4" },
                { "mig.example.com.deviceclass.resource.k8s.io/devices", "0" } }) };
}

const NamespaceAccess &namespaceIn(const AccessReport &report, const std::string &name)
{
    const auto it = std::ranges::find(report.namespaces, name, &NamespaceAccess::ns);
    EXPECT_NE(it, report.namespaces.end()) << name;
    return *it;
}

const ClassAccess &classIn(const NamespaceAccess &ns, const std::string &name)
{
    const auto it = std::ranges::find(ns.classes, name, &ClassAccess::className);
    EXPECT_NE(it, ns.classes.end()) << name;
    return *it;
}

std::vector<std::string> subjectsOf(const std::vector<AccessGrant> &grants)
{
    std::vector<std::string> out;
    for (const AccessGrant &grant : grants)
        out.push_back(subjectText(grant.subject) + (grant.admin ? " (admin)" : ""));
    return out;
}

TEST(DeviceAccessTest, ClaimAuthorsQuotaAndTheAdminLabelDecidePerNamespaceAndClass)
{
    const SnapshotPtr snapshot = dra::test::snapshotOf(dra::test::listOf(teams()));
    const AccessReport report = deviceAccess(*snapshot);
    EXPECT_EQ(report.source, AccessSource::Rbac);

    const NamespaceAccess &ml = namespaceIn(report, "ml");
    EXPECT_TRUE(ml.adminAccessLabel);
    EXPECT_EQ(subjectsOf(ml.claimAuthors),
        (std::vector<std::string> { "User root (admin)", "Group ml-team" }));
    EXPECT_EQ(subjectsOf(ml.templateAuthors), subjectsOf(ml.claimAuthors));
    ASSERT_EQ(ml.claimAuthors.size(), 2u);
    EXPECT_EQ(ml.claimAuthors[1].binding, "RoleBinding ml/ml-authors");
    EXPECT_EQ(ml.claimAuthors[1].role, "ClusterRole claim-author");
    EXPECT_EQ(ml.claimAuthors[1].scope, "ml");
    EXPECT_EQ(ml.claimAuthors[1].verbs, std::vector<std::string> { "create" });
    const ClassAccess &mlGpu = classIn(ml, "gpu.example.com");
    EXPECT_TRUE(mlGpu.usable);
    EXPECT_TRUE(mlGpu.adminAccess);
    EXPECT_FALSE(mlGpu.hard.has_value());
    EXPECT_NE(mlGpu.why.find("Group ml-team may create claims"), std::string::npos) << mlGpu.why;

    // A RoleBinding grants in its own namespace only: batch has only the admins.
    const NamespaceAccess &batch = namespaceIn(report, "batch");
    EXPECT_FALSE(batch.adminAccessLabel);
    EXPECT_EQ(subjectsOf(batch.claimAuthors), std::vector<std::string> { "User root (admin)" });
    const ClassAccess &batchGpu = classIn(batch, "gpu.example.com");
    EXPECT_EQ(batchGpu.hard, 4);
    EXPECT_EQ(batchGpu.used, 0);
    EXPECT_EQ(batchGpu.why, "Only cluster admins may create ResourceClaims in batch.");
    const ClassAccess &batchMig = classIn(batch, "mig.example.com");
    EXPECT_TRUE(batchMig.blocked);
    EXPECT_FALSE(batchMig.usable);
    EXPECT_EQ(batchMig.why, "ResourceQuota devices allows no devices of mig.example.com in batch.");
    EXPECT_EQ(verdictText(batchMig), "blocked by quota");
    EXPECT_EQ(verdictText(mlGpu), "usable");
    EXPECT_EQ(nonAdminSubjects(batch.claimAuthors), "admins only");
    EXPECT_EQ(nonAdminSubjects(ml.claimAuthors), "Group ml-team");

    // Asked about one class in one namespace, the report holds only that.
    const AccessReport one = deviceAccess(*snapshot, { "mig.example.com", "batch" });
    ASSERT_EQ(one.namespaces.size(), 1u);
    ASSERT_EQ(one.namespaces[0].classes.size(), 1u);
    EXPECT_TRUE(one.namespaces[0].classes[0].blocked);
}

std::vector<std::string> findingsOf(const AccessReport &report)
{
    std::vector<std::string> out;
    for (const AccessFinding &finding : report.findings)
        out.push_back(
            std::string(finding.severity == AccessSeverity::Warning ? "warning " : "info ")
            + finding.code + " " + subjectText(finding.subject));
    return out;
}

TEST(DeviceAccessTest, NonAdminWritersAndWildcardGrantsAreFindings)
{
    std::vector<json> objects = teams();
    objects.push_back(clusterRole("inventory-editor",
        { rule(
            { "resource.k8s.io" }, { "deviceclasses", "resourceslices" }, { "get", "update" }) }));
    objects.push_back(binding("alice-edits", "", "inventory-editor", { subject("User", "alice") }));
    objects.push_back(clusterRole(
        "driver", { rule({ "resource.k8s.io" }, { "resourceslices" }, { "create", "delete" }) }));
    objects.push_back(
        binding("driver", "", "driver", { subject("ServiceAccount", "gpu-driver", "drivers") }));
    objects.push_back(
        clusterRole("dra-everything", { rule({ "resource.k8s.io" }, { "*" }, { "*" }) }));
    objects.push_back(binding("platform", "", "dra-everything", { subject("Group", "platform") }));
    objects.push_back(clusterRole("claim-status",
        { rule({ "resource.k8s.io" }, { "resourceclaims/status" }, { "update", "patch" }) }));
    objects.push_back(
        binding("scheduler", "", "claim-status", { subject("User", "system:kube-scheduler") }));
    objects.push_back(binding("bob-status", "ml", "claim-status", { subject("User", "bob") }));
    const SnapshotPtr snapshot = dra::test::snapshotOf(dra::test::listOf(objects));
    const AccessReport report = deviceAccess(*snapshot);

    // Warnings first; the admin (root) is never a
    // finding; the wildcard grant is named once, not again for each kind it lets the group write.
    EXPECT_EQ(findingsOf(report),
        (std::vector<std::string> { "warning WildcardDraGrant Group platform",
            "warning NonAdminWritesInventory User alice",
            "warning NonAdminWritesInventory User alice", "warning ClaimStatusWriter User bob",
            "info NonAdminWritesInventory ServiceAccount drivers/gpu-driver",
            "info ClaimStatusWriter User system:kube-scheduler" }));
    const auto bob = std::ranges::find(
        report.findings, "bob", [](const AccessFinding &finding) { return finding.subject.name; });
    EXPECT_EQ(bob->message,
        "User bob may write ResourceClaim allocations (resourceclaims/status: update, patch) "
        "through RoleBinding ml/bob-status of ClusterRole claim-status.");

    // Grants list the admins first, then cluster-wide before a namespace's, then by subject.
    const auto writers = [&](const std::string &resource) {
        const auto it = std::ranges::find(report.writers, resource, &InventoryWriters::resource);
        return it == report.writers.end() ? std::vector<std::string> {} : subjectsOf(it->grants);
    };
    EXPECT_EQ(writers("deviceclasses"),
        (std::vector<std::string> { "User root (admin)", "Group platform", "User alice" }));
    EXPECT_EQ(writers("resourceslices"),
        (std::vector<std::string> { "User root (admin)", "Group platform",
            "ServiceAccount drivers/gpu-driver", "User alice" }));
    EXPECT_EQ(writers("resourceclaims/status"),
        (std::vector<std::string> {
            "User root (admin)", "Group platform", "User system:kube-scheduler", "User bob" }));
    // The wildcard covers the newer subresources too; the status-only role does not.
    EXPECT_EQ(writers("resourceclaims/binding"),
        (std::vector<std::string> { "User root (admin)", "Group platform" }));
}

TEST(DeviceAccessTest, WithoutRbacInTheCacheTheReportSaysItCannotTell)
{
    const SnapshotPtr snapshot = dra::test::snapshotOf(dra::test::listOf(
        { dra::test::deviceClass("gpu.example.com", "true"), namespaceObject("ml") }));
    const AccessReport report = deviceAccess(*snapshot);
    EXPECT_EQ(report.source, AccessSource::None);
    EXPECT_NE(report.sourceNote.find("kubectl auth can-i"), std::string::npos);
    const json document = accessJson(*snapshot, report);
    EXPECT_EQ(document["source"], "none");
    ASSERT_EQ(document["namespaces"].size(), 1u);
    EXPECT_EQ(document["namespaces"][0]["claimAuthors"], json::array());
    EXPECT_FALSE(document["namespaces"][0]["classes"][0]["usable"].get<bool>());
}

TEST(DeviceAccessTest, WithoutRbacTheUsersOwnRulesAnswerForThem)
{
    const SnapshotPtr snapshot = dra::test::snapshotOf(
        dra::test::listOf({ dra::test::deviceClass("gpu.example.com", "true"),
            namespaceObject("ml"), namespaceObject("batch") }));
    // What SelfSubjectRulesReviews answered: claims in ml, and (from a ClusterRoleBinding, the
    // only way to get it) writing DeviceClasses.
    const model::PolicyRule claims { { "create", "get" }, { "resource.k8s.io" },
        { "resourceclaims" }, {}, {} };
    const model::PolicyRule classes { { "create", "update" }, { "resource.k8s.io" },
        { "deviceclasses" }, {}, {} };
    SelfRules self;
    self.subject = { "User", "alice", "" };
    self.byNamespace["ml"] = { claims, classes };
    self.byNamespace["batch"] = { classes, { { "get" }, { "" }, { "pods" }, {}, {} } };

    const AccessReport report = deviceAccess(*snapshot, {}, &self);
    EXPECT_EQ(report.source, AccessSource::SelfRules);
    EXPECT_NE(report.sourceNote.find("your own rules (User alice)"), std::string::npos)
        << report.sourceNote;
    const NamespaceAccess &ml = namespaceIn(report, "ml");
    ASSERT_EQ(ml.claimAuthors.size(), 1u);
    EXPECT_EQ(ml.claimAuthors[0].subject.name, "alice");
    EXPECT_TRUE(ml.classes[0].usable) << ml.classes[0].why;
    EXPECT_TRUE(namespaceIn(report, "batch").claimAuthors.empty());
    const auto writers
        = std::ranges::find(report.writers, "deviceclasses", &InventoryWriters::resource);
    ASSERT_NE(writers, report.writers.end());
    ASSERT_EQ(writers->grants.size(), 1u);
    EXPECT_EQ(writers->grants[0].scope, "") << "a cluster-scoped grant, so cluster-wide";
    EXPECT_EQ(accessJson(*snapshot, report)["source"], "self-rules");
}

TEST(DeviceAccessTest, TheDemoClustersTeamsAndDriverAreReadAsTheirRolesSay)
{
    const sandbox::ObjectFactory factory(1);
    std::vector<json> objects = sandbox::demoAccessObjects(factory);
    objects.push_back(dra::test::deviceClass("gpu.nvidia.com", "true"));
    objects.push_back(dra::test::deviceClass("mig.nvidia.com", "true"));
    for (const char *ns : { "training", "batch", "inference" })
        objects.push_back(namespaceObject(ns));
    const SnapshotPtr snapshot = dra::test::snapshotOf(dra::test::listOf(objects));
    const json document = accessJson(*snapshot, deviceAccess(*snapshot));

    json training, batch;
    for (const json &ns : document["namespaces"]) {
        if (ns["namespace"] == "training")
            training = ns;
        if (ns["namespace"] == "batch")
            batch = ns;
    }
    ASSERT_TRUE(training.is_object());
    bool trainingTeam = false;
    for (const json &grant : training["claimAuthors"])
        trainingTeam = trainingTeam
            || (grant["subject"]["name"] == "training-team" && grant["admin"] == false);
    EXPECT_TRUE(trainingTeam) << training["claimAuthors"].dump();
    EXPECT_EQ(training["classes"][0]["hard"], 8);
    for (const json &access : batch["classes"])
        EXPECT_EQ(access["blocked"], access["class"] == "mig.nvidia.com") << access.dump();

    std::vector<std::string> findings;
    for (const json &finding : document["findings"])
        findings.push_back(finding["severity"].get<std::string>() + " "
            + finding["code"].get<std::string>() + " "
            + finding["subject"]["name"].get<std::string>());
    EXPECT_EQ(findings,
        (std::vector<std::string> { "warning WildcardDraGrant ml-platform",
            "info WildcardDraGrant viewers", "info WildcardDraGrant draconsole-mirror",
            "info NonAdminWritesInventory nvidia-dra-driver-gpu" }));
}

} // namespace dra::inventory::access_test
