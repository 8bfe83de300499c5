// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The reflector against our own API server over TLS: the mirror must end equal to the server,
// object by object, after every fault, with no duplicate and no missing change in its log.
#include "core/kube/reflector.h"

#include <algorithm>
#include <map>
#include <memory>

#include <QPointer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/common/json_text.h"
#include "core/kube/rest_client.h"
#include "core/model/object.h"
#include "core/model/record_codec.h"
#include "core/server/api_server.h"
#include "core/store/cache_db.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

using test::claim;
using test::slice;
using test::spinUntil;
using test::TestCluster;

const model::KindInfo &kSlices = model::kindInfo(model::Kind::ResourceSlice);
const model::KindInfo &kClaims = model::kindInfo(model::Kind::ResourceClaim);

// The mirror's cache, written batch by batch as the reflector emits them.
class MirrorCache
{
public:
    MirrorCache()
    {
        Result<store::CacheDb> cache = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("mirror.db")), store::OpenMode::ReadWrite);
        EXPECT_TRUE(cache.has_value());
        m_cache = std::move(*cache);
    }

    void apply(const model::WatchBatch &batch)
    {
        Result<model::BatchSummary> summary = m_cache.apply(batch);
        ASSERT_TRUE(summary.has_value()) << summary.error().message.toStdString();
        ++batches;
    }

    std::vector<std::string> json(const model::KindInfo &kind)
    {
        std::vector<std::string> out;
        const std::vector<model::ObjectRecord> objects
            = m_cache.objects(test::kClusterName, kind.group, kind.name).value();
        for (const model::ObjectRecord &object : objects)
            out.push_back(object.json);
        return out;
    }

    std::vector<store::LoggedChange> log(const model::KindInfo &kind, int64_t afterRev = 0)
    {
        return m_cache
            .history(store::HistoryQuery { .cluster = test::kClusterName,
                .group = std::string(kind.group),
                .kind = std::string(kind.name),
                .afterRev = afterRev,
                .limit = 100000 })
            .value();
    }

    int64_t currentRev() { return m_cache.currentRev().value(); }
    store::CacheDb &cache() { return m_cache; }
    int batches = 0;

private:
    QTemporaryDir m_dir;
    store::CacheDb m_cache;
};

// No object appears twice in a row with the same state: a relist or a resumed watch never
// logs what the mirror already had.
void expectNoDuplicates(const std::vector<store::LoggedChange> &log)
{
    std::map<common::ObjectKey, const store::LoggedChange *> last;
    for (const store::LoggedChange &change : log) {
        auto it = last.find(change.key);
        if (it != last.end()) {
            EXPECT_FALSE(it->second->type == change.type && it->second->json == change.json)
                << "logged twice: " << change.key.display() << " at revisions " << it->second->rev
                << " and " << change.rev;
        }
        last[change.key] = &change;
    }
}

class ReflectorTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_client = std::make_unique<RestClient>(m_cluster.clientConfig());
        m_options.cluster = test::kClusterName;
        m_options.pageSize = 2;
    }

    Reflector &reflector(const model::KindInfo &kind, const std::string &ns = {})
    {
        auto reflector = std::make_unique<Reflector>(*m_client, kind,
            std::string(kind.group.empty() ? "v1" : "resource.k8s.io/v1"), ns, m_options, m_clock);
        QObject::connect(reflector.get(), &Reflector::batchReady, reflector.get(),
            [this](const model::WatchBatch &batch) { m_mirror.apply(batch); });
        QObject::connect(reflector.get(), &Reflector::statusChanged, reflector.get(),
            [this](const StreamStatus &status) { m_states.push_back(status.state); });
        m_reflectors.push_back(std::move(reflector));
        return *m_reflectors.back();
    }

    // Runs the event loop until `done`, letting the clock run out a backoff whenever the
    // reflector waits on one: retries happen at once, and no test sleeps through a delay.
    bool driveUntil(const std::function<bool()> &done)
    {
        for (int round = 0; round < 40; ++round) {
            if (spinUntil(done, 250))
                return true;
            m_clock.runNext();
        }
        return done();
    }

    bool waitFor(Reflector &reflector, StreamState state)
    {
        return driveUntil([&] { return reflector.status().state == state; });
    }

    // Waits until the mirror holds exactly what the server serves.
    bool waitForEqual(const model::KindInfo &kind)
    {
        const bool equal
            = driveUntil([&] { return m_mirror.json(kind) == m_cluster.servedJson(kind); });
        EXPECT_EQ(m_mirror.json(kind), m_cluster.servedJson(kind));
        return equal;
    }

    TestCluster m_cluster;
    common::ManualClock m_clock;
    ReflectorOptions m_options;
    std::unique_ptr<RestClient> m_client;
    std::vector<std::unique_ptr<Reflector>> m_reflectors;
    MirrorCache m_mirror;
    std::vector<StreamState> m_states;
};

