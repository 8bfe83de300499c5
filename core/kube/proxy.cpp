// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/proxy.h"

#include <QHostAddress>

namespace dra::kube {

namespace {

using common::Error;

QString firstSet(const char *upper, const char *lower)
{
    const QString value = qEnvironmentVariable(upper);
    return value.isEmpty() ? qEnvironmentVariable(lower) : value;
}

// Go's parse: a value without a scheme ("proxy:3128") is taken as http://.
QUrl parseProxyUrl(const QString &text)
{
    QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.scheme().isEmpty() || url.host().isEmpty())
        url = QUrl(QStringLiteral("http://") + text, QUrl::StrictMode);
    return url;
}

Result<QNetworkProxy> toQtProxy(const QString &text, const QString &what)
{
    const QUrl url = parseProxyUrl(text);
    if (!url.isValid() || url.host().isEmpty())
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": \"%1\" is not a proxy URL").arg(text));
    const QString scheme = url.scheme().toLower();
    QNetworkProxy::ProxyType type;
    int defaultPort;
    if (scheme == QLatin1String("http")) {
        type = QNetworkProxy::HttpProxy;
        defaultPort = 80;
    } else if (scheme == QLatin1String("socks5") || scheme == QLatin1String("socks5h")) {
        type = QNetworkProxy::Socks5Proxy;
        defaultPort = 1080;
    } else if (scheme == QLatin1String("https")) {
        return fail(Error::Code::Unsupported,
            what
                + QStringLiteral(
                    ": %1 is an https:// proxy (TLS to the proxy), which Qt Network cannot "
                    "use; use its http:// or socks5:// address")
                      .arg(url.toDisplayString(QUrl::RemoveUserInfo)));
    } else {
        return fail(Error::Code::Invalid,
            what
                + QStringLiteral(": proxy scheme \"%1\" is not http, https or socks5").arg(scheme));
    }
    QNetworkProxy proxy(type, url.host(), quint16(url.port(defaultPort)),
        url.userName(QUrl::FullyDecoded), url.password(QUrl::FullyDecoded));
    if (type == QNetworkProxy::Socks5Proxy)
        proxy.setCapabilities(proxy.capabilities() | QNetworkProxy::HostNameLookupCapability);
    return proxy;
}

bool isLoopback(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

ProxyEnvironment ProxyEnvironment::fromProcess()
{
    return ProxyEnvironment { firstSet("HTTPS_PROXY", "https_proxy"),
        firstSet("HTTP_PROXY", "http_proxy"), firstSet("NO_PROXY", "no_proxy") };
}

bool noProxyMatches(const QString &noProxy, const QString &hostIn, int port)
{
    const QString host = hostIn.toLower();
    const QHostAddress address(host);
    for (QString entry : noProxy.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        entry = entry.trimmed().toLower();
        if (entry.isEmpty())
            continue;
        if (entry == QLatin1String("*"))
            return true;
        if (entry.contains(QLatin1Char('/'))) { // CIDR
            if (!address.isNull() && address.isInSubnet(QHostAddress::parseSubnet(entry)))
                return true;
            continue;
        }
        // An optional ":port" (an IPv6 entry carries brackets when it has a port).
        int entryPort = 0;
        QString entryHost = entry;
        const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
        if (colon > 0
            && (entry.count(QLatin1Char(':')) == 1 || entry.startsWith(QLatin1Char('[')))) {
            entryHost = entry.left(colon);
            entryPort = entry.mid(colon + 1).toInt();
        }
        if (entryHost.startsWith(QLatin1Char('[')) && entryHost.endsWith(QLatin1Char(']')))
            entryHost = entryHost.mid(1, entryHost.size() - 2);
        if (entryPort != 0 && entryPort != port)
            continue;
        const QHostAddress entryAddress(entryHost);
        if (!entryAddress.isNull()) {
            if (!address.isNull() && address.isEqual(entryAddress))
                return true;
            continue;
        }
        if (entryHost.startsWith(QLatin1String("*.")))
            entryHost = entryHost.mid(1);
        if (entryHost.startsWith(QLatin1Char('.'))) {
            if (host.endsWith(entryHost))
                return true; // ".y.com": subdomains only
        } else if (host == entryHost || host.endsWith(QLatin1Char('.') + entryHost)) {
            return true;
        }
    }
    return false;
}

Result<QNetworkProxy> proxyFor(const QUrl &server, const QString &proxyUrl,
    const ProxyEnvironment &environment, const QString &what)
{
    if (!proxyUrl.isEmpty())
        return toQtProxy(proxyUrl, what);
    const bool https = server.scheme() == QLatin1String("https");
    const QString chosen = https ? environment.httpsProxy : environment.httpProxy;
    const int port = server.port(https ? 443 : 80);
    if (chosen.isEmpty() || isLoopback(server.host())
        || noProxyMatches(environment.noProxy, server.host(), port))
        return QNetworkProxy(QNetworkProxy::NoProxy);
    return toQtProxy(chosen, https ? QStringLiteral("HTTPS_PROXY") : QStringLiteral("HTTP_PROXY"));
}

} // namespace dra::kube
