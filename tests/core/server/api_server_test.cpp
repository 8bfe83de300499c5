// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/api_server.h"

#include <QNetworkRequest>
#include <QTimer>
#include <QTemporaryDir>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/object.h"
#include "core/server/http_server.h"
#include "core/server/websocket_gateway.h"
#include "core/model/record_codec.h"
#include "tests/support/api_test_support.h"
#include "tests/support/http_test_client.h"

namespace dra::server {
namespace {

using test::Reply;

using test::RawClient;
using test::spinUntil;

constexpr const char *kToken = "s3cret";
constexpr const char *kTableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/"
                                     "json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

nlohmann::json slice(const std::string &name, const std::string &node, const std::string &tier)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceSlice" },
        { "metadata",
            { { "name", name }, { "uid", "uid-" + name }, { "resourceVersion", "77" },
                { "creationTimestamp", "2026-11-30T07:00:00Z" },
                { "labels", { { "tier", tier } } } } },
        { "spec",
            { { "driver", "gpu.example.com" }, { "nodeName", node },
                { "pool",
                    { { "name", node + "-gpus" }, { "generation", 1 },
                        { "resourceSliceCount", 1 } } },
                { "devices", { { { "name", "gpu-0" } } } } } } };
}

nlohmann::json claim(const std::string &ns, const std::string &name)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata",
            { { "name", name }, { "namespace", ns }, { "uid", "uid-" + name },
                { "resourceVersion", "78" }, { "creationTimestamp", "2026-11-30T07:00:00Z" } } },
        { "spec",
            { { "devices",
                { { "requests",
                    { { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.example.com" } } } } } } } } } } };
}

class ApiServerTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("cache.db"));
        Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        ASSERT_TRUE(writer.has_value()) << writer.error().message.toStdString();
        m_writer = std::make_unique<store::CacheDb>(std::move(*writer));
        write(model::ChangeType::Added,
            { slice("node-1-gpu", "node-1", "gold"), slice("node-2-gpu", "node-2", "silver"),
                slice("node-3-gpu", "node-3", "gold"), claim("ml", "train-0"),
                claim("web", "infer-0") });
        Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
        ASSERT_TRUE(reader.has_value()) << reader.error().message.toStdString();
        m_reader = std::make_unique<store::CacheDb>(std::move(*reader));
        ApiServerOptions options;
        options.cluster = "test";
        options.token = kToken;
        options.pollIntervalMs = 20;
        m_api = std::make_unique<ApiServer>(*m_reader, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0).has_value());
    }

    void write(model::ChangeType type, const std::vector<nlohmann::json> &objects)
    {
        model::WatchBatch batch;
        batch.cluster = "test";
        for (const nlohmann::json &json : objects) {
            Result<model::Object> object = model::decodeObject(json);
            ASSERT_TRUE(object.has_value()) << object.error().message.toStdString();
            batch.changes.push_back({ type, model::toRecord(*object) });
        }
        Result<model::BatchSummary> applied = m_writer->apply(batch);
        ASSERT_TRUE(applied.has_value()) << applied.error().message.toStdString();
    }

    std::string request(const std::string &method, const std::string &target,
        const std::string &accept = "application/json", bool auth = true,
        const std::string &body = {})
    {
        std::string text
            = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: " + accept + "\r\n";
        if (auth)
            text += std::string("Authorization: Bearer ") + kToken + "\r\n";
        if (!body.empty())
            text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
        return text + "\r\n" + body;
    }

    Reply fetch(const std::string &target, const std::string &accept = "application/json",
        bool auth = true, const std::string &method = "GET", const std::string &body = {})
    {
        RawClient client(m_http->port());
        client.send(QByteArray::fromStdString(request(method, target, accept, auth, body)));
        Reply reply;
        const bool complete = spinUntil([&] {
            const qsizetype end = client.received().indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            const QByteArray head = client.received().left(end);
            const qsizetype at = head.indexOf("Content-Length: ");
            const qsizetype length
                = head.mid(at + 16, head.indexOf("\r\n", at) - at - 16).toLongLong();
            return client.received().size() >= end + 4 + length;
        });
        EXPECT_TRUE(complete) << target;
        const QByteArray &got = client.received();
        const qsizetype end = got.indexOf("\r\n\r\n");
        reply.head = got.left(end).toStdString();
        reply.status = got.mid(9, 3).toInt();
        reply.text = got.mid(end + 4).toStdString();
        reply.body = nlohmann::json::parse(reply.text, nullptr, false);
        return reply;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer, m_reader;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
};

TEST_F(ApiServerTest, VersionIsPublicAndReportsMinor34)
{
    for (const char *path : { "/version?timeout=5s", "/version/" }) {
        const Reply reply = fetch(path, "application/json, */*", false);
        EXPECT_EQ(reply.status, 200);
        EXPECT_EQ(reply.body.value("minor", ""), "34");
        EXPECT_EQ(reply.body.value("gitVersion", ""), "v1.34.0");
    }
    EXPECT_EQ(fetch("/healthz", "*/*", false).text, "ok");
}

TEST_F(ApiServerTest, RequestsWithoutTheTokenAreUnauthorized)
{
    const Reply reply = fetch("/apis/resource.k8s.io/v1/resourceslices", "application/json", false);
    EXPECT_EQ(reply.status, 401);
    EXPECT_EQ(reply.body.value("reason", ""), "Unauthorized");
    EXPECT_EQ(reply.body.value("code", 0), 401);
}

TEST_F(ApiServerTest, AggregatedDiscoveryByAcceptAndLegacyOtherwise)
{
    const std::string aggregated
        = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
          "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/"
          "json";
    Reply apis = fetch("/apis?timeout=32s", aggregated);
    EXPECT_NE(
        apis.head.find(
            "Content-Type: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"),
        std::string::npos);
    // resource.k8s.io, apps, gateway.networking.k8s.io, rbac.authorization.k8s.io,
    // networking.k8s.io, coordination.k8s.io, then the review groups authentication.k8s.io and
    // authorization.k8s.io.
    ASSERT_EQ(apis.body["items"].size(), 8u);
    EXPECT_EQ(apis.body["items"][3]["metadata"]["name"], "rbac.authorization.k8s.io");
    EXPECT_EQ(apis.body["items"][4]["metadata"]["name"], "networking.k8s.io");
    EXPECT_EQ(apis.body["items"][5]["metadata"]["name"], "coordination.k8s.io");
    EXPECT_EQ(apis.body["items"][6]["metadata"]["name"], "authentication.k8s.io");
    EXPECT_EQ(apis.body["items"][7]["metadata"]["name"], "authorization.k8s.io");
    EXPECT_EQ(apis.body["items"][0]["metadata"]["name"], "resource.k8s.io");
    EXPECT_EQ(apis.body["items"][1]["metadata"]["name"], "apps");
    const nlohmann::json &resources = apis.body["items"][0]["versions"][0]["resources"];
    bool sawSlices = false;
    for (const nlohmann::json &resource : resources) {
        if (resource["resource"] == "resourceslices") {
            sawSlices = true;
            EXPECT_EQ(resource["scope"], "Cluster");
            EXPECT_EQ(resource["verbs"], nlohmann::json({ "get", "list", "watch" }));
        }
    }
    EXPECT_TRUE(sawSlices);
    const Reply api = fetch("/api", aggregated);
    EXPECT_EQ(api.body["items"][0]["metadata"]["name"], "");

    EXPECT_EQ(fetch("/api").body["kind"], "APIVersions");
    EXPECT_EQ(
        fetch("/apis").body["groups"][0]["preferredVersion"]["groupVersion"], "resource.k8s.io/v1");
    EXPECT_EQ(fetch("/apis/resource.k8s.io").body["kind"], "APIGroup");
    const Reply legacy = fetch("/apis/resource.k8s.io/v1");
    EXPECT_EQ(legacy.body["groupVersion"], "resource.k8s.io/v1");
    const Reply core = fetch("/api/v1");
    bool sawNodes = false;
    for (const nlohmann::json &resource : core.body["resources"])
        sawNodes = sawNodes
            || (resource["name"] == "nodes" && resource["shortNames"] == nlohmann::json({ "no" }));
    EXPECT_TRUE(sawNodes);
    EXPECT_EQ(fetch("/apis/example.com/v1").status, 404);
}

TEST_F(ApiServerTest, ListsCarryKindsAndTheMirrorRevision)
{
    const Reply reply = fetch("/apis/resource.k8s.io/v1/resourceslices?limit=500");
    ASSERT_EQ(reply.status, 200) << reply.text;
    EXPECT_EQ(reply.body["kind"], "ResourceSliceList");
    EXPECT_EQ(reply.body["apiVersion"], "resource.k8s.io/v1");
    ASSERT_EQ(reply.body["items"].size(), 3u);
    const std::string listRev = reply.body["metadata"]["resourceVersion"];
    EXPECT_EQ(listRev, std::to_string(*m_reader->currentRev()));
    for (const nlohmann::json &item : reply.body["items"]) {
        EXPECT_EQ(item["kind"], "ResourceSlice");
        EXPECT_EQ(item["apiVersion"], "resource.k8s.io/v1");
        EXPECT_NE(item["metadata"]["resourceVersion"], "77"); // the mirror's rev, not the cluster's
    }
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceclaims").body["items"].size(), 2u);
    const Reply ml = fetch("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims");
    ASSERT_EQ(ml.body["items"].size(), 1u);
    EXPECT_EQ(ml.body["items"][0]["metadata"]["namespace"], "ml");
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/train-0").body["kind"],
        "ResourceClaim");
    EXPECT_EQ(fetch("/api/v1/nodes").body["kind"], "NodeList");
}

TEST_F(ApiServerTest, AListIsTheBytesOfItsObjectsAsTheyAreNowInTheVersionAsked)
{
    // Lists are served from kept encodings: after changes, each item must still be exactly the
    // object a GET returns now, in the version the list was asked in.
    const auto expectListMatchesGets = [&](const std::string &version, std::size_t count) {
        SCOPED_TRACE(version);
        const std::string base = "/apis/resource.k8s.io/" + version + "/resourceslices";
        const Reply list = fetch(base);
        ASSERT_EQ(list.status, 200) << list.text;
        ASSERT_EQ(list.body["items"].size(), count);
        EXPECT_EQ(
            list.body["metadata"]["resourceVersion"], std::to_string(*m_reader->currentRev()));
        for (const nlohmann::json &item : list.body["items"]) {
            const Reply one = fetch(base + "/" + item["metadata"]["name"].get<std::string>());
            ASSERT_EQ(one.status, 200);
            EXPECT_EQ(item, one.body);
            EXPECT_EQ(item["apiVersion"], "resource.k8s.io/" + version);
        }
    };
    expectListMatchesGets("v1", 3);
    expectListMatchesGets("v1beta1", 3);

    write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
    write(model::ChangeType::Added, { slice("node-0-gpu", "node-0", "gold") });
    write(model::ChangeType::Deleted, { slice("node-3-gpu", "node-3", "gold") });
    expectListMatchesGets("v1", 3);
    expectListMatchesGets("v1beta1", 3);
    const Reply bronze
        = fetch("/apis/resource.k8s.io/v1/resourceslices?labelSelector=tier%3Dbronze");
    ASSERT_EQ(bronze.body["items"].size(), 1u);
    EXPECT_EQ(bronze.body["items"][0]["metadata"]["name"], "node-2-gpu");
    const Reply gold = fetch("/apis/resource.k8s.io/v1/resourceslices?labelSelector=tier%3Dgold");
    ASSERT_EQ(gold.body["items"].size(), 2u);
    EXPECT_EQ(gold.body["items"][0]["metadata"]["name"], "node-0-gpu");
    EXPECT_EQ(gold.body["items"][1]["metadata"]["name"], "node-1-gpu");

    // Claims of one namespace, and of every namespace, from the same kept objects.
    write(model::ChangeType::Added, { claim("ml", "train-1") });
    EXPECT_EQ(
        fetch("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims").body["items"].size(), 2u);
    EXPECT_EQ(
        fetch("/apis/resource.k8s.io/v1/namespaces/web/resourceclaims").body["items"].size(), 1u);
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceclaims").body["items"].size(), 3u);
    EXPECT_EQ(
        fetch("/apis/resource.k8s.io/v1/namespaces/mm/resourceclaims").body["items"].size(), 0u);
}

TEST_F(ApiServerTest, NotFoundIsWordedAsKubeApiserverWordsIt)
{
    const Reply reply = fetch("/apis/resource.k8s.io/v1/deviceclasses/nope");
    EXPECT_EQ(reply.status, 404);
    EXPECT_EQ(reply.body["message"], "deviceclasses.resource.k8s.io \"nope\" not found");
    EXPECT_EQ(reply.body["reason"], "NotFound");
    EXPECT_EQ(reply.body["details"]["kind"], "deviceclasses");
    EXPECT_EQ(fetch("/api/v1/namespaces/x").body["message"], "namespaces \"x\" not found");
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/widgets").body["message"],
        "the server could not find the requested resource");
}

TEST_F(ApiServerTest, TablesHaveUpstreamColumnsAndPartialMetadata)
{
    const Reply reply = fetch("/apis/resource.k8s.io/v1/resourceslices?limit=500", kTableAccept);
    ASSERT_EQ(reply.status, 200);
    EXPECT_NE(reply.head.find("Content-Type: application/json;as=Table;v=v1;g=meta.k8s.io"),
        std::string::npos);
    EXPECT_EQ(reply.body["kind"], "Table");
    EXPECT_FALSE(reply.body["metadata"]["resourceVersion"].get<std::string>().empty());
    std::vector<std::string> shown;
    for (const nlohmann::json &column : reply.body["columnDefinitions"]) {
        if (column["priority"] == 0)
            shown.push_back(column["name"].get<std::string>());
    }
    EXPECT_EQ(shown, (std::vector<std::string> { "Name", "Node", "Driver", "Pool", "Age" }));
    ASSERT_EQ(reply.body["rows"].size(), 3u);
    const nlohmann::json &row = reply.body["rows"][0];
    EXPECT_EQ(row["cells"][0], "node-1-gpu");
    EXPECT_EQ(row["cells"][1], "node-1");
    EXPECT_EQ(row["object"]["kind"], "PartialObjectMetadata");
    EXPECT_EQ(row["object"]["metadata"]["name"], "node-1-gpu");
    EXPECT_FALSE(row["object"].contains("spec"));
}

TEST_F(ApiServerTest, PagesWithOpaqueContinueTokens)
{
    std::vector<std::string> names;
    std::string token;
    int pages = 0;
    do {
        const Reply reply = fetch("/apis/resource.k8s.io/v1/resourceslices?limit=2"
            + (token.empty() ? "" : "&continue=" + token));
        ASSERT_EQ(reply.status, 200) << reply.text;
        for (const nlohmann::json &item : reply.body["items"])
            names.push_back(item["metadata"]["name"].get<std::string>());
        token = reply.body["metadata"].value("continue", "");
        ++pages;
    } while (!token.empty() && pages < 5);
    EXPECT_EQ(pages, 2);
    EXPECT_EQ(names, (std::vector<std::string> { "node-1-gpu", "node-2-gpu", "node-3-gpu" }));
    EXPECT_EQ(
        fetch("/apis/resource.k8s.io/v1/resourceslices?limit=2&continue=garbage!").status, 400);
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceslices?limit=x").status, 400);
}

// As kube-apiserver serves pages from etcd's history: the rest of a paged list is the objects
// as they were when its first page was read, whatever changed since (kubectl pages by 500 and
// fails on a 410, so a busy cluster would otherwise break every long list).
TEST_F(ApiServerTest, LaterPagesComeFromTheFirstPagesRevision)
{
    const std::string slices = "/apis/resource.k8s.io/v1/resourceslices";
    for (const std::string &accept :
        { std::string("application/json"), std::string(kTableAccept) }) {
        SCOPED_TRACE(accept);
        const Reply first = fetch(slices + "?limit=1", accept);
        ASSERT_EQ(first.status, 200) << first.text;
        const std::string listedAt = first.body["metadata"]["resourceVersion"];
        write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
        write(model::ChangeType::Added, { slice("node-4-gpu", "node-4", "gold") });

        std::vector<std::string> names;
        std::string token = first.body["metadata"]["continue"];
        while (!token.empty()) {
            const Reply next = fetch(slices + "?limit=1&continue=" + token, accept);
            ASSERT_EQ(next.status, 200) << next.text;
            EXPECT_EQ(next.body["metadata"]["resourceVersion"], listedAt);
            EXPECT_EQ(next.text.find("bronze"), std::string::npos) << next.text;
            const bool table = next.body["kind"] == "Table";
            for (const nlohmann::json &item : next.body[table ? "rows" : "items"])
                names.push_back((table ? item["object"] : item)["metadata"]["name"]);
            token = next.body["metadata"].value("continue", "");
        }
        EXPECT_EQ(names, (std::vector<std::string> { "node-2-gpu", "node-3-gpu" }));
        write(model::ChangeType::Deleted, { slice("node-4-gpu", "node-4", "gold") });
        write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "silver") });
    }
}

