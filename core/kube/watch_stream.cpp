// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/watch_stream.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include "core/kube/api_status.h"
#include "core/kube/failure_class.h"

namespace dra::kube {

using common::Error;

WatchStream::WatchStream(RestClient &client, RestRequest request, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_request(std::move(request))
{
    m_manager = m_client.acquireStreamManager();
    QTimer::singleShot(0, this, [this] { start(false); });
}

WatchStream::~WatchStream()
{
    abort();
    m_client.releaseStreamManager(m_manager);
}

void WatchStream::abort()
{
    m_done = true;
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
}

void WatchStream::start(bool retried)
{
    m_retried = retried;
    m_client.credentials().get(this, [this](const Result<AuthMaterial> &auth) {
        if (m_done)
            return;
        if (!auth) {
            const Error error
                = auth.error().withContext(m_client.describe(m_request.method, m_request.path));
            finishWith(&error);
            return;
        }
        m_auth = *auth;
        m_reply = m_client.open(m_manager, m_client.networkRequest(m_request, m_auth), "GET");
        // A quiet watch sends headers and nothing else for minutes: the stream is open as soon as
        // they arrive, not with the first event.
        connect(m_reply, &QNetworkReply::metaDataChanged, this, &WatchStream::onMetaData);
        connect(m_reply, &QNetworkReply::readyRead, this, &WatchStream::onReadyRead);
        connect(m_reply, &QNetworkReply::finished, this, &WatchStream::onFinished);
    });
}

void WatchStream::onMetaData()
{
    if (m_opened || m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return;
    m_opened = true;
    Q_EMIT opened();
}

void WatchStream::onReadyRead()
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200)
        return; // an error body, read whole in onFinished()
    if (!m_opened) {
        onMetaData();
        if (m_done)
            return;
    }
    m_parser.feed(m_reply->readAll());
    std::vector<WatchEvent> batch;
    std::optional<Error> problem;
    for (Result<WatchEvent> &event : m_parser.takeEvents()) {
        if (!event) {
            problem
                = event.error().withContext(m_client.describe(m_request.method, m_request.path));
            break;
        }
        if (event->type == WatchEvent::Type::Error) {
            problem = statusObjectError(
                event->object, m_client.describe(m_request.method, m_request.path));
            break;
        }
        batch.push_back(std::move(*event));
    }
    QPointer<WatchStream> self(this);
    if (!batch.empty())
        Q_EMIT events(batch);
    if (self && problem && !m_done) {
        abort();
        m_done = false; // let finishWith() report it
        finishWith(&*problem);
    }
}

void WatchStream::onFinished()
{
    if (m_done || !m_reply)
        return;
    QNetworkReply *reply = m_reply;
    const QVariant statusAttribute = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (statusAttribute.isValid() && statusAttribute.toInt() == 200) {
        onReadyRead(); // whatever arrived with the end
        if (m_done)
            return;
        if (reply->error() == QNetworkReply::NoError
            || reply->error() == QNetworkReply::RemoteHostClosedError) {
            m_reply = nullptr;
            reply->deleteLater();
            finishWith(nullptr);
            return;
        }
    }
    Error error;
    if (!statusAttribute.isValid() || statusAttribute.toInt() == 200) {
        error = m_client.networkError(reply, m_request.method, m_request.path);
    } else {
        const int status = statusAttribute.toInt();
        if (status == 401 && !m_retried && m_client.credentials().invalidate(m_auth)) {
            reply->disconnect(this);
            reply->deleteLater();
            m_reply = nullptr;
            start(true);
            return;
        }
        error = statusError(
            status, reply->readAll(), m_client.describe(m_request.method, m_request.path));
        error.permanent = classifyHttpStatus(status) == FailureClass::Permanent;
        // The watch is not sent again here: the reflector waits at least this long.
        if (const int64_t wait
            = retryAfterMs(reply->rawHeader("Retry-After"), QDateTime::currentMSecsSinceEpoch()))
            error.retryAfterMs = wait;
    }
    reply->disconnect(this);
    reply->deleteLater();
    m_reply = nullptr;
    finishWith(&error);
}

void WatchStream::finishWith(const Error *error)
{
    if (m_done)
        return;
    m_done = true;
    if (error)
        Q_EMIT failed(*error);
    else
        Q_EMIT ended();
}

} // namespace dra::kube
