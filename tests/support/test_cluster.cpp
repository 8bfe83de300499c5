// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/test_cluster.h"

#include <QDateTime>
#include <QHostAddress>
#include <QSslConfiguration>

#include <gtest/gtest.h>

#include "core/common/json_text.h"
#include "core/model/object.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/kube_status.h"
#include "core/kube/rest_client.h"
#include "core/server/tls_identity.h"
#include "core/model/record_codec.h"
#include "tests/support/kube_fixture.h"

namespace dra::kube::test {

namespace {

constexpr const char *kObserverAgent = "test-observer";

nlohmann::json meta(const std::string &name, const std::string &ns, const std::string &label)
{
    nlohmann::json metadata = { { "name", name }, { "uid", "uid-" + ns + "-" + name },
        { "resourceVersion", "1" }, { "creationTimestamp", "2026-11-30T07:00:00Z" },
        { "labels", { { "tier", label } } } };
    if (!ns.empty())
        metadata["namespace"] = ns;
    return metadata;
}

model::WatchBatch batchOf(model::ChangeType type, const std::vector<nlohmann::json> &objects)
{
    model::WatchBatch batch;
    batch.cluster = kClusterName;
    for (const nlohmann::json &json : objects) {
        Result<model::Object> object = model::decodeObject(json);
        EXPECT_TRUE(object.has_value()) << object.error().message.toStdString();
        if (object)
            batch.changes.push_back({ type, model::toRecord(*object) });
    }
    return batch;
}

} // namespace

nlohmann::json slice(const std::string &name, const std::string &node, const std::string &label)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata", meta(name, "", label) },
        { "spec",
            { { "driver", "gpu.example.com" }, { "nodeName", node },
                { "pool", { { "name", node }, { "generation", 1 }, { "resourceSliceCount", 1 } } },
                { "devices",
                    { { { "name", "gpu-0" },
                        { "attributes", { { "model", { { "string", "H100" } } } } } } } } } } };
}

nlohmann::json claim(const std::string &ns, const std::string &name, const std::string &label)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", meta(name, ns, label) },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.example.com" } } } } } } } } } } };
}

nlohmann::json namespaceObject(const std::string &name)
{
    return { { "apiVersion", "v1" }, { "kind", "Namespace" }, { "metadata", meta(name, "", "a") },
        { "spec", nlohmann::json::object() } };
}

const Pem &TestCluster::serverPem()
{
    static const Pem pem = makeLeaf(KubeconfigFixtures::ca(), "test-apiserver",
        { QStringLiteral("127.0.0.1"), QStringLiteral("localhost") });
    return pem;
}

TestCluster::TestCluster()
    : TestCluster(Options {})
{
}

TestCluster::TestCluster(Options options)
    : m_options(std::move(options))
{
    const QString path = m_dir.filePath(QStringLiteral("cluster.db"));
    Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    EXPECT_TRUE(writer.has_value()) << writer.error().message.toStdString();
    m_writer = std::move(*writer);
    // The cluster exists before anyone connects (the reader needs the file).
    EXPECT_TRUE(m_writer.apply(batchOf(model::ChangeType::Added, { namespaceObject("default") }))
                    .has_value());
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    EXPECT_TRUE(reader.has_value()) << reader.error().message.toStdString();
    m_reader = std::move(*reader);
    server::ApiServerOptions api;
    api.cluster = kClusterName;
    api.token = m_options.token;
    api.kubernetesVersion = m_options.kubernetesVersion;
    api.pollIntervalMs = 10;
    if (m_options.writable)
        api.writer = &m_writer;
    m_api = std::make_unique<server::ApiServer>(m_reader, api);
    start();
}

TestCluster::~TestCluster()
{
    m_http.reset();
    m_api.reset();
}

void TestCluster::start()
{
    server::TlsIdentity identity { serverPem().certificate, serverPem().keyTraditional };
    Result<QSslConfiguration> tls = identity.serverConfiguration();
    ASSERT_TRUE(tls.has_value());
    if (m_options.requireClientCertificate) {
        tls->setPeerVerifyMode(QSslSocket::VerifyPeer);
        tls->setCaCertificates({ QSslCertificate(KubeconfigFixtures::ca().certificate) });
    }
    m_http = std::make_unique<server::HttpServer>(
        [this](server::Request &request, server::HttpConnection &connection) {
            handle(request, connection);
        });
    m_http->setTlsConfiguration(*tls);
    Result<void> listening = m_http->listen(QHostAddress::LocalHost, m_port);
    ASSERT_TRUE(listening.has_value()) << listening.error().message.toStdString();
    m_port = m_http->port();
}