TEST_F(ApiServerTest, ContinuingWhenTheFirstPagesObjectsAreGoneIsExpired)
{
    const Reply first = fetch("/apis/resource.k8s.io/v1/resourceslices?limit=1");
    const std::string token = first.body["metadata"]["continue"];
    write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
    m_api->resources().rewound(); // as after a restore: what was kept of older revisions is gone
    const Reply next = fetch("/apis/resource.k8s.io/v1/resourceslices?limit=1&continue=" + token);
    EXPECT_EQ(next.status, 410);
    EXPECT_EQ(next.body["reason"], "Expired");
    EXPECT_FALSE(next.body["metadata"].value("continue", "").empty());
}

TEST_F(ApiServerTest, LabelAndFieldSelectors)
{
    auto names = [&](const std::string &query) {
        std::vector<std::string> found;
        const Reply reply = fetch("/apis/resource.k8s.io/v1/resourceslices?" + query);
        for (const nlohmann::json &item : reply.body["items"])
            found.push_back(item["metadata"]["name"].get<std::string>());
        return found;
    };
    EXPECT_EQ(names("labelSelector=tier%3Dgold"),
        (std::vector<std::string> { "node-1-gpu", "node-3-gpu" }));
    EXPECT_EQ(names("labelSelector=tier%3D%3Dsilver"), (std::vector<std::string> { "node-2-gpu" }));
    EXPECT_EQ(names("labelSelector=tier!%3Dgold"), (std::vector<std::string> { "node-2-gpu" }));
    EXPECT_EQ(names("labelSelector=tier+in+(silver,bronze)"),
        (std::vector<std::string> { "node-2-gpu" }));
    EXPECT_EQ(
        names("labelSelector=tier+notin+(gold)"), (std::vector<std::string> { "node-2-gpu" }));
    EXPECT_EQ(names("labelSelector=tier").size(), 3u);
    EXPECT_EQ(names("labelSelector=!tier").size(), 0u);
    EXPECT_EQ(names("fieldSelector=metadata.name%3Dnode-2-gpu"),
        (std::vector<std::string> { "node-2-gpu" }));
    EXPECT_EQ(names("fieldSelector=metadata.name!%3Dnode-2-gpu").size(), 2u);
    const Reply bad
        = fetch("/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.color%3Dred");
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.body["message"], "field label not supported: spec.color");
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceslices?labelSelector=a+in+b").status, 400);
}

