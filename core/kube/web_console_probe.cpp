// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/web_console_probe.h"

#include <algorithm>

#include <QRegularExpression>

#include "core/kube/rest_client.h"

namespace dra::kube {

namespace {
constexpr auto kConsolePath = "/ui/";
} // namespace

bool isWebConsolePage(QByteArrayView html)
{
    // Attribute order and quoting as any HTML writer may choose; only the page's head matters.
    static const QRegularExpression meta(
        QStringLiteral(R"(<meta\s+name=["']?application-name["']?\s+content=["']DRA Console["'])"),
        QRegularExpression::CaseInsensitiveOption);
    const QByteArrayView head = html.first(std::min<qsizetype>(html.size(), 4096));
    return meta.match(QString::fromUtf8(head)).hasMatch();
}

void probeWebConsole(
    RestClient &client, QObject *context, std::function<void(const std::optional<QUrl> &)> done)
{
    RestRequest request;
    request.path = QString::fromLatin1(kConsolePath);
    request.accept = "text/html";
    request.timeoutMs = 15 * 1000;
    const QUrl console = client.url(request.path, {});
    client.send(std::move(request), context,
        [console, done = std::move(done)](const Result<RestResponse> &response) {
            if (response && isWebConsolePage(response->body))
                done(console);
            else
                done(std::nullopt);
        });
}

QUrl webConsoleLink(const QUrl &console, const ClientConfig &client, const QString &route)
{
    QUrl link = console;
    QString fragment = route;
    // Every byte but the unreserved ones escaped: the page reads the fragment's parameters as
    // URLSearchParams does, which would turn a '+' of the token into a space.
    if (!client.token.isEmpty())
        fragment += QStringLiteral("?token=")
            + QString::fromLatin1(QUrl::toPercentEncoding(client.token));
    link.setFragment(fragment);
    return link;
}

} // namespace dra::kube
