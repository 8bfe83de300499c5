// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/encoded_objects.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/model/record_codec.h"
#include "core/server/object_source.h"

// Its own namespace: the test sources of this binary are compiled together (unity build).
namespace dra::server::encoded_objects_test {
namespace {

constexpr const char *kCluster = "test";
constexpr const char *kV1 = "resource.k8s.io/v1";

nlohmann::json slice(const std::string &name, const std::string &tier)
{
    return { { "apiVersion", kV1 }, { "kind", "ResourceSlice" },
        { "metadata",
            { { "name", name }, { "uid", "uid-" + name }, { "resourceVersion", "1" },
                { "labels", { { "tier", tier } } } } },
        { "spec",
            { { "driver", "gpu.example.com" }, { "nodeName", name },
                { "pool", { { "name", name }, { "generation", 1 }, { "resourceSliceCount", 1 } } },
                { "devices", { { { "name", "gpu-0" } } } } } } };
}

nlohmann::json claim(const std::string &ns, const std::string &name)
{
    return { { "apiVersion", kV1 }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", name }, { "namespace", ns }, { "uid", "uid-" + name } } },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.example.com" } } } } } } } } } } };
}

class EncodedObjectsTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        Result<store::CacheDb> cache = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("cache.db")), store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value()) << cache.error().message.toStdString();
        m_cache = std::make_unique<store::CacheDb>(std::move(*cache));
        write(model::ChangeType::Added,
            { slice("a", "gold"), slice("b", "gold"), slice("c", "tin") });
    }

    void write(model::ChangeType type, const std::vector<nlohmann::json> &objects)
    {
        model::WatchBatch batch;
        batch.cluster = kCluster;
        for (const nlohmann::json &json : objects) {
            Result<model::Object> object = model::decodeObject(json);
            ASSERT_TRUE(object.has_value()) << object.error().message.toStdString();
            batch.changes.push_back({ type, model::toRecord(*object) });
        }
        ASSERT_TRUE(m_cache->apply(batch).has_value());
    }

    EncodedObjects::Listing list(
        const model::Kind kind, const std::string &apiVersion = kV1, const std::string &ns = {})
    {
        Result<EncodedObjects::Listing> listing
            = m_encoded.list(*m_cache, kCluster, model::kindInfo(kind), ns, apiVersion);
        EXPECT_TRUE(listing.has_value()) << listing.error().message.toStdString();
        return listing ? std::move(*listing) : EncodedObjects::Listing {};
    }

    // What a list must hold: every stored object of the kind encoded afresh, in order.
    void expectCurrent(const EncodedObjects::Listing &listing, model::Kind kind,
        const std::string &apiVersion = kV1)
    {
        EXPECT_EQ(listing.rev, *m_cache->currentRev());
        const model::KindInfo &info = model::kindInfo(kind);
        Result<std::vector<model::ObjectRecord>> records
            = m_cache->objects(kCluster, info.group, info.name);
        ASSERT_TRUE(records.has_value());
        ASSERT_EQ(listing.items.size(), records->size());
        for (std::size_t i = 0; i < records->size(); ++i) {
            const model::ObjectRecord &record = (*records)[i];
            Result<model::Object> object = model::fromRecord(record);
            ASSERT_TRUE(object.has_value());
            Result<nlohmann::json> wire = ObjectSource::wireJson(*object, record.rev, apiVersion);
            ASSERT_TRUE(wire.has_value());
            EXPECT_EQ(listing.items[i]->json, common::compactJson(*wire)) << record.key.name;
            EXPECT_EQ(listing.items[i]->meta.name, record.key.name);
            EXPECT_EQ(listing.items[i]->rev, record.rev);
        }
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_cache;
    EncodedObjects m_encoded;
};

TEST_F(EncodedObjectsTest, EachObjectIsEncodedOnceUntilItChanges)
{
    expectCurrent(list(model::Kind::ResourceSlice), model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 3);
    expectCurrent(list(model::Kind::ResourceSlice), model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 3);

    write(model::ChangeType::Modified, { slice("b", "silver") });
    const EncodedObjects::Listing after = list(model::Kind::ResourceSlice);
    expectCurrent(after, model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 4); // only the changed slice
    EXPECT_EQ(after.items[1]->meta.labels, (model::StringPairs { { "tier", "silver" } }));

    // Each served version is its own set of encodings.
    expectCurrent(list(model::Kind::ResourceSlice, "resource.k8s.io/v1beta1"),
        model::Kind::ResourceSlice, "resource.k8s.io/v1beta1");
    EXPECT_EQ(m_encoded.encodedCount(), 7);
}

TEST_F(EncodedObjectsTest, AListInProgressKeepsItsItemsWhileLaterListsSeeChanges)
{
    const EncodedObjects::Listing before = list(model::Kind::ResourceSlice);
    write(model::ChangeType::Deleted, { slice("a", "gold") });
    write(model::ChangeType::Added, { slice("d", "tin") });
    write(model::ChangeType::Added, { claim("ml", "train") }); // another kind: not encoded here
    const EncodedObjects::Listing after = list(model::Kind::ResourceSlice);
    expectCurrent(after, model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 4);
    ASSERT_EQ(before.items.size(), 3u);
    EXPECT_EQ(before.items[0]->meta.name, "a");
    EXPECT_LT(before.rev, after.rev);
}

