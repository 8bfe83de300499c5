// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/mirror.h"

#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include "core/common/json_text.h"
#include "core/server/kube_status.h"
#include "core/kube/rest_client.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

using test::claim;
using test::namespaceObject;
using test::slice;
using test::spinUntil;
using test::TestCluster;

bool answer(server::HttpConnection &connection, const nlohmann::json &body)
{
    connection.respond(
        server::Response { 200, "application/json", {}, QByteArray::fromStdString(body.dump()) });
    return true;
}

class MirrorTest : public testing::Test
{
protected:
    void SetUp() override
    {
        Result<store::CacheDb> cache = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("mirror.db")), store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value());
        m_cache = std::move(*cache);
        m_client = std::make_unique<RestClient>(m_cluster.clientConfig());
        m_options.cluster = test::kClusterName;
    }

    Mirror &mirror()
    {
        m_mirror = std::make_unique<Mirror>(*m_client, m_options, m_clock);
        QObject::connect(m_mirror.get(), &Mirror::batchReady, m_mirror.get(),
            [this](const model::WatchBatch &batch) {
                Result<model::BatchSummary> applied = m_cache.apply(batch);
                ASSERT_TRUE(applied.has_value()) << applied.error().message.toStdString();
            });
        QObject::connect(m_mirror.get(), &Mirror::notice, m_mirror.get(),
            [this](const common::Error &error) { m_notices.append(error.message); });
        return *m_mirror;
    }

    bool driveUntil(const std::function<bool()> &done)
    {
        for (int round = 0; round < 40; ++round) {
            if (spinUntil(done, 250))
                return true;
            m_clock.runNext();
        }
        return done();
    }

    std::vector<model::ObjectRecord> objects(model::Kind kind)
    {
        const model::KindInfo &info = model::kindInfo(kind);
        return m_cache.objects(test::kClusterName, info.group, info.name).value();
    }

    std::optional<model::StreamRecord> stream(const std::string &kind, const std::string &ns = {})
    {
        const std::vector<model::StreamRecord> records
            = m_cache.streams(test::kClusterName).value();
        for (const model::StreamRecord &record : records)
            if (record.kind == kind && record.ns == ns)
                return record;
        return std::nullopt;
    }

    TestCluster m_cluster;
    common::ManualClock m_clock;
    QTemporaryDir m_dir;
    store::CacheDb m_cache;
    std::unique_ptr<RestClient> m_client;
    MirrorOptions m_options;
    std::unique_ptr<Mirror> m_mirror;
    QStringList m_notices;
};

TEST_F(MirrorTest, MirrorsEveryKindAndRecordsTheCluster)
{
    m_cluster.put({ slice("s1", "n1"), claim("ml", "a"), namespaceObject("ml") });
    Mirror &live = mirror();
    bool synced = false;
    QObject::connect(&live, &Mirror::initialSynced, &live, [&] { synced = true; });
    live.start();
    ASSERT_TRUE(driveUntil([&] { return synced; }));
    EXPECT_EQ(objects(model::Kind::ResourceSlice).size(), 1u);
    EXPECT_EQ(objects(model::Kind::ResourceClaim).size(), 1u);
    EXPECT_EQ(objects(model::Kind::Namespace).size(), 2u);
    const std::vector<store::ClusterInfo> clusters = m_cache.clusters().value();
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_EQ(clusters[0].server, m_cluster.clientConfig().server.toString().toStdString());
    EXPECT_FALSE(clusters[0].version.empty());
    EXPECT_GE(live.streams().size(), 8u); // every kind the server serves
}