void TestCluster::stop()
{
    dropWatches();
    m_http.reset(); // closes the port and every connection with it
}

ClientConfig TestCluster::clientConfig() const
{
    ClientConfig config;
    config.context = QStringLiteral("test");
    config.cluster = QStringLiteral("test");
    config.server = QUrl(QStringLiteral("https://127.0.0.1:%1").arg(m_port));
    config.caCertificates = { QSslCertificate(KubeconfigFixtures::ca().certificate) };
    config.caPem = KubeconfigFixtures::ca().certificate;
    config.token = QString::fromStdString(m_options.token);
    return config;
}

void TestCluster::put(const std::vector<nlohmann::json> &objects)
{
    ASSERT_TRUE(m_writer.apply(batchOf(model::ChangeType::Added, objects)).has_value());
    m_api->watchHub().poll();
}

void TestCluster::remove(const std::vector<nlohmann::json> &objects)
{
    ASSERT_TRUE(m_writer.apply(batchOf(model::ChangeType::Deleted, objects)).has_value());
    m_api->watchHub().poll();
}

void TestCluster::compactHistory()
{
    const int64_t later = QDateTime::currentMSecsSinceEpoch() + 3600 * 1000;
    ASSERT_TRUE(m_writer.applyRetention({ .maxAgeMs = 1, .vacuum = false }, later).has_value());
}

void TestCluster::dropWatches()
{
    for (QPointer<server::HttpConnection> &connection : m_watches)
        if (connection)
            connection->abort();
    m_watches.clear();
}

int TestCluster::openWatches()
{
    std::erase_if(m_watches, [](const QPointer<server::HttpConnection> &c) { return c.isNull(); });
    return int(m_watches.size());
}

void TestCluster::failNext(const std::string &needle, int status, int times)
{
    m_faults.push_back(Fault { needle, status, times });
}

void TestCluster::handle(server::Request &request, server::HttpConnection &connection)
{
    if (request.header("user-agent") == kObserverAgent) { // the test's own look at the server
        m_api->handle(request, connection);
        return;
    }
    requests.push_back(request.method + " " + request.target);
    requestLog.push_back(request);
    for (Fault &fault : m_faults) {
        if (fault.times > 0 && request.target.find(fault.needle) != std::string::npos) {
            --fault.times;
            const std::string reason = fault.status == 410 ? "Expired"
                : fault.status == 403                      ? "Forbidden"
                : fault.status == 401                      ? "Unauthorized"
                                                           : "InternalError";
            connection.respond(server::jsonResponse(fault.status,
                server::status::object(fault.status, reason, "injected by the test")));
            return;
        }
    }
    if (request.query.value("watch").value_or("") == "true")
        m_watches.emplace_back(&connection);
    if (intercept && intercept(request, connection))
        return;
    m_api->handle(request, connection);
}

std::vector<std::string> TestCluster::servedJson(const model::KindInfo &kind)
{
    // As a client sees it: one unpaged list over the wire.
    if (!m_client)
        m_client = std::make_unique<RestClient>(
            clientConfig(), RestOptions { .userAgent = kObserverAgent });
    const QString path = kind.group.empty()
        ? QStringLiteral("/api/v1/") + common::qs(kind.plural)
        : QStringLiteral("/apis/resource.k8s.io/v1/") + common::qs(kind.plural);
    std::optional<Result<RestResponse>> response;
    QObject context;
    m_client->get(
        path, {}, &context, [&](const Result<RestResponse> &answer) { response = answer; });
    EXPECT_TRUE(spinUntil([&] { return response.has_value(); }));
    std::vector<std::string> out;
    if (!response || !*response)
        return out;
    const nlohmann::json list
        = nlohmann::json::parse((*response)->body.toStdString(), nullptr, false);
    if (list.is_object() && list.contains("items"))
        for (const nlohmann::json &item : list["items"])
            out.push_back(common::compactJson(item));
    return out;
}

} // namespace dra::kube::test
