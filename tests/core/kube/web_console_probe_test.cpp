// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Whether a cluster's server is one of DRA Console's, which also serves the web console: what the
// desktop's web console button and `dractl contexts` rely on to offer the cluster in a browser.
#include "core/kube/web_console_probe.h"

#include <QFile>
#include <QUrlQuery>

#include <gtest/gtest.h>

#include "core/kube/rest_client.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

using test::spinUntil;
using test::TestCluster;

std::optional<QUrl> probe(const ClientConfig &config)
{
    RestClient client(config);
    std::optional<std::optional<QUrl>> answer;
    QObject context;
    probeWebConsole(
        client, &context, [&](const std::optional<QUrl> &console) { answer = console; });
    EXPECT_TRUE(spinUntil([&] { return answer.has_value(); }));
    return answer.value_or(std::nullopt);
}

TEST(WebConsoleProbeTest, OurOwnServerServesTheConsoleBesideTheApi)
{
    TestCluster cluster;
    const std::optional<QUrl> console = probe(cluster.clientConfig());
    ASSERT_TRUE(console.has_value());
    EXPECT_EQ(console->toString(), QStringLiteral("https://127.0.0.1:%1/ui/").arg(cluster.port()));
    EXPECT_EQ(cluster.requestLog.back().header("accept"), "text/html");
}

TEST(WebConsoleProbeTest, AServerWithoutTheConsoleHasNone)
{
    TestCluster cluster;
    cluster.failNext("/ui/", 404); // what kube-apiserver answers for a path it does not serve
    EXPECT_FALSE(probe(cluster.clientConfig()).has_value());

    // Another application's page at /ui/ (a dashboard behind the same proxy) is not ours.
    cluster.intercept = [](server::Request &request, server::HttpConnection &connection) {
        if (request.path != "/ui/")
            return false;
        connection.respond(server::Response { 200, "text/html", {},
            "<!DOCTYPE html><html><head><title>DRA Console</title>"
            "<meta name=\"application-name\" content=\"Kubernetes Dashboard\"></head></html>" });
        return true;
    };
    EXPECT_FALSE(probe(cluster.clientConfig()).has_value());
}

TEST(WebConsoleProbeTest, AnUnreachableServerHasNone)
{
    TestCluster cluster;
    ClientConfig config = cluster.clientConfig();
    cluster.stop();
    EXPECT_FALSE(probe(config).has_value());
}

TEST(WebConsoleProbeTest, TheBundledPageNamesItself)
{
    QFile page(QStringLiteral(":/web/index.html"));
    ASSERT_TRUE(page.open(QIODevice::ReadOnly)) << "the web console is compiled into dra_server";
    EXPECT_TRUE(isWebConsolePage(page.readAll()));
    EXPECT_TRUE(isWebConsolePage("<head><META NAME='application-name' CONTENT='DRA Console'>"));
    EXPECT_FALSE(isWebConsolePage("<head><title>DRA Console</title></head>"));
    EXPECT_FALSE(isWebConsolePage("{\"kind\":\"Status\",\"code\":404}"));
}

TEST(WebConsoleProbeTest, TheLinkCarriesTheTokenAfterTheRouteInTheFragmentOnly)
{
    ClientConfig client;
    client.token = QStringLiteral("abc+/=def");
    const QUrl console(QStringLiteral("https://mirror.example.com:8443/dra/ui/"));
    const QUrl link = webConsoleLink(console, client);
    EXPECT_EQ(link.path(), QStringLiteral("/dra/ui/"));
    EXPECT_TRUE(link.query().isEmpty()) << "a query would reach the server";
    const QString fragment = link.fragment(QUrl::FullyDecoded);
    ASSERT_TRUE(fragment.startsWith(QStringLiteral("/overview?"))) << fragment.toStdString();
    // The page reads the token as URLSearchParams does: '+' must arrive as a plus.
    EXPECT_EQ(QUrlQuery(link.fragment(QUrl::FullyEncoded).section(QLatin1Char('?'), 1))
                  .queryItemValue(QStringLiteral("token"), QUrl::FullyDecoded),
        client.token);
    EXPECT_NE(link.toString(QUrl::FullyEncoded).indexOf(QStringLiteral("%2B")), -1);

    EXPECT_EQ(webConsoleLink(console, {}, QStringLiteral("/devices")).toString(),
        QStringLiteral("https://mirror.example.com:8443/dra/ui/#/devices"));
}

} // namespace
} // namespace dra::kube