TEST_F(ReflectorTest, ListsPageByPageThenFollowsChanges)
{
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2"), slice("s3", "n3"), slice("s4", "n4"),
        slice("s5", "n5") });
    Reflector &slices = reflector(kSlices);
    std::vector<int> progress;
    QObject::connect(&slices, &Reflector::listProgress, &slices,
        [&](int objects) { progress.push_back(objects); });
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    EXPECT_EQ(progress, (std::vector<int> { 2, 4, 5 }));
    ASSERT_TRUE(waitForEqual(kSlices));
    EXPECT_EQ(m_states,
        (std::vector<StreamState> {
            StreamState::Listing, StreamState::Synced, StreamState::Watching }));
    // The stream's state and where it got to are in the cache.
    const std::vector<model::StreamRecord> streams
        = m_mirror.cache().streams(test::kClusterName).value();
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0].state, "watching");
    EXPECT_EQ(streams[0].apiVersion, "resource.k8s.io/v1");
    EXPECT_FALSE(streams[0].resourceVersion.empty());

    const int64_t synced = m_mirror.currentRev();
    m_cluster.put({ slice("s2", "n2", "b"), slice("s6", "n6") });
    m_cluster.remove({ slice("s1", "n1") });
    ASSERT_TRUE(waitForEqual(kSlices));
    const std::vector<store::LoggedChange> log = m_mirror.log(kSlices, synced);
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[0].type, model::ChangeType::Modified);
    EXPECT_EQ(log[1].type, model::ChangeType::Added);
    EXPECT_EQ(log[2].type, model::ChangeType::Deleted);
    EXPECT_EQ(log[2].key.name, "s1");
    EXPECT_EQ(m_mirror.cache()
                  .listVersion(test::kClusterName, "resource.k8s.io", "ResourceSlice")
                  .value(),
        std::optional<std::string>(
            m_mirror.cache().streams(test::kClusterName).value()[0].resourceVersion));
}

TEST_F(ReflectorTest, DroppedWatchResumesFromTheLastResourceVersionWithoutLosingOrRepeating)
{
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2") });
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    const int64_t synced = m_mirror.currentRev();
    m_cluster.put({ slice("s1", "n1", "b") });
    ASSERT_TRUE(waitForEqual(kSlices));
    const size_t listRequests = std::ranges::count_if(m_cluster.requests, [](const std::string &r) {
        return r.find("watch=") == std::string::npos
            && r.find("resourceslices") != std::string::npos;
    });

    m_cluster.dropWatches();
    m_cluster.put({ slice("s2", "n2", "b"), slice("s3", "n3") });
    m_cluster.remove({ slice("s1", "n1") });
    ASSERT_TRUE(waitForEqual(kSlices));
    const std::vector<store::LoggedChange> log = m_mirror.log(kSlices, synced);
    ASSERT_EQ(
        log.size(), 4u); // each change once: s1 relabelled, s2 relabelled, s3 added, s1 deleted
    expectNoDuplicates(m_mirror.log(kSlices));
    const size_t listRequestsAfter
        = std::ranges::count_if(m_cluster.requests, [](const std::string &r) {
              return r.find("watch=") == std::string::npos
                  && r.find("resourceslices") != std::string::npos;
          });
    EXPECT_EQ(listRequestsAfter, listRequests); // resumed, not relisted
}