TEST_F(MirrorTest, APermanentErrorIsEveryStreamsStateAndIsRetriedOnlyRarely)
{
    ClientConfig config = m_cluster.clientConfig();
    config.caCertificates = { QSslCertificate(test::makeCa("someone-else").certificate) };
    m_client = std::make_unique<RestClient>(config);
    Mirror &live = mirror();
    std::vector<common::Error> failures;
    QObject::connect(&live, &Mirror::permanentFailure, &live,
        [&](const common::Error &error) { failures.push_back(error); });
    live.start();
    ASSERT_TRUE(spinUntil([&] { return !failures.empty(); }));
    EXPECT_TRUE(failures[0].permanent);

    // The desktop, the web console and `dractl sync` read why from each stream and the cache.
    const std::vector<StreamStatus> streams = live.streams();
    ASSERT_GE(streams.size(), 8u);
    for (const StreamStatus &status : streams) {
        EXPECT_EQ(status.state, StreamState::Error) << status.label().toStdString();
        EXPECT_TRUE(
            status.reason.contains(QStringLiteral("certificate signed by unknown authority")))
            << status.reason.toStdString();
    }
    const std::optional<model::StreamRecord> slices = stream("ResourceSlice");
    ASSERT_TRUE(slices.has_value());
    EXPECT_EQ(slices->state, "error");
    EXPECT_NE(slices->reason.find("unknown authority"), std::string::npos) << slices->reason;
    EXPECT_TRUE(m_notices.isEmpty()) << m_notices.join(QLatin1Char('\n')).toStdString();

    // No retry loop: a minute on, nothing was tried again; after the long pause it is.
    m_clock.advance(60'000);
    spinUntil([] { return false; }, 300);
    EXPECT_EQ(failures.size(), 1u);
    m_clock.advance(10 * 60'000);
    ASSERT_TRUE(spinUntil([&] { return failures.size() == 2; }));
    EXPECT_TRUE(m_cluster.requests.empty());
}

TEST_F(MirrorTest, NamespaceOnlyUsersGetTheNamespacesTheyMayReadAndAForbiddenRecord)
{
    m_cluster.put(
        { namespaceObject("ml"), namespaceObject("web"), claim("ml", "a"), claim("web", "b") });
    m_cluster.intercept = [](server::Request &request, server::HttpConnection &connection) {
        if (request.path == "/apis/resource.k8s.io/v1/resourceclaims") {
            connection.respond(server::jsonResponse(403,
                server::status::object(403, "Forbidden",
                    "resourceclaims.resource.k8s.io is forbidden: User \"jane\" cannot list "
                    "resource \"resourceclaims\" in API group \"resource.k8s.io\" at the cluster "
                    "scope")));
            return true;
        }
        if (request.path == "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews") {
            const nlohmann::json review = nlohmann::json::parse(request.body.toStdString());
            const bool ml = review["spec"]["namespace"] == "ml";
            nlohmann::json rules = nlohmann::json::array();
            if (ml)
                rules.push_back({ { "verbs", { "get", "list", "watch" } },
                    { "apiGroups", { "resource.k8s.io" } },
                    { "resources", { "resourceclaims" } } });
            return answer(connection,
                { { "kind", "SelfSubjectRulesReview" },
                    { "status", { { "resourceRules", rules } } } });
        }
        return false;
    };
    m_options.kinds = { model::Kind::Namespace, model::Kind::ResourceClaim };
    Mirror &live = mirror();
    live.start();
    ASSERT_TRUE(driveUntil([&] {
        const std::optional<model::StreamRecord> ml = stream("ResourceClaim", "ml");
        return ml && ml->state == "watching";
    }));
    const std::vector<model::ObjectRecord> claims = objects(model::Kind::ResourceClaim);
    ASSERT_EQ(claims.size(), 1u);
    EXPECT_EQ(claims[0].key.ns, "ml");
    const std::optional<model::StreamRecord> clusterWide = stream("ResourceClaim");
    ASSERT_TRUE(clusterWide.has_value());
    EXPECT_EQ(clusterWide->state, "forbidden");
    EXPECT_NE(clusterWide->reason.find("mirroring 1 namespace(s) (ml)"), std::string::npos)
        << clusterWide->reason;
    EXPECT_NE(clusterWide->reason.find("not visible"), std::string::npos) << clusterWide->reason;
    EXPECT_FALSE(stream("ResourceClaim", "web").has_value());
}

TEST_F(MirrorTest, OlderVersionsAreStoredAsReceivedAndAnUpgradeIsPickedUp)
{
    bool upgraded = false;
    const nlohmann::json betaClass = {
        { "apiVersion", "resource.k8s.io/v1beta1" }, { "kind", "DeviceClass" },
        { "metadata",
            { { "name", "gpu.example.com" }, { "uid", "u1" }, { "resourceVersion", "5" } } },
        { "spec",
            { { "selectors",
                { { { "cel", { { "expression", "device.driver == 'gpu.example.com'" } } } } } } } }
    };
    m_cluster.put(
        { nlohmann::json { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
            { "metadata",
                { { "name", "gpu.example.com" }, { "uid", "u1" }, { "resourceVersion", "6" } } },
            { "spec",
                { { "selectors",
                    { { { "cel",
                        { { "expression", "device.driver == 'gpu.example.com'" } } } } } } } } } });
    m_cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (upgraded && request.path == "/apis/resource.k8s.io/v1beta1/deviceclasses") {
            connection.respond(server::jsonResponse(404,
                server::status::object(
                    404, "NotFound", "the server could not find the requested resource")));
            return true; // the old version is gone
        }
        if (upgraded)
            return false; // the real server: resource.k8s.io/v1
        if (request.path == "/apis/resource.k8s.io")
            return answer(connection,
                { { "kind", "APIGroup" }, { "versions", { { { "version", "v1beta1" } } } } });
        if (request.path == "/apis/resource.k8s.io/v1beta1")
            return answer(connection, { { "resources", { { { "name", "deviceclasses" } } } } });
        if (request.path == "/apis/resource.k8s.io/v1beta1/deviceclasses") {
            if (request.query.contains("watch")) {
                connection.beginStream(server::Response { 200, "application/json", {}, {} });
                return true; // open, quiet
            }
            nlohmann::json item = betaClass;
            item.erase("kind");
            item.erase("apiVersion"); // list items come bare, as upstream sends them
            return answer(connection,
                { { "kind", "DeviceClassList" }, { "apiVersion", "resource.k8s.io/v1beta1" },
                    { "metadata", { { "resourceVersion", "5" } } }, { "items", { item } } });
        }
        return false;
    };
    m_options.kinds = { model::Kind::DeviceClass };
    Mirror &live = mirror();
    live.start();
    ASSERT_TRUE(driveUntil(
        [&] { return stream("DeviceClass") && stream("DeviceClass")->state == "watching"; }));
    std::vector<model::ObjectRecord> classes = objects(model::Kind::DeviceClass);
    ASSERT_EQ(classes.size(), 1u);
    EXPECT_EQ(classes[0].apiVersion, "resource.k8s.io/v1beta1");
    EXPECT_NE(
        classes[0].json.find("\"apiVersion\":\"resource.k8s.io/v1beta1\""), std::string::npos);
    EXPECT_EQ(stream("DeviceClass")->apiVersion, "resource.k8s.io/v1beta1");

    // The cluster is upgraded while the mirror runs: the old path goes away, discovery runs
    // again and the kind is read as v1 from then on.
    upgraded = true;
    m_cluster.dropWatches();
    ASSERT_TRUE(driveUntil([&] {
        return stream("DeviceClass") && stream("DeviceClass")->apiVersion == "resource.k8s.io/v1"
            && stream("DeviceClass")->state == "watching";
    }));
    classes = objects(model::Kind::DeviceClass);
    ASSERT_EQ(classes.size(), 1u);
    EXPECT_EQ(classes[0].apiVersion, "resource.k8s.io/v1");
}

TEST_F(MirrorTest, ARestartResumesEachStreamFromTheCache)
{
    m_cluster.put({ slice("s1", "n1") });
    m_options.kinds = { model::Kind::ResourceSlice };
    {
        Mirror &first = mirror();
        first.start();
        ASSERT_TRUE(driveUntil([&] {
            return stream("ResourceSlice") && stream("ResourceSlice")->state == "watching";
        }));
        first.stop();
    }
    m_cluster.put({ slice("s2", "n2") });
    m_cluster.requests.clear();
    m_options.resumeFrom[{ model::Kind::ResourceSlice, "" }]
        = ResumePoint { stream("ResourceSlice")->apiVersion,
              stream("ResourceSlice")->resourceVersion };
    Mirror &second = mirror();
    second.start();
    ASSERT_TRUE(driveUntil([&] { return objects(model::Kind::ResourceSlice).size() == 2u; }));
    for (const std::string &request : m_cluster.requests) {
        if (request.find("resourceslices") != std::string::npos) {
            EXPECT_NE(request.find("watch=true"), std::string::npos) << "listed again: " << request;
        }
    }
}

TEST_F(MirrorTest, BatchesGoThroughTheStoreOnItsOwnThread)
{
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2") });
    m_cache = store::CacheDb(); // the store owns the writer
    Result<store::CacheDb> writer = store::CacheDb::open(
        m_dir.filePath(QStringLiteral("mirror.db")), store::OpenMode::ReadWrite);
    ASSERT_TRUE(writer.has_value()) << writer.error().message.toStdString();
    QThread storeThread;
    auto *storeObject = new store::Store(std::move(*writer));
    storeObject->moveToThread(&storeThread);
    QObject::connect(&storeThread, &QThread::finished, storeObject, &QObject::deleteLater);
    storeThread.start();
    std::atomic<int> committed = 0;
    QObject::connect(
        storeObject, &store::Store::committed, storeObject,
        [&](const model::CommittedBatch &batch) { committed += int(batch.changes.size()); },
        Qt::DirectConnection);

    m_options.kinds = { model::Kind::ResourceSlice };
    Mirror live(*m_client, m_options, m_clock);
    QObject::connect(&live, &Mirror::batchReady, storeObject, &store::Store::enqueue);
    live.start();
    ASSERT_TRUE(driveUntil([&] { return committed.load() == 2; }));
    storeThread.quit();
    storeThread.wait();
    Result<store::CacheDb> reader = store::CacheDb::open(
        m_dir.filePath(QStringLiteral("mirror.db")), store::OpenMode::ReadOnly);
    ASSERT_TRUE(reader.has_value());
    EXPECT_EQ(
        reader->objects(test::kClusterName, "resource.k8s.io", "ResourceSlice").value().size(), 2u);
}

// A context that now reaches another cluster (a recreated cluster under the same name): the
// mirror says so, resumes nothing, replaces the cached objects with the new cluster's, records
// its identity, and keeps the old cluster's change log apart under a name of its own.
TEST_F(MirrorTest, AContextThatNowReachesAnotherClusterStartsAfreshWithTheOldHistoryApart)
{
    nlohmann::json kubeSystem = namespaceObject("kube-system");
    kubeSystem["metadata"]["uid"] = "22222222-0000-4000-8000-000000000002";
    m_cluster.put({ kubeSystem, slice("s1", "n1") });
    // The cache as an earlier run left it, following another cluster under this name.
    Result<model::Object> old = model::decodeObject(slice("old-slice", "n0"));
    ASSERT_TRUE(old.has_value());
    model::WatchBatch earlier;
    earlier.cluster = test::kClusterName;
    earlier.server = "https://old.example:6443";
    earlier.clusterUid = "11111111-0000-4000-8000-000000000001";
    earlier.changes.push_back({ model::ChangeType::Added, model::toRecord(*old) });
    ASSERT_TRUE(m_cache.apply(earlier).has_value());
    m_options.recordedIdentity = { earlier.clusterUid, earlier.server };
    m_options.resumeFrom[{ model::Kind::ResourceSlice, std::string() }]
        = { "resource.k8s.io/v1", "999999" };
    m_options.kinds = { model::Kind::ResourceSlice, model::Kind::Namespace };

    Mirror &live = mirror();
    bool synced = false;
    QObject::connect(&live, &Mirror::initialSynced, &live, [&] { synced = true; });
    live.start();
    ASSERT_TRUE(driveUntil([&] { return synced; }));
    EXPECT_TRUE(m_notices.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("now reaches another cluster (kube-system namespace "
                                             "22222222-0000-4000-8000-000000000002")))
        << m_notices.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(m_notices.join(QLatin1Char('\n')).contains(QStringLiteral("test@11111111")));

    const std::vector<model::ObjectRecord> slices = objects(model::Kind::ResourceSlice);
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].key.name, "s1");
    const std::vector<store::ClusterInfo> clusters = m_cache.clusters().value();
    ASSERT_EQ(clusters.size(), 1u);
    EXPECT_EQ(clusters[0].uid, "22222222-0000-4000-8000-000000000002");
    EXPECT_EQ(clusters[0].server, m_cluster.clientConfig().server.toString().toStdString());

    // The old cluster's log is apart; the new one's begins with the old objects leaving.
    const std::vector<store::LoggedChange> archived
        = m_cache.history(store::HistoryQuery { .cluster = "test@11111111" }).value();
    ASSERT_EQ(archived.size(), 1u);
    EXPECT_EQ(archived[0].key.name, "old-slice");
    EXPECT_EQ(archived[0].type, model::ChangeType::Added);
    const std::vector<store::LoggedChange> current
        = m_cache.history(store::HistoryQuery { .cluster = test::kClusterName }).value();
    for (const store::LoggedChange &change : current)
        EXPECT_FALSE(change.key.name == "old-slice" && change.type != model::ChangeType::Deleted)
            << change.rev;
}

