// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/proxy.h"

#include <gtest/gtest.h>

namespace dra::kube {
namespace {

struct NoProxyCase
{
    const char *noProxy;
    const char *host;
    int port;
    bool excluded;
};

class NoProxyTest : public testing::TestWithParam<NoProxyCase>
{
};

TEST_P(NoProxyTest, MatchesAsGoDoes)
{
    const NoProxyCase &c = GetParam();
    EXPECT_EQ(noProxyMatches(QString::fromLatin1(c.noProxy), QString::fromLatin1(c.host), c.port),
        c.excluded)
        << "NO_PROXY=" << c.noProxy << " host=" << c.host << ":" << c.port;
}

INSTANTIATE_TEST_SUITE_P(Entries, NoProxyTest,
    testing::Values(NoProxyCase { "*", "api.example.com", 443, true },
        NoProxyCase { "example.com", "example.com", 443, true },
        NoProxyCase { "example.com", "api.example.com", 443, true },
        NoProxyCase { "example.com", "badexample.com", 443, false },
        NoProxyCase { ".example.com", "api.example.com", 443, true },
        NoProxyCase { ".example.com", "example.com", 443, false },
        NoProxyCase { "*.example.com", "api.example.com", 443, true },
        NoProxyCase { "10.0.0.0/8", "10.1.2.3", 6443, true },
        NoProxyCase { "10.0.0.0/8", "192.168.1.1", 6443, false },
        NoProxyCase { "192.168.1.1", "192.168.1.1", 443, true },
        NoProxyCase { "example.com:6443", "api.example.com", 6443, true },
        NoProxyCase { "example.com:6443", "api.example.com", 443, false },
        NoProxyCase { "other.org, EXAMPLE.com", "api.example.com", 443, true },
        NoProxyCase { "", "api.example.com", 443, false }));

TEST(ProxyForTest, HttpsProxyAppliesToHttpsServersUnlessExcluded)
{
    const ProxyEnvironment environment { QStringLiteral("http://proxy.corp:3128"),
        QStringLiteral("http://plain.corp:80"), QStringLiteral(".internal") };
    Result<QNetworkProxy> proxy
        = proxyFor(QUrl(QStringLiteral("https://api.example.com:6443")), {}, environment, {});
    ASSERT_TRUE(proxy.has_value());
    EXPECT_EQ(proxy->type(), QNetworkProxy::HttpProxy);
    EXPECT_EQ(proxy->hostName(), QStringLiteral("proxy.corp"));
    EXPECT_EQ(proxy->port(), 3128);

    Result<QNetworkProxy> excluded
        = proxyFor(QUrl(QStringLiteral("https://k8s.internal")), {}, environment, {});
    EXPECT_EQ(excluded.value().type(), QNetworkProxy::NoProxy);
    // Go never proxies loopback, whatever the environment says.
    Result<QNetworkProxy> loopback
        = proxyFor(QUrl(QStringLiteral("https://127.0.0.1:6443")), {}, environment, {});
    EXPECT_EQ(loopback.value().type(), QNetworkProxy::NoProxy);
    Result<QNetworkProxy> localhost
        = proxyFor(QUrl(QStringLiteral("https://localhost:6443")), {}, environment, {});
    EXPECT_EQ(localhost.value().type(), QNetworkProxy::NoProxy);
}

TEST(ProxyForTest, ProxyUrlOfTheClusterWinsAndSchemelessMeansHttp)
{
    const ProxyEnvironment environment { QStringLiteral("proxy.corp:3128"), {},
        QStringLiteral("*") };
    Result<QNetworkProxy> fromCluster = proxyFor(QUrl(QStringLiteral("https://api.example.com")),
        QStringLiteral("socks5://gw:1081"), environment, {});
    EXPECT_EQ(fromCluster.value().type(), QNetworkProxy::Socks5Proxy);
    EXPECT_EQ(fromCluster.value().port(), 1081);
    const ProxyEnvironment schemeless { QStringLiteral("proxy.corp:3128"), {}, {} };
    Result<QNetworkProxy> fromEnvironment
        = proxyFor(QUrl(QStringLiteral("https://api.example.com")), {}, schemeless, {});
    EXPECT_EQ(fromEnvironment.value().type(), QNetworkProxy::HttpProxy);
    EXPECT_EQ(fromEnvironment.value().hostName(), QStringLiteral("proxy.corp"));
}

TEST(ProxyForTest, HttpsProxiesAreAnErrorNamingTheField)
{
    Result<QNetworkProxy> proxy = proxyFor(QUrl(QStringLiteral("https://api.example.com")),
        QStringLiteral("https://secure-proxy:443"), {},
        QStringLiteral("FILE: clusters[\"c\"].proxy-url"));
    ASSERT_FALSE(proxy.has_value());
    EXPECT_NE(proxy.error().message.indexOf(QStringLiteral("clusters[\"c\"].proxy-url")), -1);
    EXPECT_EQ(proxy.error().code, common::Error::Code::Unsupported);
}

} // namespace
} // namespace dra::kube