TEST_F(ReflectorTest, GoneRelistsAndDeletesWhatVanishedMeanwhile)
{
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2"), slice("s3", "n3") });
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kSlices));
    const int64_t synced = m_mirror.currentRev();

    // The watch breaks and cannot come back at once; meanwhile s1 goes, s2 changes and the
    // server forgets the history the mirror would need to catch up.
    m_cluster.failNext("watch=true", 503);
    m_cluster.dropWatches();
    ASSERT_TRUE(waitFor(slices, StreamState::Stale));
    m_cluster.remove({ slice("s1", "n1") });
    m_cluster.put({ slice("s2", "n2", "b"), slice("s4", "n4") });
    m_cluster.compactHistory();
    // The backoff ends: a watch from the old resourceVersion gets 410, and the mirror relists.
    ASSERT_TRUE(waitForEqual(kSlices));
    EXPECT_NE(std::ranges::find(m_states, StreamState::Listing), m_states.end());
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));

    const std::vector<store::LoggedChange> log = m_mirror.log(kSlices, synced);
    ASSERT_EQ(log.size(), 3u);
    std::map<std::string, model::ChangeType> changed;
    for (const store::LoggedChange &change : log)
        changed[change.key.name] = change.type;
    EXPECT_EQ(changed["s1"], model::ChangeType::Deleted); // reconciled by the relist, and logged
    EXPECT_EQ(changed["s2"], model::ChangeType::Modified);
    EXPECT_EQ(changed["s4"], model::ChangeType::Added);
    expectNoDuplicates(m_mirror.log(kSlices));
    EXPECT_NE(std::ranges::find(m_states, StreamState::Stale), m_states.end());
}

TEST_F(ReflectorTest, ExpiredContinueTokenRestartsTheList)
{
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2"), slice("s3", "n3"), slice("s4", "n4"),
        slice("s5", "n5") });
    Reflector &slices = reflector(kSlices);
    bool changed = false;
    QObject::connect(&slices, &Reflector::listProgress, &slices, [&](int) {
        if (!changed) { // between the first and the second page, the cluster moves on
            changed = true;
            m_cluster.put({ slice("s1", "n1", "b") });
            m_cluster.remove({ slice("s5", "n5") });
        }
    });
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kSlices));
    const size_t continued = std::ranges::count_if(m_cluster.requests,
        [](const std::string &r) { return r.find("continue=") != std::string::npos; });
    EXPECT_GE(continued, 2u); // the expired one, then the restarted list's
    expectNoDuplicates(m_mirror.log(kSlices));
}

TEST_F(ReflectorTest, ContinueTokensAreSentBackByteForByte)
{
    const std::string token = "a+b/c==";
    std::vector<std::string> received;
    m_cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (request.path != "/apis/resource.k8s.io/v1/deviceclasses"
            || request.query.contains("watch"))
            return false;
        const std::string got = request.query.value("continue").value_or("");
        received.push_back(got);
        nlohmann::json list = { { "kind", "DeviceClassList" },
            { "apiVersion", "resource.k8s.io/v1" }, { "metadata", { { "resourceVersion", "1" } } },
            { "items", nlohmann::json::array() } };
        if (got.empty())
            list["metadata"]["continue"] = token;
        connection.respond(server::Response {
            200, "application/json", {}, QByteArray::fromStdString(list.dump()) });
        return true;
    };
    Reflector &classes = reflector(model::kindInfo(model::Kind::DeviceClass));
    classes.start();
    ASSERT_TRUE(spinUntil([&] { return classes.status().state == StreamState::Watching; }));
    ASSERT_EQ(received.size(), 2u);
    EXPECT_EQ(received[1], token);
}

TEST_F(ReflectorTest, ServerRestartEndsEqualToTheServer)
{
    m_cluster.put({ claim("ml", "a"), claim("ml", "b"), claim("web", "c") });
    Reflector &claims = reflector(kClaims);
    claims.start();
    ASSERT_TRUE(waitFor(claims, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kClaims));

    m_cluster.stop();
    // Retries while the server is down back off on the clock; no test time passes.
    ASSERT_TRUE(waitFor(claims, StreamState::Stale));
    EXPECT_FALSE(claims.status().reason.isEmpty());
    m_cluster.put({ claim("ml", "a", "b"), claim("web", "d") });
    m_cluster.remove({ claim("ml", "b") });
    m_cluster.start();
    ASSERT_TRUE(waitFor(claims, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kClaims));
    expectNoDuplicates(m_mirror.log(kClaims));
}

TEST_F(ReflectorTest, NamespaceStreamReplacesOnlyItsNamespace)
{
    m_cluster.put({ claim("ml", "a"), claim("web", "c") });
    Reflector &ml = reflector(kClaims, "ml");
    ml.start();
    ASSERT_TRUE(waitFor(ml, StreamState::Watching));
    std::vector<std::string> mirrored = m_mirror.json(kClaims);
    ASSERT_EQ(mirrored.size(), 1u);
    EXPECT_NE(mirrored[0].find("\"namespace\":\"ml\""), std::string::npos);
    EXPECT_NE(m_cluster.requests.front().find("/namespaces/ml/resourceclaims"), std::string::npos);
}

