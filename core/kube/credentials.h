// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QSslKey>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/common/clock.h"
#include "core/kube/exec_credential.h"
#include "core/kube/raw_http_reply.h"

class QNetworkRequest;
class QSslConfiguration;

namespace dra::kube {

// What one request carries to authenticate: headers and a TLS client identity. In memory only.
struct AuthMaterial
{
    QByteArray authorization; // the Authorization header value, or empty
    QList<QSslCertificate> clientChain;
    std::optional<QSslKey> clientKey;

    // Sets the Authorization header on `request` and the client identity on `tls`.
    void applyTo(QNetworkRequest &request, QSslConfiguration &tls) const;
};

// The credentials of one ClientConfig: static token, tokenFile (re-read whenever the file
// changes), username/password, client certificate, or an exec plugin (cached until it
// expires, run again after a 401). Impersonation headers are added to every request. Thread of
// its parent.
class Credentials final : public QObject
{
    Q_OBJECT
public:
    Credentials(const ClientConfig &config, ExecOptions execOptions, common::Clock &clock,
        QObject *parent = nullptr);

    using Callback = std::function<void(const Result<AuthMaterial> &)>;
    // Calls `done` with what the next request should carry; at once, or after an exec plugin
    // ran. Not called once `context` is gone.
    void get(QObject *context, Callback done);
    // The server answered 401 to a request that carried `used`: forget cached credentials.
    // True when trying again may help (a new exec credential or token file contents).
    bool invalidate(const AuthMaterial &used);
    // Impersonate-User / -Uid, one Impersonate-Group line per group and one
    // Impersonate-Extra-<key> line per value (kubectl's --as, --as-uid, --as-group repeated):
    // kube-apiserver reads each line as one value, so lists are never joined into one line.
    HeaderLines impersonationHeaders() const;

    ExecCredentialPlugin *execPlugin() const { return m_exec; }

private:
    Result<QByteArray> bearerFromTokenFile();
    AuthMaterial staticMaterial() const;

    ClientConfig m_config;
    ExecCredentialPlugin *m_exec = nullptr;
    // tokenFile contents and the file state they were read at.
    QByteArray m_fileToken;
    QDateTime m_fileModified;
    qint64 m_fileSize = -1;
};

} // namespace dra::kube
