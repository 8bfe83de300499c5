// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A mirror resumed against a recreated or restored cluster, as a user meets it: `dractl serve
// --demo` (cluster A) mirrored into a cache, then a fresh `dractl serve --demo` under the same
// context (cluster B, as after `kind delete cluster && kind create cluster`), or A restored from
// an older state (its resourceVersions go back). `dractl sync` and `dractl serve --context` must
// see a new claim at once and end equal to the cluster, object by object, never "watching" a
// cluster whose changes they miss.
#include <memory>
#include <set>

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QUrlQuery>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/rest_client.h"
#include "core/store/cache_db.h"
#include "tests/support/kube_fixture.h"

namespace dra::kube {
namespace {

using test::spinUntil;

constexpr const char *kContextCluster = "demo"; // the context both demo clusters write

const std::vector<model::Kind> kMirroredKinds { model::Kind::DeviceClass,
    model::Kind::ResourceSlice, model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate,
    model::Kind::Node, model::Kind::Pod, model::Kind::Namespace };

QByteArray newClaimJson(const std::string &name)
{
    const nlohmann::json claim = { { "apiVersion", "resource.k8s.io/v1" },
        { "kind", "ResourceClaim" }, { "metadata", { { "name", name }, { "namespace", "batch" } } },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.nvidia.com" } } } } } } } } } } };
    return QByteArray::fromStdString(claim.dump());
}

// One `dractl serve --demo` process and a client of it.
class DemoProcess
{
public:
    // Starts it with its kubeconfig at `kubeconfig`; whether it serves.
    ::testing::AssertionResult start(
        const QTemporaryDir &dir, const QString &name, const QStringList &extra = {})
    {
        m_kubeconfig = dir.filePath(name + QStringLiteral(".kubeconfig"));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(
            QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(name + QStringLiteral("-config")));
        m_process.setProcessEnvironment(environment);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral(DRA_DRACTL),
            QStringList { QStringLiteral("serve"), QStringLiteral("--demo"),
                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                QStringLiteral("--write-kubeconfig"), m_kubeconfig, QStringLiteral("--test-hooks") }
                + extra);
        QByteArray output;
        spinUntil(
            [&] {
                output += m_process.readAllStandardOutput();
                return output.contains("kubeconfig:") || m_process.state() == QProcess::NotRunning;
            },
            120'000);
        if (!output.contains("kubeconfig:"))
            return ::testing::AssertionFailure() << output.toStdString();
        Result<Kubeconfig> kubeconfig = readKubeconfigFile(m_kubeconfig);
        if (!kubeconfig)
            return ::testing::AssertionFailure() << kubeconfig.error().message.toStdString();
        Result<ClientConfig> config = resolveContext(*kubeconfig, {}, ProxyEnvironment {});
        if (!config)
            return ::testing::AssertionFailure() << config.error().message.toStdString();
        m_client = std::make_unique<RestClient>(*config, RestOptions { .userAgent = "test" });
        return ::testing::AssertionSuccess();
    }

    void stop()
    {
        m_client.reset();
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(20'000))
            m_process.kill();
    }

    ~DemoProcess() { stop(); }

    const QString &kubeconfig() const { return m_kubeconfig; }

    Result<RestResponse> call(
        const QByteArray &method, const QString &target, const QByteArray &body = {})
    {
        RestRequest request;
        request.method = method;
        request.path = target.section(QLatin1Char('?'), 0, 0);
        request.query = QUrlQuery(target.section(QLatin1Char('?'), 1));
        request.body = body;
        std::optional<Result<RestResponse>> result;
        QObject context;
        m_client->send(
            request, &context, [&](const Result<RestResponse> &response) { result = response; });
        spinUntil([&] { return result.has_value(); }, 30'000);
        return result.value_or(fail(common::Error::Code::Internal, QStringLiteral("no answer")));
    }

    bool createClaim(const std::string &name)
    {
        Result<RestResponse> created = call("POST",
            QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            newClaimJson(name));
        EXPECT_TRUE(created.has_value()) << created.error().message.toStdString();
        return created.has_value();
    }

    // The objects of `kind` as served, compact JSON, as a mirror stores them.
    std::vector<std::string> served(const model::KindInfo &kind)
    {
        const QString path = kind.group.empty()
            ? QStringLiteral("/api/v1/") + common::qs(kind.plural)
            : QStringLiteral("/apis/resource.k8s.io/v1/") + common::qs(kind.plural);
        std::vector<std::string> out;
        Result<RestResponse> list = call("GET", path);
        if (!list)
            return out;
        const nlohmann::json json = nlohmann::json::parse(list->body.toStdString(), nullptr, false);
        if (json.is_object() && json.contains("items"))
            for (const nlohmann::json &item : json["items"])
                out.push_back(common::compactJson(item));
        return out;
    }

    // The list's resourceVersion of ResourceClaims: where the cluster is now.
    std::string currentRevision()
    {
        Result<RestResponse> list
            = call("GET", QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims"));
        if (!list)
            return {};
        return nlohmann::json::parse(list->body.toStdString())["metadata"].value(
            "resourceVersion", "");
    }

private:
    QString m_kubeconfig;
    QProcess m_process;
    std::unique_ptr<RestClient> m_client;
};

class RecreatedClusterTest : public testing::Test
{
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }

    void TearDown() override
    {
        for (QProcess *process : { &m_sync, &m_serve }) {
            if (process->state() == QProcess::NotRunning)
                continue;
            process->terminate();
            if (!process->waitForFinished(20'000))
                process->kill();
        }
    }

    QString cachePath() const { return m_dir.filePath(QStringLiteral("x.db")); }

    // `dractl sync --once` of `cluster` into the cache; its exit code.
    int syncOnce(const DemoProcess &cluster)
    {
        QProcess sync;
        sync.setProcessChannelMode(QProcess::MergedChannels);
        sync.start(QStringLiteral(DRA_DRACTL),
            { QStringLiteral("sync"), QStringLiteral("--once"), QStringLiteral("--kubeconfig"),
                cluster.kubeconfig(), QStringLiteral("--cache"), cachePath() });
        if (!sync.waitForFinished(180'000))
            return -1;
        const QByteArray output = sync.readAll();
        EXPECT_EQ(sync.exitCode(), 0) << output.toStdString();
        return sync.exitCode();
    }

    // Starts a long-running dractl command and waits for `ready` in what it prints.
    ::testing::AssertionResult startAndWait(
        QProcess &process, const QStringList &arguments, const QByteArray &ready)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(
            QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("dractl-config")));
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral(DRA_DRACTL), arguments);
        spinUntil(
            [&] {
                m_printed += process.readAll();
                return m_printed.contains(ready) || process.state() == QProcess::NotRunning;
            },
            180'000);
        if (m_printed.contains(ready))
            return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << m_printed.toStdString();
    }

    // What the cache holds of `kind` for the context's cluster, read as it is now.
    std::vector<std::string> cached(const model::KindInfo &kind)
    {
        std::vector<std::string> out;
        Result<store::CacheDb> cache = store::CacheDb::open(cachePath(), store::OpenMode::ReadOnly);
        if (!cache)
            return out;
        Result<std::vector<model::ObjectRecord>> objects
            = cache->objects(kContextCluster, kind.group, kind.name);
        if (objects)
            for (const model::ObjectRecord &object : *objects)
                out.push_back(object.json);
        return out;
    }

    bool cacheHoldsClaim(const std::string &name)
    {
        for (const std::string &json : cached(model::kindInfo(model::Kind::ResourceClaim)))
            if (json.find("\"name\":\"" + name + "\"") != std::string::npos)
                return true;
        return false;
    }

    // Whether the cache comes to hold exactly what `cluster` serves, kind by kind.
    bool cacheEqualsCluster(DemoProcess &cluster)
    {
        const bool equal = spinUntil(
            [&] {
                for (model::Kind kind : kMirroredKinds) {
                    const model::KindInfo &info = model::kindInfo(kind);
                    if (cached(info) != cluster.served(info))
                        return false;
                }
                return true;
            },
            60'000);
        for (model::Kind kind : kMirroredKinds) {
            const model::KindInfo &info = model::kindInfo(kind);
            EXPECT_EQ(cached(info), cluster.served(info)) << info.name;
        }
        return equal;
    }

    // The cache after cluster A was synced into it and stopped, with cluster B serving now
    // under the same context name.
    void mirrorAThenRecreate(DemoProcess &a, DemoProcess &b)
    {
        ASSERT_TRUE(a.start(m_dir, QStringLiteral("a")));
        ASSERT_TRUE(a.createClaim("only-on-a"));
        ASSERT_EQ(syncOnce(a), 0);
        ASSERT_TRUE(cacheHoldsClaim("only-on-a"));
        a.stop();
        ASSERT_TRUE(b.start(m_dir, QStringLiteral("b")));
    }

    QTemporaryDir m_dir;
    QProcess m_sync, m_serve;
    QByteArray m_printed;
};

TEST_F(RecreatedClusterTest, SyncFollowsTheClusterTheContextNowReaches)
{
    DemoProcess a, b;
    mirrorAThenRecreate(a, b);
    ASSERT_TRUE(startAndWait(m_sync,
        { QStringLiteral("sync"), QStringLiteral("--kubeconfig"), b.kubeconfig(),
            QStringLiteral("--cache"), cachePath() },
        "Initial sync done"));
    EXPECT_TRUE(m_printed.contains("context demo now reaches another cluster"))
        << m_printed.toStdString();
    EXPECT_FALSE(cacheHoldsClaim("only-on-a"));

    ASSERT_TRUE(b.createClaim("new-on-b"));
    EXPECT_TRUE(spinUntil([&] { return cacheHoldsClaim("new-on-b"); }, 5000));
    EXPECT_TRUE(cacheEqualsCluster(b));

    // A's change log is kept apart, under a name of its own.
    Result<store::CacheDb> cache = store::CacheDb::open(cachePath(), store::OpenMode::ReadOnly);
    ASSERT_TRUE(cache.has_value());
    bool archived = false;
    const std::vector<store::LoggedChange> log = cache->changesSince(0, 1'000'000).value();
    for (const store::LoggedChange &change : log) {
        if (change.key.name != "only-on-a")
            continue;
        if (change.type == model::ChangeType::Added) {
            EXPECT_TRUE(change.cluster.starts_with("demo@")) << change.cluster;
            archived = true;
        }
    }
    EXPECT_TRUE(archived);
}

TEST_F(RecreatedClusterTest, ServeContextFollowsTheClusterTheContextNowReaches)
{
    DemoProcess a, b;
    mirrorAThenRecreate(a, b);
    const QString mirrorKubeconfig = m_dir.filePath(QStringLiteral("mirror.kubeconfig"));
    ASSERT_TRUE(startAndWait(m_serve,
        { QStringLiteral("serve"), QStringLiteral("--kubeconfig"), b.kubeconfig(),
            QStringLiteral("--context"), QStringLiteral("demo"), QStringLiteral("--cache"),
            cachePath(), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
            QStringLiteral("--write-kubeconfig"), mirrorKubeconfig },
        "kubeconfig:"));
    EXPECT_TRUE(m_printed.contains("context demo now reaches another cluster"))
        << m_printed.toStdString();
    Result<Kubeconfig> kubeconfig = readKubeconfigFile(mirrorKubeconfig);
    ASSERT_TRUE(kubeconfig.has_value());
    Result<ClientConfig> config = resolveContext(*kubeconfig, {}, ProxyEnvironment {});
    ASSERT_TRUE(config.has_value());
    RestClient mirror(*config, RestOptions { .userAgent = "test-mirror" });
    const auto servedByMirror = [&](const std::string &name) {
        std::optional<Result<RestResponse>> result;
        QObject context;
        mirror.get(QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims"), {}, &context,
            [&](const Result<RestResponse> &response) { result = response; });
        spinUntil([&] { return result.has_value(); }, 10'000);
        return result && *result
            && (*result)->body.contains(QByteArray::fromStdString("\"name\":\"" + name + "\""));
    };
    EXPECT_FALSE(servedByMirror("only-on-a"));

    ASSERT_TRUE(b.createClaim("new-on-b"));
    EXPECT_TRUE(spinUntil([&] { return servedByMirror("new-on-b"); }, 5000));
    EXPECT_TRUE(cacheEqualsCluster(b));
}

// An etcd restore: the same cluster, its state and resourceVersions back where they were. The
// running mirror's watches resume beyond the server's resourceVersion, get 504 Too large
// resource version, and the mirror lists again: what the restore undid leaves the cache too.
TEST_F(RecreatedClusterTest, RestoredClusterIsListedAgainNotResumed)
{
    DemoProcess a;
    ASSERT_TRUE(a.start(m_dir, QStringLiteral("a"),
        { QStringLiteral("--cache"), m_dir.filePath(QStringLiteral("a-served.db")) }));
    ASSERT_TRUE(
        a.call("POST", QStringLiteral("/draconsole/test/too-large-wait?millis=200")).has_value());
    ASSERT_TRUE(startAndWait(m_sync,
        { QStringLiteral("sync"), QStringLiteral("--kubeconfig"), a.kubeconfig(),
            QStringLiteral("--cache"), cachePath() },
        "Initial sync done"));
    const std::string backup = a.currentRevision();
    ASSERT_FALSE(backup.empty());
    ASSERT_TRUE(a.createClaim("undone-by-restore"));
    ASSERT_TRUE(spinUntil([&] { return cacheHoldsClaim("undone-by-restore"); }, 10'000));

    Result<RestResponse> restored = a.call("POST",
        QStringLiteral("/draconsole/test/restore?revision=") + QString::fromStdString(backup));
    ASSERT_TRUE(restored.has_value()) << restored.error().message.toStdString();
    EXPECT_TRUE(cacheEqualsCluster(a));
    EXPECT_FALSE(cacheHoldsClaim("undone-by-restore"));

    ASSERT_TRUE(a.createClaim("after-restore"));
    EXPECT_TRUE(spinUntil([&] { return cacheHoldsClaim("after-restore"); }, 5000));
    EXPECT_TRUE(cacheEqualsCluster(a));
    // Relisted, not resumed: the restored cluster is the same cluster, so nothing is archived.
    EXPECT_FALSE(m_printed.contains("now reaches another cluster")) << m_printed.toStdString();
}

} // namespace
} // namespace dra::kube
