// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// One HTTP request to a test server over TLS with its self-signed certificate, waited for in
// a local event loop: what the tests of `dractl serve` and its web console send.
#pragma once

#include <QByteArray>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace dra::test {

struct TlsReply
{
    int status = 0; // 0 when no HTTP answer came
    QByteArray contentType;
    QByteArray body;
    QByteArray policy; // Content-Security-Policy
};

inline TlsReply sendOverTls(QNetworkAccessManager &network, const QNetworkRequest &request,
    const QByteArray &verb = "GET", const QByteArray &body = {})
{
    QNetworkReply *reply = network.sendCustomRequest(request, verb, body);
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
        [reply](const QList<QSslError> &) { reply->ignoreSslErrors(); });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    TlsReply result { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
        reply->rawHeader("Content-Type"), reply->readAll(),
        reply->rawHeader("Content-Security-Policy") };
    reply->deleteLater();
    return result;
}

} // namespace dra::test