TEST_F(ReflectorTest, StreamingListWhereTheServerOffersIt)
{
    m_options.streamingList = true;
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2"), slice("s3", "n3") });
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kSlices));
    ASSERT_EQ(m_cluster.requests.size(), 1u); // one watch request carried the list
    EXPECT_NE(m_cluster.requests[0].find("sendInitialEvents=true"), std::string::npos);
    m_cluster.put({ slice("s4", "n4") });
    ASSERT_TRUE(waitForEqual(kSlices));
}

TEST_F(ReflectorTest, AWatchRefusedWithRetryAfterWaitsAsLongAsTheServerAsked)
{
    m_cluster.put({ slice("s1", "n1") });
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));

    // An overloaded server refuses the next watch and asks for two minutes' peace.
    int refused = 0;
    m_cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (request.target.find("watch=true") == std::string::npos || refused > 0)
            return false;
        ++refused;
        connection.respond(server::Response { 429, "application/json", { { "retry-after", "120" } },
            R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429})" });
        return true;
    };
    m_cluster.dropWatches();
    // The watch comes back (after the backoff, run out at once), and is refused. Each wait is
    // long enough for the answer, so the clock never runs out the server's wait here.
    const auto refusedWithWait = [&] {
        return refused == 1 && slices.status().reason.contains(QStringLiteral("asked to wait"));
    };
    for (int round = 0; round < 5 && !spinUntil(refusedWithWait, 2000); ++round)
        m_clock.runNext();
    ASSERT_TRUE(refusedWithWait()) << slices.status().reason.toStdString();
    EXPECT_EQ(slices.status().state, StreamState::Stale);
    EXPECT_NE(slices.status().reason.indexOf(QStringLiteral("the server asked to wait 120 s")), -1)
        << slices.status().reason.toStdString();
    EXPECT_GE(m_clock.nextDelay(), 120'000) << "not the backoff's first second";

    // Once the wait is over the watch resumes and catches up.
    m_cluster.put({ slice("s2", "n2") });
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kSlices));
}

TEST_F(ReflectorTest, ForbiddenIsAStateNotAnEmptyList)
{
    m_cluster.put({ slice("s1", "n1") });
    m_cluster.failNext("resourceslices", 403, 1);
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(spinUntil([&] { return slices.status().state == StreamState::Forbidden; }));
    EXPECT_NE(slices.status().reason.indexOf(QStringLiteral("Forbidden")), -1);
    const std::vector<model::StreamRecord> streams
        = m_mirror.cache().streams(test::kClusterName).value();
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0].state, "forbidden");
    ASSERT_TRUE(m_clock.runNext()); // permission granted meanwhile: the retry succeeds
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    ASSERT_TRUE(waitForEqual(kSlices));
}

TEST_F(ReflectorTest, RefusedCredentialsAreAnErrorStateTriedAgainOnlyRarely)
{
    m_cluster.put({ slice("s1", "n1") });
    Reflector &slices = reflector(kSlices);
    std::vector<common::Error> failures;
    QObject::connect(&slices, &Reflector::permanentFailure, &slices,
        [&](const common::Error &error) { failures.push_back(error); });
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));

    // The token is revoked while the stream watches.
    m_cluster.failNext("resourceslices", 401, 1000);
    m_cluster.dropWatches();
    ASSERT_TRUE(waitFor(slices, StreamState::Error));
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_TRUE(failures[0].permanent);
    EXPECT_NE(slices.status().reason.indexOf(QStringLiteral("HTTP 401")), -1)
        << slices.status().reason.toStdString();
    const std::vector<model::StreamRecord> streams
        = m_mirror.cache().streams(test::kClusterName).value();
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0].state, "error");
    EXPECT_EQ(m_mirror.json(kSlices).size(), 1u); // what was mirrored stays

    // No retry loop: nothing is sent for minutes, then one more try.
    EXPECT_GE(m_clock.nextDelay(), m_options.permanentRetryMs);
    const size_t sent = m_cluster.requests.size();
    m_clock.advance(60'000);
    spinUntil([] { return false; }, 300);
    EXPECT_EQ(m_cluster.requests.size(), sent);
    m_clock.advance(m_options.permanentRetryMs * 2);
    ASSERT_TRUE(spinUntil([&] { return failures.size() == 2; }));
    EXPECT_EQ(m_cluster.requests.size(), sent + 1);
}