TEST_F(ApiServerTest, WritesAreMethodNotAllowedAndTheConnectionStaysUsable)
{
    RawClient client(m_http->port());
    const std::string body = R"({"propagationPolicy":"Background"})";
    client.send(QByteArray::fromStdString(
        request("DELETE", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/train-0",
            "application/json", true, body)
        + request("GET", "/version", "application/json")));
    ASSERT_TRUE(client.waitFor("\"gitVersion\""));
    EXPECT_TRUE(client.received().startsWith("HTTP/1.1 405 "));
    EXPECT_TRUE(client.received().contains("\"reason\":\"MethodNotAllowed\""));
}

TEST_F(ApiServerTest, WatchFromZeroSendsInitialStateThenChangesAndHonoursTimeout)
{
    RawClient client(m_http->port());
    client.send(QByteArray::fromStdString(request("GET",
        "/apis/resource.k8s.io/v1/resourceslices?watch=True&resourceVersion=0&timeoutSeconds=2")));
    ASSERT_TRUE(client.waitFor("\"type\":\"ADDED\"", 3));
    write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
    ASSERT_TRUE(client.waitFor("\"type\":\"MODIFIED\""));
    EXPECT_TRUE(client.received().contains("\"bronze\""));
    // One compact event per line (Python splits on newlines).
    const QByteArray rest
        = client.received().mid(client.received().indexOf("{\"type\":\"MODIFIED"));
    const QByteArray line = rest.left(rest.indexOf('\n'));
    EXPECT_FALSE(line.contains("\r"));
    const auto event = nlohmann::json::parse(line.toStdString(), nullptr, false);
    ASSERT_TRUE(event.is_object()) << line.constData();
    EXPECT_EQ(event["type"], "MODIFIED");
    EXPECT_EQ(event["object"]["metadata"]["name"], "node-2-gpu");
    ASSERT_TRUE(client.waitFor("\r\n0\r\n\r\n", 1, 5000)); // timeoutSeconds ends the stream
}

