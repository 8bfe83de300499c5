// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QNetworkProxy>
#include <QString>
#include <QUrl>

#include "core/common/result.h"

namespace dra::kube {

// The proxy variables of an environment, as Go's net/http reads them (upper case first).
struct ProxyEnvironment
{
    QString httpsProxy; // HTTPS_PROXY / https_proxy
    QString httpProxy; // HTTP_PROXY / http_proxy
    QString noProxy; // NO_PROXY / no_proxy

    static ProxyEnvironment fromProcess();
};

// The proxy for requests to `server`, as kubectl chooses it: the cluster's proxy-url when set
// (http://, socks5://), else HTTPS_PROXY for https servers (HTTP_PROXY for http ones) unless
// NO_PROXY matches or the host is localhost or a loopback address. NoProxy when none applies.
// `what` names the proxy-url field in errors. https:// proxies (TLS to the proxy itself) are
// not supported by Qt Network and are an error saying so.
[[nodiscard]] Result<QNetworkProxy> proxyFor(const QUrl &server, const QString &proxyUrl,
    const ProxyEnvironment &environment, const QString &what);

// Whether NO_PROXY excludes `host` (and `port`): "*", domains (with subdomains; a leading dot
// means subdomains only), IP addresses and CIDR ranges, each optionally with ":port".
bool noProxyMatches(const QString &noProxy, const QString &host, int port);

} // namespace dra::kube
