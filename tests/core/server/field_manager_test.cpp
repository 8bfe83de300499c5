// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/field_manager.h"

#include <gtest/gtest.h>

#include "core/model/schema.h"

namespace dra::server {
namespace {

using nlohmann::json;

const model::SchemaNode *claimSchema()
{
    return model::schemaFor("resource.k8s.io/v1", "ResourceClaim");
}

const model::SchemaNode *classSchema()
{
    return model::schemaFor("resource.k8s.io/v1", "DeviceClass");
}

FieldManagerContext context(const std::string &manager, const model::SchemaNode *schema)
{
    return { manager, "resource.k8s.io/v1", "", false, "2026-07-01T00:00:00Z", schema };
}

json deviceClass(json labels, json selectors)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", "gpu" }, { "uid", "u-1" }, { "labels", labels } } },
        { "spec", { { "selectors", selectors } } } };
}

std::vector<std::string> paths(const FieldSet &set)
{
    std::vector<std::string> out;
    set.forEach([&](const FieldPath &path) { out.push_back(displayPath(path)); });
    return out;
}

TEST(FieldSetTest, KeyedListItemsAreMembersAndServerMetadataIsLeftOut)
{
    const json claim = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata",
            { { "name", "c" }, { "namespace", "ml" }, { "uid", "x" },
                { "labels", { { "a", "1" } } } } },
        { "status",
            { { "reservedFor",
                { { { "resource", "pods" }, { "name", "p" }, { "uid", "u-9" } } } } } } };
    const std::vector<std::string> found = paths(fieldSetOf(claim, claimSchema()));
    EXPECT_EQ(found,
        (std::vector<std::string> { ".metadata.labels.a", ".status.reservedFor[uid=\"u-9\"]",
            ".status.reservedFor[uid=\"u-9\"].name", ".status.reservedFor[uid=\"u-9\"].resource",
            ".status.reservedFor[uid=\"u-9\"].uid" }));
}

TEST(FieldSetTest, FieldsV1RoundTripsWithDotForOwnedParents)
{
    FieldSet set;
    set.insert({ "f:metadata", "f:labels", "f:a" });
    set.insert({ "f:status", "f:reservedFor", "k:{\"uid\":\"u\"}" });
    set.insert({ "f:status", "f:reservedFor", "k:{\"uid\":\"u\"}", "f:name" });
    const json v1 = set.toJson();
    EXPECT_EQ(v1["f:status"]["f:reservedFor"]["k:{\"uid\":\"u\"}"]["."], json::object());
    EXPECT_EQ(v1["f:metadata"]["f:labels"]["f:a"], json::object());
    EXPECT_EQ(paths(FieldSet::fromJson(v1)), paths(set));
}

TEST(FieldManagerTest, UpdateGivesChangedFieldsToTheWriterAndTakesThemFromOthers)
{
    json before = deviceClass({ { "team", "a" } }, json::array());
    trackUpdate(nullptr, before, context("creator", classSchema()));
    json after = before;
    after["metadata"]["labels"]["team"] = "b";
    trackUpdate(&before, after, context("kubectl-label", classSchema()));
    const std::vector<ManagedEntry> entries = readManagedFields(after);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].manager, "creator");
    EXPECT_FALSE(entries[0].fields.contains({ "f:metadata", "f:labels", "f:team" }));
    EXPECT_EQ(entries[1].manager, "kubectl-label");
    EXPECT_EQ(entries[1].operation, "Update");
    EXPECT_TRUE(entries[1].fields.contains({ "f:metadata", "f:labels", "f:team" }));
}

TEST(FieldManagerTest, TwoAppliersConflictOnOneFieldUnlessForced)
{
    const json config = deviceClass({ { "team", "a" } }, json::array());
    ApplyOutcome first = serverSideApply(nullptr, config, context("alice", classSchema()), false);
    ASSERT_TRUE(first.conflicts.empty());

    // Same value: shared ownership, no conflict.
    ApplyOutcome same
        = serverSideApply(&first.object, config, context("bob", classSchema()), false);
    EXPECT_TRUE(same.conflicts.empty());

    const json other = deviceClass({ { "team", "b" } }, json::array());
    ApplyOutcome clash
        = serverSideApply(&first.object, other, context("bob", classSchema()), false);
    ASSERT_EQ(clash.conflicts.size(), 1u);
    EXPECT_EQ(applyConflictMessage(clash.conflicts),
        "Apply failed with 1 conflict: conflict with \"alice\": .metadata.labels.team");
    EXPECT_EQ(applyConflictCauses(clash.conflicts)[0]["field"], ".metadata.labels.team");

    ApplyOutcome forced
        = serverSideApply(&first.object, other, context("bob", classSchema()), true);
    ASSERT_TRUE(forced.conflicts.empty());
    EXPECT_EQ(forced.object["metadata"]["labels"]["team"], "b");
    for (const ManagedEntry &entry : readManagedFields(forced.object)) {
        EXPECT_EQ(
            entry.manager == "bob", entry.fields.contains({ "f:metadata", "f:labels", "f:team" }))
            << entry.manager;
    }
}

TEST(FieldManagerTest, FieldsAnApplierStopsSendingAreRemoved)
{
    const json config = deviceClass({ { "team", "a" }, { "tier", "gold" } },
        json::array({ { { "cel", { { "expression", "true" } } } } }));
    ApplyOutcome first = serverSideApply(nullptr, config, context("alice", classSchema()), false);
    json next = config;
    next["metadata"]["labels"].erase("tier");
    next["spec"].erase("selectors");
    ApplyOutcome second
        = serverSideApply(&first.object, next, context("alice", classSchema()), false);
    ASSERT_TRUE(second.conflicts.empty());
    EXPECT_FALSE(second.object["metadata"]["labels"].contains("tier"));
    EXPECT_EQ(second.object["metadata"]["labels"]["team"], "a");
    EXPECT_FALSE(second.object.contains("spec") && second.object["spec"].contains("selectors"));
}

TEST(FieldManagerTest, KeyedListsMergeByKeyAndObjectsWithoutOwnersHaveOne)
{
    const json live = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", "c" }, { "namespace", "ml" } } },
        { "status",
            { { "reservedFor",
                { { { "resource", "pods" }, { "name", "p1" }, { "uid", "u-1" } } } } } } };
    const json config = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", "c" }, { "namespace", "ml" } } },
        { "status",
            { { "reservedFor",
                { { { "resource", "pods" }, { "name", "p2" }, { "uid", "u-2" } } } } } } };
    FieldManagerContext status = context("scheduler", claimSchema());
    status.subresource = "status";
    status.hasStatusSubresource = true;
    ApplyOutcome outcome = serverSideApply(&live, config, status, false);
    ASSERT_TRUE(outcome.conflicts.empty());
    ASSERT_EQ(outcome.object["status"]["reservedFor"].size(), 2u);
    EXPECT_EQ(outcome.object["status"]["reservedFor"][1]["uid"], "u-2");
    // The live object had no managedFields: its fields belong to before-first-apply.
    const std::vector<ManagedEntry> entries = readManagedFields(outcome.object);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].manager, "before-first-apply");
    EXPECT_EQ(entries[1].subresource, "status");
}

} // namespace
} // namespace dra::server