// The same cluster again: nothing is said, and the streams resume where they were.
TEST_F(MirrorTest, TheSameClusterAgainIsResumedAndItsIdentityRecorded)
{
    nlohmann::json kubeSystem = namespaceObject("kube-system");
    kubeSystem["metadata"]["uid"] = "33333333-0000-4000-8000-000000000003";
    m_cluster.put({ kubeSystem, slice("s1", "n1") });
    m_options.kinds = { model::Kind::ResourceSlice };
    {
        Mirror &first = mirror();
        bool synced = false;
        QObject::connect(&first, &Mirror::initialSynced, &first, [&] { synced = true; });
        first.start();
        ASSERT_TRUE(driveUntil([&] { return synced; }));
    }
    const store::ClusterInfo info = m_cache.clusters().value().at(0);
    EXPECT_EQ(info.uid, "33333333-0000-4000-8000-000000000003");
    m_options.recordedIdentity = { info.uid, info.server };
    m_options.resumeFrom[{ model::Kind::ResourceSlice, std::string() }]
        = { "resource.k8s.io/v1", stream("ResourceSlice")->resourceVersion };
    m_notices.clear();
    m_cluster.requests.clear();
    Mirror &again = mirror();
    bool watching = false;
    QObject::connect(&again, &Mirror::streamChanged, &again,
        [&](const StreamStatus &status) { watching = status.state == StreamState::Watching; });
    again.start();
    ASSERT_TRUE(driveUntil([&] { return watching; }));
    EXPECT_FALSE(m_notices.join(QLatin1Char('\n')).contains(QStringLiteral("another cluster")));
    for (const std::string &request : m_cluster.requests)
        EXPECT_FALSE(request.starts_with("GET /apis/resource.k8s.io/v1/resourceslices?limit"))
            << "listed again: " << request;
}

} // namespace
} // namespace dra::kube
