// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QObject>
#include <QPointer>

#include "core/common/error.h"
#include "core/kube/credentials.h"
#include "core/kube/rest_client.h"
#include "core/kube/watch_stream_parser.h"

class QNetworkAccessManager;
class QNetworkReply;

namespace dra::kube {

// One open watch request: events as they arrive, then one ending. Made by RestClient::watch();
// it starts on the next event-loop turn, so connect first. Thread of its client.
class WatchStream final : public QObject
{
    Q_OBJECT
public:
    WatchStream(RestClient &client, RestRequest request, QObject *parent = nullptr);
    ~WatchStream() override;

    // Stops the stream; no signal follows.
    void abort();

Q_SIGNALS:
    // The server accepted the watch (HTTP 200).
    void opened();
    // Events parsed from one read, in order. A malformed event ends the stream with failed().
    void events(const std::vector<dra::kube::WatchEvent> &events);
    // The server ended the stream normally (timeoutSeconds reached, or it went away cleanly).
    void ended();
    // The watch failed: an HTTP error (Status decoded; Gone for 410), a network or TLS error, or
    // an unreadable event. Exactly one of ended() and failed() is emitted.
    void failed(const dra::common::Error &error);

private:
    void start(bool retried);
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void finishWith(const common::Error *error);

    RestClient &m_client;
    RestRequest m_request;
    QNetworkAccessManager *m_manager = nullptr;
    QPointer<QNetworkReply> m_reply;
    AuthMaterial m_auth;
    WatchStreamParser m_parser;
    bool m_opened = false;
    bool m_done = false;
    bool m_retried = false;
};

} // namespace dra::kube
