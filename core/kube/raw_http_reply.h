// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <utility>
#include <vector>

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>

class QTcpSocket;
class QTimer;

namespace dra::kube {

// Header lines in the order they are sent; a name may repeat.
using HeaderLines = std::vector<std::pair<QByteArray, QByteArray>>;

// True when some name appears more than once in `headers` (case-insensitive).
bool repeatsAName(const HeaderLines &headers);

// One HTTP/1.1 request over its own connection (TLS as `request`'s QSslConfiguration and peer
// verify name say), for what QNetworkAccessManager cannot send: a header repeated, as
// kube-apiserver wants one Impersonate-Group line per group. Behaves as the managers' replies do
// for RestClient and WatchStream: status and headers as attributes, metaDataChanged, readyRead
// with the (de-chunked) body as it arrives, sslErrors then SslHandshakeFailedError when the
// server's certificate does not verify, finished once. No compression, no redirects, one
// request per connection. Thread of its parent.
class RawHttpReply final : public QNetworkReply
{
    Q_OBJECT
public:
    RawHttpReply(const QNetworkRequest &request, const QByteArray &method, const QByteArray &body,
        HeaderLines extraHeaders, const QNetworkProxy &proxy, QObject *parent = nullptr);
    ~RawHttpReply() override;

    void abort() override;
    qint64 bytesAvailable() const override;
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *data, qint64 maxSize) override;

private:
    void sendRequest();
    void onReadyRead();
    void onDisconnected();
    void onSocketError();
    void parseHead();
    void parseBody();
    void deliver(const QByteArray &bytes);
    void complete();
    void failWith(NetworkError code, const QString &message);
    void restartTimeout();

    QByteArray m_method, m_body;
    HeaderLines m_extraHeaders;
    QTcpSocket *m_socket = nullptr;
    QTimer *m_timeout = nullptr;
    QByteArray m_incoming; // raw bytes not parsed yet
    QByteArray m_buffer; // body bytes not read yet
    enum class Stage { Head, Body, Done } m_stage = Stage::Head;
    enum class Framing { Length, Chunked, UntilClose } m_framing = Framing::UntilClose;
    qint64 m_remaining = 0; // of the Content-Length body, or of the current chunk
    bool m_inChunk = false; // inside a chunk's data (else at a size line or the trailer)
    bool m_inTrailer = false;
};

} // namespace dra::kube