TEST_F(ApiServerTest, WatchFromARevisionSendsOnlyLaterChangesAsTables)
{
    const Reply list = fetch("/apis/resource.k8s.io/v1/resourceslices", kTableAccept);
    const std::string rev = list.body["metadata"]["resourceVersion"];
    RawClient client(m_http->port());
    client.send(QByteArray::fromStdString(request("GET",
        "/apis/resource.k8s.io/v1/resourceslices?resourceVersion=" + rev + "&watch=true",
        kTableAccept)));
    ASSERT_TRUE(client.waitFor("Transfer-Encoding: chunked"));
    write(model::ChangeType::Deleted, { slice("node-3-gpu", "node-3", "gold") });
    ASSERT_TRUE(client.waitFor("\"type\":\"DELETED\""));
    EXPECT_FALSE(client.received().contains("\"ADDED\""));
    EXPECT_TRUE(client.received().contains("\"kind\":\"Table\""));
    EXPECT_TRUE(client.received().contains("node-3-gpu"));
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceslices?watch=maybe").status, 400);
}

TEST_F(ApiServerTest, WatchWithFieldSelectorSeesOnlyThatObject)
{
    RawClient client(m_http->port());
    client.send(QByteArray::fromStdString(request("GET",
        "/apis/resource.k8s.io/v1/"
        "resourceslices?fieldSelector=metadata.name%3Dnode-1-gpu&resourceVersion=0&watch=true&"
        "allowWatchBookmarks=true")));
    ASSERT_TRUE(client.waitFor("\"type\":\"ADDED\""));
    write(model::ChangeType::Modified,
        { slice("node-2-gpu", "node-2", "bronze"), slice("node-1-gpu", "node-1", "platinum") });
    ASSERT_TRUE(client.waitFor("\"type\":\"MODIFIED\""));
    EXPECT_EQ(client.received().count("\"type\":\"ADDED\""), 1);
    EXPECT_FALSE(client.received().contains("node-2-gpu"));
}