TEST_F(EncodedObjectsTest, NamespacesAreRangesOfOneView)
{
    write(model::ChangeType::Added,
        { claim("ml", "b"), claim("ml", "a"), claim("m", "z"), claim("mlx", "a") });
    EXPECT_EQ(list(model::Kind::ResourceClaim).items.size(), 4u);
    const EncodedObjects::Listing ml = list(model::Kind::ResourceClaim, kV1, "ml");
    ASSERT_EQ(ml.items.size(), 2u);
    EXPECT_EQ(ml.items[0]->meta.name, "a");
    EXPECT_EQ(ml.items[1]->meta.name, "b");
    EXPECT_TRUE(list(model::Kind::ResourceClaim, kV1, "none").items.empty());
    EXPECT_EQ(m_encoded.encodedCount(), 4);
}

TEST_F(EncodedObjectsTest, AViewWhoseChangesWereTrimmedIsRebuiltKeepingUnchangedEncodings)
{
    list(model::Kind::ResourceSlice);
    write(model::ChangeType::Modified, { slice("a", "silver") });
    write(model::ChangeType::Deleted, { slice("c", "tin") });
    // Retention drops the whole log: the changes after the view's revision are gone.
    Result<store::RetentionSummary> trimmed
        = m_cache->applyRetention({ .maxAgeMs = 1, .vacuum = false }, INT64_MAX / 2);
    ASSERT_TRUE(trimmed.has_value());
    ASSERT_GT(trimmed->deletedChanges, 0);
    write(model::ChangeType::Modified, { slice("b", "silver") });
    expectCurrent(list(model::Kind::ResourceSlice), model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 5); // a and b again; no c
}

TEST_F(EncodedObjectsTest, ClearForgetsEveryEncoding)
{
    list(model::Kind::ResourceSlice);
    m_encoded.clear();
    expectCurrent(list(model::Kind::ResourceSlice), model::Kind::ResourceSlice);
    EXPECT_EQ(m_encoded.encodedCount(), 6);
}

TEST_F(EncodedObjectsTest, ASnapshotKeepsTheObjectsOfItsRevision)
{
    const model::KindInfo &slices = model::kindInfo(model::Kind::ResourceSlice);
    const EncodedObjects::Listing first = list(model::Kind::ResourceSlice);
    m_encoded.keepSnapshot(slices, kV1, first.rev);
    write(model::ChangeType::Modified, { slice("b", "silver") });
    write(model::ChangeType::Deleted, { slice("c", "tin") });
    expectCurrent(list(model::Kind::ResourceSlice), model::Kind::ResourceSlice);

    const std::optional<EncodedObjects::Listing> kept
        = m_encoded.snapshot(slices, {}, kV1, first.rev);
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->rev, first.rev);
    ASSERT_EQ(kept->items.size(), 3u);
    EXPECT_EQ(kept->items[1]->meta.labels, (model::StringPairs { { "tier", "gold" } }));
    EXPECT_EQ(kept->items[2]->meta.name, "c");
    // Only revisions asked for are kept, and only while the view is at them.
    EXPECT_FALSE(m_encoded.snapshot(slices, {}, kV1, first.rev + 1).has_value());
    m_encoded.keepSnapshot(slices, kV1, first.rev + 1);
    EXPECT_FALSE(m_encoded.snapshot(slices, {}, kV1, first.rev + 1).has_value());
    EXPECT_FALSE(m_encoded.snapshot(slices, {}, "resource.k8s.io/v1beta1", first.rev).has_value());
}

TEST_F(EncodedObjectsTest, OnlyTheNewestSnapshotsAreKept)
{
    const model::KindInfo &slices = model::kindInfo(model::Kind::ResourceSlice);
    std::vector<int64_t> revs;
    for (int i = 0; i <= EncodedObjects::kSnapshotsPerView; ++i) {
        write(model::ChangeType::Modified, { slice("a", "tier-" + std::to_string(i)) });
        revs.push_back(list(model::Kind::ResourceSlice).rev);
        m_encoded.keepSnapshot(slices, kV1, revs.back());
    }
    EXPECT_FALSE(m_encoded.snapshot(slices, {}, kV1, revs.front()).has_value());
    for (std::size_t i = 1; i < revs.size(); ++i) {
        const std::optional<EncodedObjects::Listing> kept
            = m_encoded.snapshot(slices, {}, kV1, revs[i]);
        ASSERT_TRUE(kept.has_value()) << i;
        EXPECT_EQ(kept->items[0]->meta.labels,
            (model::StringPairs { { "tier", "tier-" + std::to_string(i) } }));
    }
    m_encoded.clear();
    EXPECT_FALSE(m_encoded.snapshot(slices, {}, kV1, revs.back()).has_value());
}

} // namespace
} // namespace dra::server::encoded_objects_test
