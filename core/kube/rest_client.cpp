// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/rest_client.h"

#include <QCryptographicHash>
#include <QHttp2Configuration>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>

#include "core/common/logging.h"
#include "core/kube/api_status.h"
#include "core/kube/failure_class.h"
#include "core/kube/raw_http_reply.h"
#include "core/kube/watch_stream.h"

namespace dra::kube {

namespace {

using common::Error;

// Where open() keeps a reply's TLS verification failure, worded for the user.
constexpr const char *kTlsFailureProperty = "draTlsFailure";

QByteArray identityOf(const AuthMaterial &auth)
{
    return auth.clientChain.isEmpty() ? QByteArray()
                                      : auth.clientChain.first().digest(QCryptographicHash::Sha256);
}

// Keeps a TLS verification failure of `reply`, worded for the user, for networkError().
void keepTlsFailure(QNetworkReply *reply, const ClientConfig &config)
{
    const QString verifiedName
        = config.tlsServerName.isEmpty() ? config.server.host() : config.tlsServerName;
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
        [reply, verifiedName](const QList<QSslError> &errors) {
            reply->setProperty(kTlsFailureProperty, describeTlsFailure(errors, verifiedName));
        });
}

} // namespace

RestClient::RestClient(
    ClientConfig config, RestOptions options, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_options(std::move(options))
    , m_clock(clock)
    , m_credentials(new Credentials(m_config, m_options.exec, clock, this))
    , m_manager(newManager())
{
}

RestClient::~RestClient() = default;

QNetworkAccessManager *RestClient::newManager()
{
    auto *manager = new QNetworkAccessManager(this);
    manager->setProxy(m_config.proxy); // explicit, so no application-wide proxy factory applies
    manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    manager->setStrictTransportSecurityEnabled(false);
    return manager;
}

QNetworkAccessManager *RestClient::acquireStreamManager()
{
    for (StreamManager &entry : m_streamManagers) {
        if (entry.streams < m_options.watchesPerManager) {
            ++entry.streams;
            return entry.manager;
        }
    }
    m_streamManagers.push_back(StreamManager { newManager(), 1 });
    return m_streamManagers.back().manager;
}

void RestClient::releaseStreamManager(QNetworkAccessManager *manager)
{
    for (StreamManager &entry : m_streamManagers) {
        if (entry.manager == manager && entry.streams > 0)
            --entry.streams;
    }
}

QUrl RestClient::url(const QString &path, const QUrlQuery &query) const
{
    QUrl url = m_config.server;
    QString base = url.path();
    if (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path);
    if (!query.isEmpty())
        url.setQuery(query);
    return url;
}

QString RestClient::describe(const QByteArray &method, const QString &path) const
{
    return QStringLiteral("%1: %2 %3").arg(m_config.describe(), QString::fromLatin1(method), path);
}

QNetworkRequest RestClient::plainRequest(const RestRequest &request, QSslConfiguration &tls) const
{
    QNetworkRequest out(url(request.path, request.query));
    out.setRawHeader("Accept", request.accept);
    out.setRawHeader("User-Agent", m_options.userAgent);
    if (!request.body.isEmpty())
        out.setHeader(QNetworkRequest::ContentTypeHeader, request.contentType);
    // Qt adds Accept-Encoding: gzip and inflates transparently unless told otherwise.
    if (m_config.disableCompression)
        out.setRawHeader("Accept-Encoding", "identity");
    out.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    QHttp2Configuration h2;
    // Large lists over HTTP/2 would crawl at the protocol's 64 KiB default window.
    h2.setSessionReceiveWindowSize(64 * 1024 * 1024);
    h2.setStreamReceiveWindowSize(16 * 1024 * 1024);
    out.setHttp2Configuration(h2);
    out.setTransferTimeout(request.timeoutMs);

    tls = QSslConfiguration::defaultConfiguration();
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    if (!m_config.caCertificates.isEmpty())
        tls.setCaCertificates(m_config.caCertificates); // the cluster's CA only, as kubectl does
    if (m_config.insecureSkipTlsVerify)
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    if (!m_config.tlsServerName.isEmpty())
        out.setPeerVerifyName(m_config.tlsServerName);
    return out;
}

QNetworkRequest RestClient::networkRequest(const RestRequest &request, const AuthMaterial &auth)
{
    QSslConfiguration tls;
    QNetworkRequest out = plainRequest(request, tls);
    auth.applyTo(out, tls);
    out.setSslConfiguration(tls);

    // Qt pools connections by host and port, not by client certificate: after an exec plugin
    // hands out a new certificate, idle connections made with the old one must not be reused.
    const QByteArray identity = identityOf(auth);
    if (identity != m_lastIdentity) {
        if (!m_lastIdentity.isEmpty()) {
            m_manager->clearConnectionCache();
            for (StreamManager &entry : m_streamManagers)
                entry.manager->clearConnectionCache();
        }
        m_lastIdentity = identity;
    }
    return out;
}

void RestClient::sendAs(RestRequest request, const QByteArray &authorization, QObject *context,
    std::function<void(const Result<RawResponse> &)> done)
{
    // A manager of its own: its connections never carry this client's certificate, so the
    // cluster authenticates the caller's token and nothing else.
    if (!m_passThrough)
        m_passThrough = newManager();
    QSslConfiguration tls;
    QNetworkRequest network = plainRequest(request, tls);
    network.setSslConfiguration(tls);
    if (!authorization.isEmpty())
        network.setRawHeader("Authorization", authorization);
    QNetworkReply *reply = m_passThrough->sendCustomRequest(network, request.method, request.body);
    keepTlsFailure(reply, m_config);
    connect(reply, &QNetworkReply::finished, this,
        [this, reply, method = request.method, path = request.path, context = QPointer(context),
            done = std::move(done)] {
            reply->deleteLater();
            if (!context)
                return;
            const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
            if (!status.isValid()) {
                done(fail(networkError(reply, method, path)));
                return;
            }
            done(RawResponse { status.toInt(),
                reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(),
                reply->readAll() });
        });
}

QNetworkReply *RestClient::open(QNetworkAccessManager *manager, QNetworkRequest network,
    const QByteArray &method, const QByteArray &body)
{
    HeaderLines impersonation = m_credentials->impersonationHeaders();
    QNetworkReply *reply = nullptr;
    if (repeatsAName(impersonation)) {
        reply = new RawHttpReply(
            network, method, body, std::move(impersonation), m_config.proxy, manager);
    } else {
        for (const auto &[name, value] : impersonation)
            network.setRawHeader(name, value);
        reply = manager->sendCustomRequest(network, method, body);
    }
    keepTlsFailure(reply, m_config);
    return reply;
}

Error RestClient::networkError(
    QNetworkReply *reply, const QByteArray &method, const QString &path) const
{
    QString cause = reply->errorString();
    const bool permanent = classifyNetworkFailure(reply->error()) == FailureClass::Permanent;
    if (reply->error() == QNetworkReply::OperationCanceledError
        || reply->error() == QNetworkReply::TimeoutError)
        cause = QStringLiteral("no answer in time (%1)").arg(cause);
    else if (const QString tls = reply->property(kTlsFailureProperty).toString(); !tls.isEmpty())
        cause = QStringLiteral("unable to connect to the server: ") + tls;
    else if (permanent)
        cause = QStringLiteral("unable to connect to the server: ") + cause;
    return Error { Error::Code::Network, describe(method, path) + QStringLiteral(": ") + cause,
        permanent };
}

void RestClient::send(RestRequest request, QObject *context, Callback done)
{
    attempt(std::move(request), QPointer<QObject>(context), std::move(done), {});
}

void RestClient::get(const QString &path, const QUrlQuery &query, QObject *context, Callback done)
{
    RestRequest request;
    request.path = path;
    request.query = query;
    send(std::move(request), context, std::move(done));
}

void RestClient::attempt(
    RestRequest request, QPointer<QObject> context, Callback done, Attempt tried)
{
    m_credentials->get(this,
        [this, request = std::move(request), context, done = std::move(done), tried](
            const Result<AuthMaterial> &auth) mutable {
            if (!context)
                return;
            if (!auth) {
                done(fail(auth.error().withContext(describe(request.method, request.path))));
                return;
            }
            const QNetworkRequest network = networkRequest(request, *auth);
            QNetworkReply *reply = open(m_manager, network, request.method, request.body);
            connect(reply, &QNetworkReply::finished, this,
                [this, reply, request = std::move(request), context, done = std::move(done), tried,
                    used = *auth]() mutable {
                    reply->deleteLater();
                    if (!context)
                        return;
                    const QVariant statusAttribute
                        = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
                    if (!statusAttribute.isValid()) {
                        done(fail(networkError(reply, request.method, request.path)));
                        return;
                    }
                    const int status = statusAttribute.toInt();
                    for (const QByteArray &warning : reply->rawHeader("Warning").split(','))
                        if (!warning.trimmed().isEmpty())
                            Q_EMIT this->warning(m_config.describe() + QStringLiteral(": ")
                                + QString::fromUtf8(warning.trimmed()));
                    const QByteArray body = reply->readAll();
                    if (status == 401 && !tried.freshCredentials
                        && m_credentials->invalidate(used)) {
                        qCInfo(lcKube) << "401 from" << m_config.context
                                       << "- retrying with fresh credentials";
                        tried.freshCredentials = true;
                        attempt(std::move(request), context, std::move(done), tried);
                        return;
                    }
                    if (status < 200 || status >= 300) {
                        Error error
                            = statusError(status, body, describe(request.method, request.path));
                        error.permanent = classifyHttpStatus(status) == FailureClass::Permanent;
                        if (const int64_t wait
                            = retryAfterMs(reply->rawHeader("Retry-After"), m_clock.nowMs()))
                            error.retryAfterMs = wait;
                        if ((status == 429 || status >= 500) && error.retryAfterMs > 0
                            && tried.serverWaits < kRetryAfterAttempts
                            && error.retryAfterMs <= request.timeoutMs) {
                            qCInfo(lcKube).noquote()
                                << describe(request.method, request.path) << "- HTTP" << status
                                << ", trying again in" << error.retryAfterMs
                                << "ms as the server asked (Retry-After)";
                            ++tried.serverWaits;
                            m_clock.callLater(error.retryAfterMs, this,
                                [this, request = std::move(request), context,
                                    done = std::move(done), tried]() mutable {
                                    if (context)
                                        attempt(
                                            std::move(request), context, std::move(done), tried);
                                });
                            return;
                        }
                        done(fail(std::move(error)));
                        return;
                    }
                    done(RestResponse { status, body });
                });
        });
}

WatchStream *RestClient::watch(
    const QString &path, QUrlQuery query, int idleTimeoutMs, QObject *parent)
{
    query.addQueryItem(QStringLiteral("watch"), QStringLiteral("true"));
    RestRequest request;
    request.path = path;
    request.query = query;
    request.timeoutMs = idleTimeoutMs;
    return new WatchStream(*this, std::move(request), parent);
}

} // namespace dra::kube
