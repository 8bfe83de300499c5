// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The mirror against the real `dractl serve --demo --test-hooks` process over TLS, with a token
// and with a client certificate: every fault the hooks produce must end with the mirror equal
// to the server, object by object, and a change log without duplicates.
#include <set>

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrlQuery>

#include <gtest/gtest.h>

#include "core/common/json_text.h"
#include "core/kube/mirror.h"
#include "core/kube/rest_client.h"
#include "core/store/cache_db.h"
#include "tests/support/kube_fixture.h"

namespace dra::kube {
namespace {

using test::KubeconfigFixtures;
using test::spinUntil;

constexpr const char *kCluster = "demo";

class ServedDemoTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        test::writeFile(
            m_dir.filePath(QStringLiteral("client-ca.crt")), KubeconfigFixtures::ca().certificate);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(
            QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_server.setProcessEnvironment(environment);
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral(DRA_DRACTL),
            { QStringLiteral("serve"), QStringLiteral("--demo"), QStringLiteral("--cache"),
                m_dir.filePath(QStringLiteral("served.db")), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:0"), QStringLiteral("--write-kubeconfig"),
                kubeconfigPath(), QStringLiteral("--test-hooks"), QStringLiteral("--client-ca"),
                m_dir.filePath(QStringLiteral("client-ca.crt")) });
        QByteArray output;
        ASSERT_TRUE(spinUntil(
            [&] {
                output += m_server.readAllStandardOutput();
                return output.contains("kubeconfig:") || m_server.state() == QProcess::NotRunning;
            },
            60000))
            << output.toStdString();
        ASSERT_EQ(m_server.state(), QProcess::Running) << output.toStdString();

