// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// ConsoleSession in-process: the demo runs a real API server on its own thread and is mirrored
// like a live context, so what clients write reaches the console; the session hands out its
// client; and the workload namespaces it mirrors are the ones asked for.
#include "app/console/console_session.h"

#include <set>

#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/kube/mirror.h"
#include "core/sandbox/embedded_demo_cluster.h"
#include "tests/views/console_demo_support.h"

namespace dra::test {
namespace {

// A Deployment of `replicas` pods running nothing in particular, as JSON for a POST.
QByteArray sessionTestDeployment(const std::string &ns, const std::string &name, int replicas)
{
    const nlohmann::json labels = { { "app", name } };
    return QByteArray::fromStdString(nlohmann::json(
        {
            { "apiVersion", "apps/v1" },
            { "kind", "Deployment" },
            { "metadata", { { "name", name }, { "namespace", ns } } },
            { "spec",
                { { "replicas", replicas }, { "selector", { { "matchLabels", labels } } },
                    { "template",
                        { { "metadata", { { "labels", labels } } },
                            { "spec",
                                { { "containers",
                                    nlohmann::json::array({ { { "name", "app" },
                                        { "image", "busybox" } } }) } } } } } } },
        })
                                         .dump());
}

Result<kube::RestResponse> createDeployment(
    const kube::ClientConfig &client, const std::string &ns, const std::string &name, int replicas)
{
    kube::RestRequest request;
    request.method = "POST";
    request.path
        = QStringLiteral("/apis/apps/v1/namespaces/%1/deployments").arg(QString::fromStdString(ns));
    request.body = sessionTestDeployment(ns, name, replicas);
    return consoleRequest(client, std::move(request));
}

size_t podsOfDeployment(
    const console::ConsoleSession &session, const std::string &ns, const std::string &name)
{
    size_t count = 0;
    for (const auto &pod : session.inventory()->snapshot()->objects(model::Kind::Pod))
        count += pod->key().ns == ns && pod->key().name.starts_with(name + "-") ? 1 : 0;
    return count;
}

TEST(ConsoleSessionTest, DemoServesAnEmbeddedClusterAndMirrorsItLikeALiveContext)
{
    ConsoleDemo demo;
    EXPECT_FALSE(demo.session().clientConfig().has_value())
        << "no client before the demo cluster serves";
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();

    const std::optional<kube::ClientConfig> client = demo.session().clientConfig();
    ASSERT_TRUE(client.has_value());
    EXPECT_EQ(client->context, QStringLiteral("demo"));
    EXPECT_EQ(client->server.scheme(), QStringLiteral("https"));
    EXPECT_EQ(client->server.host(), QStringLiteral("127.0.0.1"));
    EXPECT_FALSE(client->token.isEmpty());
    EXPECT_FALSE(client->caCertificates.isEmpty());

    // What the console shows is what the server serves.
    const Result<kube::RestResponse> slices
        = consoleGet(*client, QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"));
    ASSERT_TRUE(slices.has_value()) << slices.error().message.toStdString();
    const size_t served = nlohmann::json::parse(slices->body.toStdString())["items"].size();
    ASSERT_GT(served, 0u);
    const auto shown = [&] { return demo.session().inventory()->snapshot()->slices().size(); };
    EXPECT_TRUE(consoleWaitUntil([&] { return shown() == served; }))
        << shown() << " shown, " << served << " served";

    const QString cache = demo.session().cachePath();
    EXPECT_TRUE(QFileInfo::exists(cache));
    demo.stop();
    EXPECT_FALSE(QFileInfo::exists(cache)) << "the temporary mirror cache goes with the session";
    EXPECT_FALSE(consoleGet(*client, QStringLiteral("/version")).has_value())
        << "the demo cluster stopped";
}

TEST(ConsoleSessionTest, DeploymentWrittenToTheDemoGetsPodsThatTheConsoleShows)
{
    ConsoleDemo demo;
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    const kube::ClientConfig client = *demo.session().clientConfig();
    const Result<kube::RestResponse> created
        = createDeployment(client, "training", "session-web", 2);
    ASSERT_TRUE(created.has_value()) << created.error().message.toStdString();
    EXPECT_TRUE(consoleWaitUntil([&] {
        return podsOfDeployment(demo.session(), "training", "session-web") == 2;
    })) << podsOfDeployment(demo.session(), "training", "session-web")
        << " pods in the console";
    // The Deployment comes by a watch of its own, which may trail the pods' under load.
    EXPECT_TRUE(consoleWaitUntil([&] {
        return inventoryObject(demo.session(), model::Kind::Deployment, "training", "session-web")
            != nullptr;
    })) << "the Deployment never reached the console";
}

TEST(ConsoleSessionTest, WorkloadNamespacesChooseWhichDeploymentsAreMirrored)
{
    console::SessionOptions options;
    options.workloadNamespaces = std::vector<std::string> { "training" };
    ConsoleDemo demo(options);
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();
    const kube::ClientConfig client = *demo.session().clientConfig();
    // The batch one is written first: had its namespace been mirrored, it would arrive first.
    ASSERT_TRUE(createDeployment(client, "batch", "unmirrored", 0).has_value());
    ASSERT_TRUE(createDeployment(client, "training", "mirrored", 0).has_value());
    EXPECT_TRUE(consoleWaitUntil([&] {
        return inventoryObject(demo.session(), model::Kind::Deployment, "training", "mirrored")
            != nullptr;
    }));
    EXPECT_EQ(
        inventoryObject(demo.session(), model::Kind::Deployment, "batch", "unmirrored"), nullptr);
    EXPECT_TRUE(
        consoleGet(client, QStringLiteral("/apis/apps/v1/namespaces/batch/deployments/unmirrored"))
            .has_value());
}

TEST(ConsoleSessionTest, MirroredWorkloadNamespacesDependOnTheMode)
{
    console::SessionOptions options;
    options.mode = console::SessionOptions::Mode::Demo;
    EXPECT_EQ(options.mirroredWorkloadNamespaces(), std::vector<std::string> { "*" });
    options.mode = console::SessionOptions::Mode::Live;
    EXPECT_TRUE(options.mirroredWorkloadNamespaces().empty());
    options.workloadNamespaces = std::vector<std::string> { "a", "b" };
    EXPECT_EQ(options.mirroredWorkloadNamespaces(), (std::vector<std::string> { "a", "b" }));
    EXPECT_EQ(kube::parseNamespaceList(QStringLiteral(" ml-team, ,inference,")),
        (std::vector<std::string> { "ml-team", "inference" }));
}

// A claim in the batch namespace, as a client creates it.
bool createSessionTestClaim(const kube::ClientConfig &client, const std::string &name)
{
    kube::RestRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/apis/resource.k8s.io/v1/namespaces/batch/resourceclaims");
    request.body = QByteArray::fromStdString(nlohmann::json(
        { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
            { "metadata", { { "name", name }, { "namespace", "batch" } } },
            { "spec",
                { { "devices",
                    { { "requests",
                        { { { "name", "gpu" },
                            { "exactly",
                                { { "deviceClassName", "gpu.nvidia.com" } } } } } } } } } } })
                                                 .dump());
    return consoleRequest(client, std::move(request)).has_value();
}

// "ns/name@resourceVersion" of every object of `kind` the cluster serves.
std::set<std::string> servedObjects(const kube::ClientConfig &client, const model::KindInfo &kind)
{
    std::set<std::string> out;
    const QString path = kind.group.empty()
        ? QStringLiteral("/api/v1/") + common::qs(kind.plural)
        : QStringLiteral("/apis/resource.k8s.io/v1/") + common::qs(kind.plural);
    const Result<kube::RestResponse> list = consoleGet(client, path);
    if (!list)
        return out;
    const nlohmann::json json = nlohmann::json::parse(list->body.toStdString(), nullptr, false);
    if (!json.is_object() || !json.contains("items"))
        return out;
    for (const nlohmann::json &item : json["items"]) {
        const nlohmann::json &meta = item["metadata"];
        out.insert(meta.value("namespace", "") + "/" + meta.value("name", "") + "@"
            + meta.value("resourceVersion", ""));
    }
    return out;
}

// The same, of what the session's inventory shows.
std::set<std::string> shownObjects(const console::ConsoleSession &session, model::Kind kind)
{
    std::set<std::string> out;
    if (!session.inventory())
        return out;
    const inventory::SnapshotPtr snapshot = session.inventory()->snapshot();
    if (kind == model::Kind::ResourceSlice) {
        // Slices live in the snapshot's device layer, each rebuilt as the object it was.
        for (const inventory::SliceInfo &slice : snapshot->slices())
            if (Result<model::Object> object = snapshot->sliceObject(slice.name))
                out.insert("/" + object->meta.name + "@" + object->meta.resourceVersion);
        return out;
    }
    for (const auto &object : snapshot->objects(kind))
        out.insert(object->meta.ns + "/" + object->meta.name + "@" + object->meta.resourceVersion);
    return out;
}

// The desktop on a live context that now reaches another cluster (recreated under the same
// name): it says so, shows the new cluster instead of the old one's objects, and follows it.
TEST(ConsoleSessionTest, LiveContextThatNowReachesAnotherClusterShowsAndFollowsThatCluster)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString cache = dir.filePath(QStringLiteral("live.db"));
    const auto demoCluster = [] {
        sandbox::EmbeddedDemoOptions options;
        options.preset = sandbox::PresetOptions { "a100-mig", 0, 1 };
        Result<std::unique_ptr<sandbox::EmbeddedDemoCluster>> cluster
            = sandbox::EmbeddedDemoCluster::create(std::move(options));
        EXPECT_TRUE(cluster.has_value()) << cluster.error().message.toStdString();
        if (!cluster || !(*cluster)->listen())
            return std::unique_ptr<sandbox::EmbeddedDemoCluster>();
        return std::move(*cluster);
    };
    struct Live
    {
        std::unique_ptr<console::ConsoleSession> session;
        bool loaded = false, synced = false;
        QStringList notices;
    };
    const auto follow = [&](Live &live, const kube::ClientConfig &client) {
        console::SessionOptions options;
        options.mode = console::SessionOptions::Mode::Live;
        options.client = client;
        options.cachePath = cache;
        live.session = std::make_unique<console::ConsoleSession>(std::move(options));
        QObject::connect(live.session.get(), &console::ConsoleSession::loaded, live.session.get(),
            [&live] { live.loaded = true; });
        QObject::connect(live.session.get(), &console::ConsoleSession::initialSynced,
            live.session.get(), [&live] { live.synced = true; });
        QObject::connect(live.session.get(), &console::ConsoleSession::notice, live.session.get(),
            [&live](const QString &notice) { live.notices << notice; });
        live.session->start();
        return consoleWaitUntil([&live] { return live.loaded && live.synced; });
    };

    std::unique_ptr<sandbox::EmbeddedDemoCluster> a = demoCluster();
    ASSERT_TRUE(a);
    ASSERT_TRUE(createSessionTestClaim(a->clientConfig(), "only-on-a"));
    {
        Live first;
        ASSERT_TRUE(follow(first, a->clientConfig()));
        ASSERT_TRUE(consoleWaitUntil([&] {
            return inventoryObject(*first.session, model::Kind::ResourceClaim, "batch", "only-on-a")
                != nullptr;
        }));
    }
    a.reset();

    std::unique_ptr<sandbox::EmbeddedDemoCluster> b = demoCluster();
    ASSERT_TRUE(b);
    Live second;
    ASSERT_TRUE(follow(second, b->clientConfig()));
    EXPECT_TRUE(consoleWaitUntil(
        [&] {
            return second.notices.join(QLatin1Char('\n'))
                .contains(QStringLiteral("context demo now reaches another cluster"));
        },
        5000))
        << second.notices.join(QLatin1Char('\n')).toStdString();
    ASSERT_TRUE(createSessionTestClaim(b->clientConfig(), "new-on-b"));
    EXPECT_TRUE(consoleWaitUntil(
        [&] {
            return inventoryObject(*second.session, model::Kind::ResourceClaim, "batch", "new-on-b")
                != nullptr;
        },
        5000));
    for (model::Kind kind : { model::Kind::DeviceClass, model::Kind::ResourceSlice,
             model::Kind::ResourceClaim, model::Kind::ResourceClaimTemplate, model::Kind::Node,
             model::Kind::Pod, model::Kind::Namespace }) {
        const model::KindInfo &info = model::kindInfo(kind);
        EXPECT_TRUE(consoleWaitUntil(
            [&] {
                return shownObjects(*second.session, kind)
                    == servedObjects(b->clientConfig(), info);
            },
            30'000))
            << info.name << ": shown "
            << testing::PrintToString(shownObjects(*second.session, kind)) << ", served "
            << testing::PrintToString(servedObjects(b->clientConfig(), info));
    }
    EXPECT_EQ(inventoryObject(*second.session, model::Kind::ResourceClaim, "batch", "only-on-a"),
        nullptr);
}

TEST(ConsoleSessionTest, OfflineCacheHasNoClient)
{
    console::SessionOptions options;
    options.mode = console::SessionOptions::Mode::Cache;
    options.cachePath = QStringLiteral("/nonexistent/cache.db");
    console::ConsoleSession session(options);
    session.start();
    EXPECT_FALSE(session.clientConfig().has_value());
}

} // namespace
} // namespace dra::test
