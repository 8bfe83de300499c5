// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo cluster in-process: a seeded cache served over HTTPS with a token, reached through
// the ClientConfig it hands out, acting on writes, and leaving no temporary cache behind.
#include "core/sandbox/embedded_demo_cluster.h"

#include <optional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QUrlQuery>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/kube/rest_client.h"

namespace dra::test {
namespace {

using nlohmann::json;

// Sends one request on this thread's event loop (the cluster's thread too) and waits for it.
Result<kube::RestResponse> sendAndWait(const kube::ClientConfig &config, kube::RestRequest request)
{
    kube::RestClient client(config);
    std::optional<Result<kube::RestResponse>> answer;
    QObject context;
    client.send(std::move(request), &context,
        [&answer](const Result<kube::RestResponse> &response) { answer = response; });
    QElapsedTimer waited;
    waited.start();
    while (!answer && waited.elapsed() < 30'000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!answer)
        return dra::fail(common::Error::Code::Network, QStringLiteral("no answer in 30 s"));
    return *answer;
}

Result<kube::RestResponse> getPath(const kube::ClientConfig &config, const QString &path)
{
    kube::RestRequest request;
    request.path = path;
    return sendAndWait(config, std::move(request));
}

std::unique_ptr<sandbox::EmbeddedDemoCluster> startedCluster(
    sandbox::EmbeddedDemoOptions options = {})
{
    options.preset.preset = "a100-mig";
    Result<std::unique_ptr<sandbox::EmbeddedDemoCluster>> cluster
        = sandbox::EmbeddedDemoCluster::create(options);
    EXPECT_TRUE(cluster.has_value()) << (cluster ? "" : cluster.error().message.toStdString());
    if (!cluster)
        return nullptr;
    const Result<void> listening = (*cluster)->listen();
    EXPECT_TRUE(listening.has_value())
        << (listening ? "" : listening.error().message.toStdString());
    return listening ? std::move(*cluster) : nullptr;
}

TEST(EmbeddedDemoClusterTest, ServesThePresetToItsOwnClientConfigOverTls)
{
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> cluster = startedCluster();
    ASSERT_TRUE(cluster);
    const kube::ClientConfig config = cluster->clientConfig();
    EXPECT_EQ(config.server.scheme(), QStringLiteral("https"));
    EXPECT_EQ(config.server.host(), QStringLiteral("127.0.0.1"));
    EXPECT_EQ(config.server.port(), cluster->port());
    EXPECT_NE(cluster->port(), 0);
    ASSERT_EQ(config.caCertificates.size(), 1);
    EXPECT_EQ(config.token.size(), 64) << "32 random bytes as hex";
    EXPECT_FALSE(config.insecureSkipTlsVerify);

    const Result<kube::RestResponse> slices
        = getPath(config, QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"));
    ASSERT_TRUE(slices.has_value()) << slices.error().message.toStdString();
    const json list = json::parse(slices->body.toStdString());
    EXPECT_FALSE(list["items"].empty());

    kube::ClientConfig stranger = config;
    stranger.token = QStringLiteral("not-the-token");
    const Result<kube::RestResponse> refused
        = getPath(stranger, QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"));
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code, common::Error::Code::Unauthorized)
        << refused.error().message.toStdString();
}

TEST(EmbeddedDemoClusterTest, ControlPlaneGivesAWrittenDeploymentItsPods)
{
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> cluster = startedCluster();
    ASSERT_TRUE(cluster);
    const kube::ClientConfig config = cluster->clientConfig();
    kube::RestRequest create;
    create.method = "POST";
    create.path = QStringLiteral("/apis/apps/v1/namespaces/training/deployments");
    create.body = QByteArray::fromStdString(
        json({
                 { "apiVersion", "apps/v1" },
                 { "kind", "Deployment" },
                 { "metadata", { { "name", "embedded-web" }, { "namespace", "training" } } },
                 { "spec",
                     { { "replicas", 2 },
                         { "selector", { { "matchLabels", { { "app", "embedded-web" } } } } },
                         { "template",
                             { { "metadata", { { "labels", { { "app", "embedded-web" } } } } },
                                 { "spec",
                                     { { "containers",
                                         json::array({ { { "name", "web" },
                                             { "image", "nginx" } } }) } } } } } } },
             })
            .dump());
    create.contentType = "application/json";
    const Result<kube::RestResponse> created = sendAndWait(config, create);
    ASSERT_TRUE(created.has_value()) << created.error().message.toStdString();

    size_t pods = 0;
    QElapsedTimer waited;
    waited.start();
    while (pods < 2 && waited.elapsed() < 30'000) {
        kube::RestRequest list;
        list.path = QStringLiteral("/api/v1/namespaces/training/pods");
        list.query.addQueryItem(
            QStringLiteral("labelSelector"), QStringLiteral("app=embedded-web"));
        const Result<kube::RestResponse> listed = sendAndWait(config, list);
        ASSERT_TRUE(listed.has_value()) << listed.error().message.toStdString();
        pods = json::parse(listed->body.toStdString())["items"].size();
    }
    EXPECT_EQ(pods, 2u);
}

TEST(EmbeddedDemoClusterTest, DefaultNamespaceOnlyWhenAskedFor)
{
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> plain = startedCluster();
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->clientConfig().ns, QStringLiteral("inference"));
    const Result<kube::RestResponse> missing
        = getPath(plain->clientConfig(), QStringLiteral("/api/v1/namespaces/default"));
    ASSERT_FALSE(missing.has_value());
    EXPECT_EQ(missing.error().code, common::Error::Code::NotFound)
        << missing.error().message.toStdString();

    // The namespace exists without moving the client's context there...
    sandbox::EmbeddedDemoOptions options;
    options.defaultNamespace = true;
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> withDefault = startedCluster(options);
    ASSERT_TRUE(withDefault);
    EXPECT_EQ(withDefault->clientConfig().ns, QStringLiteral("inference"));
    const Result<kube::RestResponse> found
        = getPath(withDefault->clientConfig(), QStringLiteral("/api/v1/namespaces/default"));
    EXPECT_TRUE(found.has_value()) << found.error().message.toStdString();

    // ...which is a choice of its own.
    options.contextNamespace = "default";
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> inDefault = startedCluster(options);
    ASSERT_TRUE(inDefault);
    EXPECT_EQ(inDefault->clientConfig().ns, QStringLiteral("default"));
}

TEST(EmbeddedDemoClusterTest, HasTheSystemNamespacesEveryClusterHas)
{
    const std::unique_ptr<sandbox::EmbeddedDemoCluster> cluster = startedCluster();
    ASSERT_TRUE(cluster);
    for (const char *name : { "kube-system", "kube-public", "kube-node-lease" }) {
        const Result<kube::RestResponse> found = getPath(
            cluster->clientConfig(), QStringLiteral("/api/v1/namespaces/") + QLatin1String(name));
        EXPECT_TRUE(found.has_value()) << name << ": " << found.error().message.toStdString();
    }
}

TEST(EmbeddedDemoClusterTest, TemporaryCacheGoesAwayWithTheCluster)
{
    std::unique_ptr<sandbox::EmbeddedDemoCluster> cluster = startedCluster();
    ASSERT_TRUE(cluster);
    EXPECT_TRUE(cluster->temporaryCache());
    const QString path = cluster->cachePath();
    ASSERT_TRUE(QFileInfo::exists(path));
    cluster.reset();
    EXPECT_FALSE(QFileInfo::exists(path));
    EXPECT_FALSE(QFileInfo::exists(QFileInfo(path).absolutePath()));
}

TEST(EmbeddedDemoClusterTest, GivenCacheFileIsKeptWithWhatClientsWrote)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    sandbox::EmbeddedDemoOptions options;
    options.cachePath = dir.filePath(QStringLiteral("kept/demo.db"));
    options.token = std::string("fixed-token");
    std::unique_ptr<sandbox::EmbeddedDemoCluster> cluster = startedCluster(options);
    ASSERT_TRUE(cluster);
    EXPECT_FALSE(cluster->temporaryCache());
    EXPECT_EQ(cluster->token(), "fixed-token");
    kube::RestRequest create;
    create.method = "POST";
    create.path = QStringLiteral("/api/v1/namespaces");
    create.body = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kept-team"}})";
    create.contentType = "application/json";
    ASSERT_TRUE(sendAndWait(cluster->clientConfig(), create).has_value());
    cluster.reset();

    ASSERT_TRUE(QFileInfo::exists(options.cachePath));
    // The cluster comes back from the same file with the namespace it was given.
    cluster = startedCluster(options);
    ASSERT_TRUE(cluster);
    const Result<kube::RestResponse> ns
        = getPath(cluster->clientConfig(), QStringLiteral("/api/v1/namespaces/kept-team"));
    EXPECT_TRUE(ns.has_value()) << ns.error().message.toStdString();
}

} // namespace
} // namespace dra::test