        Result<Kubeconfig> kubeconfig = readKubeconfigFile(kubeconfigPath());
        ASSERT_TRUE(kubeconfig.has_value()) << kubeconfig.error().message.toStdString();
        Result<ClientConfig> config = resolveContext(*kubeconfig, {}, ProxyEnvironment {});
        ASSERT_TRUE(config.has_value()) << config.error().message.toStdString();
        m_config = *config;
        m_admin = std::make_unique<RestClient>(m_config, RestOptions { .userAgent = "test-admin" });
        Result<store::CacheDb> cache = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("mirror.db")), store::OpenMode::ReadWrite);
        ASSERT_TRUE(cache.has_value());
        m_cache = std::move(*cache);
    }

    void TearDown() override
    {
        m_mirror.reset();
        m_server.terminate();
        if (!m_server.waitForFinished(10000))
            m_server.kill();
    }

    QString kubeconfigPath() const { return m_dir.filePath(QStringLiteral("demo.kubeconfig")); }

    Mirror &startMirror(const ClientConfig &config, std::vector<model::Kind> kinds = {},
        int pageSize = 500, std::vector<std::string> workloadNamespaces = {})
    {
        m_mirror.reset();
        m_synced = false;
        m_client = std::make_unique<RestClient>(config);
        MirrorOptions options;
        options.cluster = kCluster;
        options.kinds = std::move(kinds);
        options.workloadNamespaces = std::move(workloadNamespaces);
        options.reflector.pageSize = pageSize;
        m_mirror = std::make_unique<Mirror>(*m_client, options, m_clock);
        QObject::connect(m_mirror.get(), &Mirror::batchReady, m_mirror.get(),
            [this](const model::WatchBatch &batch) {
                Result<model::BatchSummary> applied = m_cache.apply(batch);
                ASSERT_TRUE(applied.has_value()) << applied.error().message.toStdString();
            });
        QObject::connect(
            m_mirror.get(), &Mirror::initialSynced, m_mirror.get(), [this] { m_synced = true; });
        m_mirror->start();
        return *m_mirror;
    }

    // Spins the event loop and fires the manual clock's timers (backoffs) until `done`; each
    // round waits up to 250 ms of real time for the server.
    bool driveUntil(const std::function<bool()> &done, int rounds = 60)
    {
        for (int round = 0; round < rounds; ++round) {
            if (spinUntil(done, 250))
                return true;
            m_clock.runNext();
        }
        return done();
    }

    Result<RestResponse> call(const QByteArray &method, const QString &path,
        const QByteArray &body = {}, int timeoutMs = 20000)
    {
        RestRequest request;
        request.timeoutMs = timeoutMs;
        request.method = method;
        // A query goes in its own field: in the path its `?` would be sent escaped.
        request.path = path.section(QLatin1Char('?'), 0, 0);
        request.query = QUrlQuery(path.section(QLatin1Char('?'), 1));
        request.body = body;
        if (method == "PATCH")
            request.contentType = "application/merge-patch+json";
        std::optional<Result<RestResponse>> result;
        QObject context;
        m_admin->send(
            request, &context, [&](const Result<RestResponse> &response) { result = response; });
        spinUntil([&] { return result.has_value(); }, timeoutMs + 1000);
        return result.value_or(fail(common::Error::Code::Internal, QStringLiteral("no answer")));
    }

    void hook(const char *name)
    {
        Result<RestResponse> answer
            = call("POST", QStringLiteral("/draconsole/test/") + QLatin1String(name));
        ASSERT_TRUE(answer.has_value()) << answer.error().message.toStdString();
    }

    std::vector<std::string> served(const model::KindInfo &kind)
    {
        const QString path = kind.group.empty()
            ? QStringLiteral("/api/v1/") + common::qs(kind.plural)
            : QStringLiteral("/apis/resource.k8s.io/v1/") + common::qs(kind.plural);
        Result<RestResponse> list = call("GET", path);
        std::vector<std::string> out;
        if (!list)
            return out;
        const nlohmann::json json = nlohmann::json::parse(list->body.toStdString(), nullptr, false);
        if (json.is_object() && json.contains("items"))
            for (const nlohmann::json &item : json["items"])
                out.push_back(common::compactJson(item));
        return out;
    }

    std::vector<std::string> mirrored(const model::KindInfo &kind)
    {
        std::vector<std::string> out;
        const std::vector<model::ObjectRecord> objects
            = m_cache.objects(kCluster, kind.group, kind.name).value();
        for (const model::ObjectRecord &object : objects)
            out.push_back(object.json);
        return out;
    }

    // Every kind the mirror follows holds exactly what the server serves.
    bool equalToServer(const std::vector<model::Kind> &kinds)
    {
        return driveUntil([&] {
            for (model::Kind kind : kinds) {
                const model::KindInfo &info = model::kindInfo(kind);
                if (mirrored(info) != served(info))
                    return false;
            }
            return true;
        });
    }

    void expectNoDuplicates()
    {
        const std::vector<store::LoggedChange> log = m_cache.changesSince(0, 1000000).value();
        std::map<common::ObjectKey, const store::LoggedChange *> last;
        for (const store::LoggedChange &change : log) {
            if (auto it = last.find(change.key); it != last.end()) {
                EXPECT_FALSE(it->second->type == change.type && it->second->json == change.json)
                    << "logged twice: " << change.key.display();
            }
            last[change.key] = &change;
        }
    }

    QByteArray claimJson(const std::string &name)
    {
        const nlohmann::json claim = {
            { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
            { "metadata", { { "name", name }, { "namespace", "batch" } } },
            { "spec",
                { { "devices",
                    { { "requests",
                        { { { "name", "gpu" },
                            { "exactly", { { "deviceClassName", "gpu.nvidia.com" } } } } } } } } } }
        };
        return QByteArray::fromStdString(claim.dump());
    }

    QTemporaryDir m_dir;
    QProcess m_server;
    ClientConfig m_config;
    std::unique_ptr<RestClient> m_admin, m_client;
    std::unique_ptr<Mirror> m_mirror;
    store::CacheDb m_cache;
    common::ManualClock m_clock;
    bool m_synced = false;
};