// A WebSocket client of the test server that keeps every text message it receives.
class WatchSocket
{
public:
    WatchSocket(quint16 port, const std::string &target, const QString &bearerHeader,
        const QStringList &subprotocols = {})
    {
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket,
            [this](const QString &message) { m_messages.push_back(message.toStdString()); });
        QNetworkRequest request(
            QUrl(QStringLiteral("ws://127.0.0.1:%1").arg(port) + QString::fromStdString(target)));
        if (!bearerHeader.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + bearerHeader.toUtf8());
        QWebSocketHandshakeOptions options;
        options.setSubprotocols(subprotocols);
        m_socket.open(request, options);
    }
    bool waitConnected()
    {
        return spinUntil([this] { return m_socket.state() == QAbstractSocket::ConnectedState; });
    }
    // Waits until `count` messages hold `needle`.
    bool waitFor(const std::string &needle, int count = 1, int ms = 5000)
    {
        return spinUntil(
            [&] {
                return std::count_if(m_messages.begin(), m_messages.end(), [&](const auto &text) {
                    return text.find(needle) != std::string::npos;
                }) >= count;
            },
            ms);
    }
    bool waitClosed(int ms = 5000)
    {
        return spinUntil(
            [this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, ms);
    }
    const std::vector<std::string> &messages() const { return m_messages; }
    QWebSocket &socket() { return m_socket; }

private:
    QWebSocket m_socket;
    std::vector<std::string> m_messages;
};

