// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <vector>

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrlQuery>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/common/clock.h"
#include "core/kube/credentials.h"

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QSslConfiguration;

namespace dra::kube {

class WatchStream;

// One HTTP request to the API server.
struct RestRequest
{
    QByteArray method = "GET";
    QString path; // "/apis/resource.k8s.io/v1/resourceslices"
    QUrlQuery query;
    QByteArray body;
    QByteArray contentType = "application/json";
    QByteArray accept = "application/json";
    int timeoutMs = 60 * 1000; // no bytes for this long ends the request
};

// A successful (2xx) response.
struct RestResponse
{
    int status = 0;
    QByteArray body;
};

// An answer of any status, as the server sent it.
struct RawResponse
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

struct RestOptions
{
    QByteArray userAgent = "dractl (linux) draconsole";
    ExecOptions exec;
    // Long-lived watches per dedicated connection pool (see RestClient).
    int watchesPerManager = 4;
};

// A client of one cluster over Qt Network: TLS verified against the context's CA (system roots
// when it names none), its credentials and impersonation on every request, gzip, HTTP/2 when the
// server offers it. Qt opens at most six HTTP/1.1 connections per host and manager, so ordinary
// requests use one manager that never carries a watch, and watches share further managers a
// few at a time: a mirror's dozen watches can neither starve each other nor a list.
// Thread of its parent (the kube thread); callbacks run there.
class RestClient final : public QObject
{
    Q_OBJECT
public:
    RestClient(ClientConfig config, RestOptions options = {},
        common::Clock &clock = common::Clock::system(), QObject *parent = nullptr);
    ~RestClient() override;

    using Callback = std::function<void(const Result<RestResponse> &)>;
    static constexpr int kRetryAfterAttempts = 3;
    // Sends `request`; `done` gets the 2xx response, or an Error whose message names the context,
    // the request and the cause (a decoded Status, a TLS or network failure). A 401 is retried
    // once when fresh credentials may help (exec plugin, rotated token file). A 429 or 5xx with
    // a Retry-After is sent again after the wait the server asked for, as client-go does, up to
    // kRetryAfterAttempts times and only while the wait fits the request's timeout; the error
    // that ends it carries the last wait (Error::retryAfterMs) for the caller's backoff. `done`
    // is not called once `context` is gone.
    void send(RestRequest request, QObject *context, Callback done);
    void get(const QString &path, const QUrlQuery &query, QObject *context, Callback done);

    // Sends `request` on behalf of someone else: with `authorization` (their Authorization
    // header, passed through) instead of this client's credentials and impersonation, over
    // connections of its own that never carry this client's certificate, and without retries.
    // `done` gets whatever the server answered, whatever its status; an Error only when no answer
    // came (network, TLS). Not called once `context` is gone.
    void sendAs(RestRequest request, const QByteArray &authorization, QObject *context,
        std::function<void(const Result<RawResponse> &)> done);

    // Opens a watch (`watch=true` is added to `query`); the stream is a child of `parent`.
    WatchStream *watch(const QString &path, QUrlQuery query, int idleTimeoutMs, QObject *parent);

    const ClientConfig &config() const { return m_config; }
    Credentials &credentials() { return *m_credentials; }
    QUrl url(const QString &path, const QUrlQuery &query) const;

    // "context \"prod\" (https://...): GET /apis/...": how errors about `request` begin.
    QString describe(const QByteArray &method, const QString &path) const;

    // For WatchStream: builds the QNetworkRequest for `request` carrying `auth`.
    QNetworkRequest networkRequest(const RestRequest &request, const AuthMaterial &auth);
    // Sends `network` through `manager` with the impersonation headers. When one of them must
    // repeat (several groups, several values of an extra), which a QNetworkRequest cannot carry,
    // the request goes over a connection of its own (RawHttpReply) instead. Either way a TLS
    // verification failure is kept with the reply for networkError().
    QNetworkReply *open(QNetworkAccessManager *manager, QNetworkRequest network,
        const QByteArray &method, const QByteArray &body = {});
    // A manager for one more long-lived stream, and its release.
    QNetworkAccessManager *acquireStreamManager();
    void releaseStreamManager(QNetworkAccessManager *manager);
    // The error for a reply that failed at the network or TLS level; permanent (see
    // FailureClass) when the server's certificate did not verify or the client identity is
    // unusable, and worded then as kubectl words it.
    common::Error networkError(
        QNetworkReply *reply, const QByteArray &method, const QString &path) const;

Q_SIGNALS:
    // Something the user should see: a server Warning header, a kubeconfig warning.
    void warning(const QString &message);

private:
    // What a request has been through: a retry with fresh credentials, waits a server asked for.
    struct Attempt
    {
        bool freshCredentials = false;
        int serverWaits = 0;
    };
    void attempt(RestRequest request, QPointer<QObject> context, Callback done, Attempt tried);
    // `request` as every request starts: URL, headers, HTTP/2, and TLS verification in `tls`;
    // no credentials.
    QNetworkRequest plainRequest(const RestRequest &request, QSslConfiguration &tls) const;
    QNetworkAccessManager *newManager();

    ClientConfig m_config;
    RestOptions m_options;
    common::Clock &m_clock;
    Credentials *m_credentials;
    QNetworkAccessManager *m_manager;
    QNetworkAccessManager *m_passThrough = nullptr; // sendAs(): other users' requests
    struct StreamManager
    {
        QNetworkAccessManager *manager;
        int streams = 0;
    };
    std::vector<StreamManager> m_streamManagers;
    QByteArray
        m_lastIdentity; // the client certificate last used, to drop pooled connections on change
};

} // namespace dra::kube