const std::vector<model::Kind> kDraKinds { model::Kind::DeviceClass, model::Kind::ResourceSlice,
    model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate };
const std::vector<model::Kind> kCoreKinds { model::Kind::Node, model::Kind::Pod,
    model::Kind::Namespace };

TEST_F(ServedDemoTest, InitialSyncEqualsTheServerAndChangesFollow)
{
    startMirror(m_config);
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    std::vector<model::Kind> all = kDraKinds;
    all.insert(all.end(), kCoreKinds.begin(), kCoreKinds.end());
    ASSERT_TRUE(equalToServer(all));
    EXPECT_GT(mirrored(model::kindInfo(model::Kind::ResourceSlice)).size(), 0u);

    // A change made by a client of the server, the way kubectl would make it.
    ASSERT_TRUE(
        call("POST", QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            claimJson("added-by-test"))
            .has_value());
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    ASSERT_TRUE(call("DELETE",
        QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims/added-by-test"))
                    .has_value());
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    expectNoDuplicates();
}

QByteArray deploymentJson(const std::string &ns, const std::string &name, int replicas)
{
    const nlohmann::json labels = { { "app", name } };
    const nlohmann::json deployment = { { "apiVersion", "apps/v1" }, { "kind", "Deployment" },
        { "metadata", { { "name", name }, { "namespace", ns } } },
        { "spec",
            { { "replicas", replicas }, { "selector", { { "matchLabels", labels } } },
                { "template",
                    { { "metadata", { { "labels", labels } } },
                        { "spec",
                            { { "containers",
                                { { { "name", "server" },
                                    { "image", "vllm/vllm-openai:v0.8.5" } } } } } } } } } } };
    return QByteArray::fromStdString(deployment.dump());
}

std::vector<std::string> mirroredNames(store::CacheDb &cache, model::Kind kind)
{
    const model::KindInfo &info = model::kindInfo(kind);
    std::vector<std::string> names;
    const std::vector<model::ObjectRecord> records
        = cache.objects(kCluster, info.group, info.name).value();
    for (const model::ObjectRecord &record : records)
        names.push_back(record.key.ns + "/" + record.key.name);
    return names;
}

// The rollout's kinds follow the namespaces a user chose, and only those: a cluster-wide list of
// every Deployment of a large cluster is not what an admin asked for.
TEST_F(ServedDemoTest, RolloutKindsAreMirroredOnlyInTheChosenNamespaces)
{
    // The demo seeds inference/llm-server (Deployment, Service, HTTPRoute); another team's
    // Deployment elsewhere must stay out of the mirror.
    Result<RestResponse> created
        = call("POST", QStringLiteral("/apis/apps/v1/namespaces/training/deployments"),
            deploymentJson("training", "trainer", 2));
    ASSERT_TRUE(created.has_value()) << created.error().message.toStdString();

    // By default: no workload streams at all.
    startMirror(m_config);
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    for (const StreamStatus &stream : m_mirror->streams())
        EXPECT_FALSE(model::isWorkloadKind(stream.kind)) << stream.label().toStdString();
    EXPECT_TRUE(mirroredNames(m_cache, model::Kind::Deployment).empty());

    startMirror(m_config, {}, 500, { "inference" });
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    EXPECT_EQ(mirroredNames(m_cache, model::Kind::Deployment),
        std::vector<std::string> { "inference/llm-server" });
    EXPECT_EQ(mirroredNames(m_cache, model::Kind::HTTPRoute),
        std::vector<std::string> { "inference/llm-server" });
    bool deploymentStream = false;
    for (const StreamStatus &stream : m_mirror->streams()) {
        if (stream.kind == model::Kind::Deployment) {
            deploymentStream = true;
            EXPECT_EQ(stream.ns, "inference");
        }
    }
    EXPECT_TRUE(deploymentStream);

    // A scale-down made on the cluster reaches the cache through the namespace's watch.
    ASSERT_TRUE(
        call("PATCH", QStringLiteral("/apis/apps/v1/namespaces/inference/deployments/llm-server"),
            R"({"spec":{"replicas":0}})")
            .has_value());
    EXPECT_TRUE(driveUntil([&] {
        const auto records = m_cache.objects(kCluster, "apps", "Deployment").value();
        return records.size() == 1 && records[0].json.find("\"replicas\":0") != std::string::npos;
    }));
}

TEST_F(ServedDemoTest, AChangeMadeWithKubectlAppears)
{
    const QString kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    if (kubectl.isEmpty())
        GTEST_SKIP() << "kubectl is not on PATH";
    startMirror(m_config, { model::Kind::ResourceClaim });
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    test::writeFile(m_dir.filePath(QStringLiteral("claim.json")), claimJson("made-with-kubectl"));
    QProcess process;
    process.start(kubectl,
        { QStringLiteral("--kubeconfig"), kubeconfigPath(), QStringLiteral("--cache-dir"),
            m_dir.filePath(QStringLiteral("kubectl-cache")), QStringLiteral("create"),
            QStringLiteral("-f"), m_dir.filePath(QStringLiteral("claim.json")) });
    ASSERT_TRUE(spinUntil([&] { return process.state() == QProcess::NotRunning; }, 60000));
    ASSERT_EQ(process.exitCode(), 0) << process.readAllStandardError().toStdString();
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    const std::vector<std::string> claims = mirrored(model::kindInfo(model::Kind::ResourceClaim));
    EXPECT_TRUE(std::ranges::any_of(claims, [](const std::string &json) {
        return json.find("\"name\":\"made-with-kubectl\"") != std::string::npos;
    }));
}

TEST_F(ServedDemoTest, ClientCertificateUserMirrorsToo)
{
    ClientConfig certificateUser = m_config;
    certificateUser.token.clear();
    certificateUser.clientCertificateChain
        = { QSslCertificate(KubeconfigFixtures::ecClient().certificate) };
    certificateUser.clientKey = QSslKey(KubeconfigFixtures::ecClient().keyTraditional, QSsl::Ec);
    startMirror(certificateUser, { model::Kind::ResourceSlice, model::Kind::DeviceClass });
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceSlice, model::Kind::DeviceClass }));
    // Synced first, then watching once each watch has opened.
    EXPECT_TRUE(driveUntil([&] {
        return std::ranges::all_of(m_mirror->streams(),
            [](const StreamStatus &stream) { return stream.state == StreamState::Watching; });
    }));
    for (const StreamStatus &stream : m_mirror->streams())
        EXPECT_EQ(stream.state, StreamState::Watching) << stream.label().toStdString();
}