TEST_F(ApiServerTest, AWebSocketMessageTooBigClosesThatSocketAndNoOther)
{
    const std::string target
        = "/apis/resource.k8s.io/v1/resourceslices?watch=true&resourceVersion=0";
    WatchSocket attacker(m_http->port(), target, QString::fromLatin1(kToken));
    WatchSocket bystander(m_http->port(), target, QString::fromLatin1(kToken));
    ASSERT_TRUE(attacker.waitConnected());
    ASSERT_TRUE(bystander.waitConnected());
    ASSERT_TRUE(bystander.waitFor("\"type\":\"ADDED\"", 3));

    // Clients send closes and subscriptions, never data: a message past the limit is an attack
    // on the server's memory.
    attacker.socket().sendTextMessage(
        QString(qsizetype(kMaxWebSocketMessageBytes) + 1, QLatin1Char('x')));
    ASSERT_TRUE(attacker.waitClosed(10000));
    EXPECT_EQ(attacker.socket().closeCode(), QWebSocketProtocol::CloseCodeTooMuchData);

    write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
    EXPECT_TRUE(bystander.waitFor("\"type\":\"MODIFIED\""));
}

TEST_F(ApiServerTest, WatchOverWebSocketSendsOneJsonEventPerMessage)
{
    WatchSocket watch(m_http->port(),
        "/apis/resource.k8s.io/v1/resourceslices?watch=true&resourceVersion=0",
        QString::fromLatin1(kToken));
    ASSERT_TRUE(watch.waitConnected());
    ASSERT_TRUE(watch.waitFor("\"type\":\"ADDED\"", 3));
    write(model::ChangeType::Modified, { slice("node-2-gpu", "node-2", "bronze") });
    ASSERT_TRUE(watch.waitFor("\"type\":\"MODIFIED\""));
    for (const std::string &message : watch.messages()) {
        const nlohmann::json event = nlohmann::json::parse(message, nullptr, false);
        ASSERT_TRUE(event.is_object()) << message;
        EXPECT_EQ(event["object"]["kind"], "ResourceSlice");
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
    EXPECT_EQ(
        nlohmann::json::parse(watch.messages().back())["object"]["metadata"]["labels"]["tier"],
        "bronze");
}

TEST_F(ApiServerTest, WebSocketWatchTakesTheTokenFromItsSubprotocolAndNeverEchoesIt)
{
    const QString bearer = QString::fromLatin1(kBearerProtocolPrefix.data())
        + QString::fromLatin1(QByteArray(kToken).toBase64(
            QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    WatchSocket watch(m_http->port(),
        "/apis/resource.k8s.io/v1/resourceslices?watch=1&resourceVersion=0&timeoutSeconds=1", {},
        { QStringLiteral("base64.binary.k8s.io"), bearer });
    ASSERT_TRUE(watch.waitConnected());
    EXPECT_EQ(watch.socket().subprotocol(), QStringLiteral("base64.binary.k8s.io"));
    ASSERT_TRUE(watch.waitFor("\"type\":\"ADDED\"", 3));
    // timeoutSeconds ends the watch with a normal close, as the chunked stream ends.
    ASSERT_TRUE(watch.waitClosed());
    EXPECT_EQ(watch.socket().closeCode(), QWebSocketProtocol::CloseCodeNormal);
    EXPECT_EQ(m_api->watchHub().watcherCount(), 0);
}

TEST_F(ApiServerTest, RefusedWebSocketWatchesAreOrdinaryStatusAnswers)
{
    const auto upgrade = [](const std::string &target, const std::string &protocols) {
        return "GET " + target
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              "Sec-WebSocket-Protocol: "
            + protocols + "\r\n\r\n";
    };
    const std::string target = "/apis/resource.k8s.io/v1/resourceslices?watch=true";
    const std::string wrong = std::string(kBearerProtocolPrefix) + "d3Jvbmc"; // "wrong"
    EXPECT_EQ(test::exchange(m_http->port(), upgrade(target, wrong)).status, 401);
    const std::string right = std::string(kBearerProtocolPrefix)
        + QByteArray(kToken)
              .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
              .toStdString();
    const test::Reply bad
        = test::exchange(m_http->port(), upgrade(target + "&timeoutSeconds=x", right));
    EXPECT_EQ(bad.status, 400);
    EXPECT_NE(bad.body["message"].get<std::string>().find("timeoutSeconds"), std::string::npos);

    // The accepted handshake switches protocols and does not echo the token back.
    RawClient client(m_http->port());
    client.send(QByteArray::fromStdString(upgrade(target, "base64.binary.k8s.io, " + right)));
    ASSERT_TRUE(client.waitFor("\r\n\r\n"));
    EXPECT_TRUE(client.received().startsWith("HTTP/1.1 101"));
    EXPECT_FALSE(client.received().contains("bearer"));
}

// A client of a restored or recreated server holds a resourceVersion newer than the server's:
// a watch or a NotOlderThan list waits briefly for it, then fails as kube-apiserver fails it.
TEST_F(ApiServerTest, TooLargeResourceVersionIsATimeoutForWatchesAndLists)
{
    m_api->watchHub().setTooLargeWaitMs(200);
    const int64_t current = std::stoll(fetch("/apis/resource.k8s.io/v1/resourceslices")
                                           .body["metadata"]["resourceVersion"]
                                           .get<std::string>());
    const std::string ahead = std::to_string(current + 300);
    for (const std::string &target :
        { "/apis/resource.k8s.io/v1/resourceslices?watch=true&resourceVersion=" + ahead,
            "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims?resourceVersion=" + ahead
                + "&resourceVersionMatch=NotOlderThan",
            "/apis/resource.k8s.io/v1/resourceslices?watch=true&sendInitialEvents=true&"
            "resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion="
                + ahead }) {
        const Reply reply = fetch(target);
        EXPECT_EQ(reply.status, 504) << target;
        EXPECT_EQ(reply.body.value("reason", ""), "Timeout") << target;
        EXPECT_EQ(reply.body.value("code", 0), 504) << target;
        EXPECT_EQ(reply.body.value("message", ""),
            "Timeout: Too large resource version: " + ahead
                + ", current: " + std::to_string(current))
            << target;
        ASSERT_TRUE(reply.body["details"]["causes"].is_array()) << reply.text;
        EXPECT_EQ(
            reply.body["details"]["causes"][0].value("reason", ""), "ResourceVersionTooLarge");
        EXPECT_EQ(reply.body["details"].value("retryAfterSeconds", 0), 1);
        EXPECT_EQ(reply.headers("retry-after"), std::vector<std::string> { "1" }) << reply.head;
    }
    // The current resourceVersion, and any older one still held, are served as before.
    EXPECT_EQ(fetch("/apis/resource.k8s.io/v1/resourceslices?resourceVersion="
                  + std::to_string(current) + "&resourceVersionMatch=NotOlderThan")
                  .status,
        200);
}

// A resourceVersion that arrives while the request waits for it is served, not refused.
TEST_F(ApiServerTest, ResourceVersionThatArrivesWhileWaitedForIsServed)
{
    m_api->watchHub().setTooLargeWaitMs(20'000);
    const int64_t current = std::stoll(fetch("/apis/resource.k8s.io/v1/resourceslices")
                                           .body["metadata"]["resourceVersion"]
                                           .get<std::string>());
    QTimer::singleShot(
        200, m_api.get(), [this] { write(model::ChangeType::Added, { claim("ml", "late-0") }); });
    const Reply list = fetch("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims?"
                             "resourceVersionMatch=NotOlderThan&resourceVersion="
        + std::to_string(current + 1));
    EXPECT_EQ(list.status, 200) << list.text;
    EXPECT_NE(list.text.find("late-0"), std::string::npos) << list.text;
}

} // namespace
} // namespace dra::server