TEST(BackoffTest, DoublesWithJitterUpToTheCap)
{
    Backoff backoff(BackoffPolicy { .initialMs = 100, .maxMs = 1000, .factor = 2.0, .jitter = 0.5 },
        [] { return 0.5; });
    EXPECT_EQ(backoff.next(), 125);
    EXPECT_EQ(backoff.next(), 250);
    EXPECT_EQ(backoff.next(), 500);
    EXPECT_EQ(backoff.next(), 1000);
    EXPECT_EQ(backoff.next(), 1250); // capped at 1000, plus jitter
    backoff.reset();
    EXPECT_EQ(backoff.next(), 125);
}

// A restored or recreated cluster: the stream resumes at a resourceVersion the server never
// reached. The server answers 504 Too large resource version; the reflector lists from scratch
// and drops what the cluster lacks, then follows it, instead of waiting on a silent watch.
TEST_F(ReflectorTest, ResumeBeyondTheServersResourceVersionListsAfreshAndDropsWhatItLacks)
{
    m_cluster.api().watchHub().setTooLargeWaitMs(100);
    m_cluster.put({ slice("s1", "n1"), slice("s2", "n2") });
    // What the cache held of the cluster as it was: a slice the cluster no longer has.
    Result<model::Object> gone = model::decodeObject(slice("s9", "n9"));
    ASSERT_TRUE(gone.has_value());
    model::WatchBatch earlier;
    earlier.cluster = test::kClusterName;
    earlier.changes.push_back({ model::ChangeType::Added, model::toRecord(*gone) });
    m_mirror.apply(earlier);

    Reflector &slices = reflector(kSlices);
    slices.start("999999");
    ASSERT_TRUE(waitForEqual(kSlices));
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    EXPECT_NE(std::ranges::find(m_states, StreamState::Listing), m_states.end());
    const std::vector<store::LoggedChange> log = m_mirror.log(kSlices);
    ASSERT_FALSE(log.empty());
    EXPECT_EQ(log.back().key.name, "s9");
    EXPECT_EQ(log.back().type, model::ChangeType::Deleted);
    // And it follows the cluster from there.
    m_cluster.put({ slice("s3", "n3") });
    ASSERT_TRUE(waitForEqual(kSlices));
}

// A watch the server holds open without a word, from a server known to send bookmarks, is
// suspect: the reflector lists again, and a change the silent watch never delivered arrives.
TEST_F(ReflectorTest, SilentWatchFromAServerThatSendsBookmarksIsListedAgain)
{
    m_options.quietWatchLimitMs = 1000;
    m_options.bookmarks = std::make_shared<BookmarkCadence>();
    m_options.bookmarks->observe(500);
    m_cluster.put({ slice("s1", "n1") });
    int lists = 0;
    std::vector<QPointer<server::HttpConnection>> held;
    m_cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (request.path != "/apis/resource.k8s.io/v1/resourceslices")
            return false;
        if (request.query.value("watch").value_or("") != "true") {
            ++lists;
            return false;
        }
        // Open, and silent for good, as a watch waiting for a resourceVersion that never comes.
        connection.beginStream(server::Response { 200, "application/json", {}, {} });
        held.emplace_back(&connection);
        return true;
    };
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(waitFor(slices, StreamState::Watching));
    const int before = lists;
    m_cluster.put({ slice("s2", "n2") });
    ASSERT_TRUE(driveUntil([&] { return lists > before; }));
    ASSERT_TRUE(waitForEqual(kSlices));
}

// One watch event cut short, the stream going on: the watch ends on it and resumes from the last
// change applied, so nothing is lost, and the stream's status counts it.
TEST_F(ReflectorTest, UnreadableWatchEventEndsTheWatchAndTheResumedOneLosesNothing)
{
    m_cluster.put({ slice("s1", "n1") });
    bool broken = false;
    m_cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (broken || request.path != "/apis/resource.k8s.io/v1/resourceslices"
            || request.query.value("watch").value_or("") != "true")
            return false;
        broken = true;
        server::HttpStream *stream
            = connection.beginStream(server::Response { 200, "application/json", {}, {} });
        stream->write(R"({"type":"MODIFIED","object":{"metadata":{"name":"s1")"
                      "\n"
                      R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"1"}}})"
                      "\n");
        return true; // then silent
    };
    Reflector &slices = reflector(kSlices);
    slices.start();
    ASSERT_TRUE(driveUntil([&] { return broken; }));
    m_cluster.put({ slice("s2", "n2") });
    ASSERT_TRUE(waitForEqual(kSlices));
    EXPECT_EQ(slices.status().malformedEvents, 1);
}

} // namespace
} // namespace dra::kube