TEST_F(ServedDemoTest, ExpiredContinueTokenEndsEqualToTheServer)
{
    Mirror &mirror = startMirror(m_config, { model::Kind::ResourceSlice }, 2);
    bool expired = false;
    QObject::connect(&mirror, &Mirror::listProgress, &mirror, [&](const StreamStatus &) {
        if (!expired) { // after the first page: every token handed out so far expires
            expired = true;
            hook("expire-continue");
        }
    });
    // A relist in pages of two after the expiry: slow on a loaded machine, so given longer.
    ASSERT_TRUE(driveUntil([&] { return m_synced; }, 240));
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceSlice }));
    expectNoDuplicates();
}

TEST_F(ServedDemoTest, RestartAndCompactionEndEqualToTheServerWithTheDeletionLogged)
{
    startMirror(m_config, { model::Kind::ResourceClaim });
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    const std::vector<std::string> before = mirrored(model::kindInfo(model::Kind::ResourceClaim));
    ASSERT_FALSE(before.empty());
    const nlohmann::json victim = nlohmann::json::parse(before.front());
    const std::string victimName = victim["metadata"]["name"];
    const int64_t synced = m_cache.currentRev().value();

    // The server restarts and stays down long enough for the mirror's first reconnection to
    // fail; its next one waits on its (test) clock meanwhile.
    hook("restart?downMillis=3000");
    ASSERT_TRUE(
        spinUntil([&] { return m_mirror->streams().front().state == StreamState::Stale; }, 20000));
    // Each try is short: a connection the restart cut may take a try to notice.
    ASSERT_TRUE(spinUntil(
        [&] { return call("GET", QStringLiteral("/version"), {}, 2000).has_value(); }, 20000));
    // While the mirror is away, a claim goes and the server forgets the history.
    ASSERT_TRUE(call("DELETE",
        QStringLiteral("/apis/resource.k8s.io/v1/namespaces/")
            + common::qs(victim["metadata"]["namespace"].get<std::string>())
            + QStringLiteral("/resourceclaims/") + common::qs(victimName))
                    .has_value());
    ASSERT_TRUE(
        call("POST", QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            claimJson("added-while-away"))
            .has_value());
    hook("compact");
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));

    const std::vector<store::LoggedChange> log
        = m_cache
              .history(store::HistoryQuery { .cluster = kCluster,
                  .group = "resource.k8s.io",
                  .kind = "ResourceClaim",
                  .afterRev = synced })
              .value();
    ASSERT_EQ(log.size(), 2u);
    const auto deletion = std::ranges::find_if(
        log, [&](const store::LoggedChange &c) { return c.key.name == victimName; });
    ASSERT_NE(deletion, log.end());
    EXPECT_EQ(deletion->type, model::ChangeType::Deleted);
    expectNoDuplicates();
}

TEST_F(ServedDemoTest, DroppedWatchesResumeAndEndEqualToTheServer)
{
    startMirror(m_config, { model::Kind::ResourceClaim });
    ASSERT_TRUE(driveUntil([&] { return m_synced; }));
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    hook("drop-watches");
    // Changes made while the watch is down arrive through the resumed watch.
    ASSERT_TRUE(
        call("POST", QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            claimJson("added-while-dropped"))
            .has_value());
    ASSERT_TRUE(equalToServer({ model::Kind::ResourceClaim }));
    expectNoDuplicates();
}

// `dractl serve --context`: a second server mirrors the demo cluster and serves what it mirrors.
TEST_F(ServedDemoTest, LiveMirrorServerServesTheMirroredClusterAndFollowsIt)
{
    QTemporaryDir liveDir;
    ASSERT_TRUE(liveDir.isValid());
    QProcess live;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(
        QStringLiteral("XDG_CONFIG_HOME"), liveDir.filePath(QStringLiteral("config")));
    live.setProcessEnvironment(environment);
    live.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    const QString liveKubeconfig = liveDir.filePath(QStringLiteral("live.kubeconfig"));
    live.start(QStringLiteral(DRA_DRACTL),
        { QStringLiteral("serve"), QStringLiteral("--kubeconfig"), kubeconfigPath(),
            QStringLiteral("--context"), QStringLiteral("demo"), QStringLiteral("--cache"),
            liveDir.filePath(QStringLiteral("live.db")), QStringLiteral("--listen"),
            QStringLiteral("127.0.0.1:0"), QStringLiteral("--write-kubeconfig"), liveKubeconfig });
    QByteArray output;
    ASSERT_TRUE(spinUntil(
        [&] {
            output += live.readAllStandardOutput();
            return output.contains("kubeconfig:") || live.state() == QProcess::NotRunning;
        },
        120000))
        << output.toStdString();
    ASSERT_EQ(live.state(), QProcess::Running) << output.toStdString();
    EXPECT_TRUE(output.contains("live mirror of context demo, read-only")) << output.toStdString();

    Result<Kubeconfig> kubeconfig = readKubeconfigFile(liveKubeconfig);
    ASSERT_TRUE(kubeconfig.has_value()) << kubeconfig.error().message.toStdString();
    Result<ClientConfig> config = resolveContext(*kubeconfig, {}, ProxyEnvironment {});
    ASSERT_TRUE(config.has_value()) << config.error().message.toStdString();
    RestClient mirrorClient(*config, RestOptions { .userAgent = "test-live" });
    const auto get = [&](const QByteArray &method, const QString &path,
                         const QByteArray &body = {}) {
        RestRequest request;
        request.method = method;
        request.path = path;
        request.body = body;
        if (method == "PATCH")
            request.contentType = "application/merge-patch+json";
        std::optional<Result<RestResponse>> result;
        QObject context;
        mirrorClient.send(
            request, &context, [&](const Result<RestResponse> &response) { result = response; });
        EXPECT_TRUE(spinUntil([&] { return result.has_value(); }, 20000));
        return result.value_or(fail(common::Error::Code::Internal, QStringLiteral("no answer")));
    };
    const auto names = [](const QByteArray &body) {
        std::set<std::string> out;
        const nlohmann::json json = nlohmann::json::parse(body.toStdString(), nullptr, false);
        if (json.is_object() && json.contains("items"))
            for (const nlohmann::json &item : json["items"])
                out.insert(item["metadata"].value("namespace", "") + "/"
                    + item["metadata"].value("name", ""));
        return out;
    };
    const QString slices = QStringLiteral("/apis/resource.k8s.io/v1/resourceslices");
    const QString claims = QStringLiteral("/apis/resource.k8s.io/v1/resourceclaims");

    // The version is the mirrored cluster's; the lists are those of the cluster.
    Result<RestResponse> version = get("GET", QStringLiteral("/version"));
    ASSERT_TRUE(version.has_value());
    Result<RestResponse> demoVersion = call("GET", QStringLiteral("/version"));
    ASSERT_TRUE(demoVersion.has_value());
    EXPECT_EQ(nlohmann::json::parse(version->body.toStdString())["gitVersion"],
        nlohmann::json::parse(demoVersion->body.toStdString())["gitVersion"]);
    Result<RestResponse> mirroredSlices = get("GET", slices);
    Result<RestResponse> servedSlices = call("GET", slices);
    ASSERT_TRUE(mirroredSlices.has_value() && servedSlices.has_value());
    EXPECT_FALSE(names(servedSlices->body).empty());
    EXPECT_EQ(names(mirroredSlices->body), names(servedSlices->body));

    // A change on the cluster reaches the mirror's clients; the mirror itself is read-only.
    ASSERT_TRUE(
        call("POST", QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            claimJson("seen-through-the-mirror"))
            .has_value());
    EXPECT_TRUE(spinUntil(
        [&] {
            Result<RestResponse> list = get("GET", claims);
            return list && names(list->body).contains("batch/seen-through-the-mirror");
        },
        30000));
    Result<RestResponse> write
        = get("POST", QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims"),
            claimJson("refused"));
    ASSERT_FALSE(write.has_value());
    EXPECT_TRUE(write.error().message.contains(QStringLiteral("MethodNotAllowed"))
        || write.error().message.contains(QStringLiteral("405")))
        << write.error().message.toStdString();

    live.terminate();
    ASSERT_TRUE(live.waitForFinished(30000));
    EXPECT_EQ(live.exitCode(), 0);
    // The cache says the mirror is no longer followed.
    Result<store::CacheDb> liveCache = store::CacheDb::open(
        liveDir.filePath(QStringLiteral("live.db")), store::OpenMode::ReadOnly);
    ASSERT_TRUE(liveCache.has_value());
    const std::vector<model::StreamRecord> streams = liveCache->streams(kCluster).value();
    ASSERT_FALSE(streams.empty());
    for (const model::StreamRecord &stream : streams)
        if (stream.state != "forbidden") {
            EXPECT_EQ(stream.state, "stale") << stream.kind;
        }
}

} // namespace
} // namespace dra::kube
