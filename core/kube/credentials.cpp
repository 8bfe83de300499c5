// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/credentials.h"

#include <QFile>
#include <QFileInfo>
#include <QNetworkRequest>
#include <QPointer>
#include <QSslConfiguration>
#include <QUrl>

#include "core/kube/tls_material.h"

namespace dra::kube {

namespace {

using common::Error;

QByteArray bearer(const QByteArray &token)
{
    return "Bearer " + token;
}

// Credentials that cannot be had (a missing token file, a plugin that is not installed or
// fails) do not appear by retrying the request.
Error permanentError(Error error)
{
    error.permanent = true;
    return error;
}

} // namespace

void AuthMaterial::applyTo(QNetworkRequest &request, QSslConfiguration &tls) const
{
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    if (!clientChain.isEmpty() && clientKey) {
        tls.setLocalCertificateChain(clientChain);
        tls.setPrivateKey(*clientKey);
    }
}

Credentials::Credentials(
    const ClientConfig &config, ExecOptions execOptions, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_config(config)
{
    if (m_config.exec)
        m_exec = new ExecCredentialPlugin(m_config, std::move(execOptions), clock, this);
}

AuthMaterial Credentials::staticMaterial() const
{
    AuthMaterial material;
    if (!m_config.token.isEmpty())
        material.authorization = bearer(m_config.token.toUtf8());
    else if (!m_config.username.isEmpty() || !m_config.password.isEmpty())
        material.authorization = "Basic "
            + (m_config.username + QLatin1Char(':') + m_config.password).toUtf8().toBase64();
    material.clientChain = m_config.clientCertificateChain;
    material.clientKey = m_config.clientKey;
    return material;
}

Result<QByteArray> Credentials::bearerFromTokenFile()
{
    const QFileInfo info(m_config.tokenFile);
    if (!info.exists())
        return fail(Error::Code::Unauthorized,
            QStringLiteral("%1: users[\"%2\"].tokenFile: %3 does not exist")
                .arg(m_config.origin, m_config.user, m_config.tokenFile));
    // Re-read only when the file changed: projected service-account tokens rotate in place.
    if (m_fileToken.isEmpty() || info.lastModified() != m_fileModified
        || info.size() != m_fileSize) {
        QFile file(m_config.tokenFile);
        if (!file.open(QIODevice::ReadOnly))
            return fail(Error::Code::Unauthorized,
                QStringLiteral("%1: users[\"%2\"].tokenFile: cannot read %3: %4")
                    .arg(m_config.origin, m_config.user, m_config.tokenFile, file.errorString()));
        m_fileToken = file.readAll().trimmed();
        m_fileModified = info.lastModified();
        m_fileSize = info.size();
        if (m_fileToken.isEmpty())
            return fail(Error::Code::Unauthorized,
                QStringLiteral("%1: users[\"%2\"].tokenFile: %3 is empty")
                    .arg(m_config.origin, m_config.user, m_config.tokenFile));
    }
    return bearer(m_fileToken);
}

void Credentials::get(QObject *context, Callback done)
{
    AuthMaterial material = staticMaterial();
    if (!m_config.tokenFile.isEmpty()) {
        Result<QByteArray> header = bearerFromTokenFile();
        if (!header) {
            done(fail(permanentError(header.error())));
            return;
        }
        material.authorization = *header;
    }
    if (!m_exec) {
        done(material);
        return;
    }
    m_exec->fetch(context,
        [this, material, done = std::move(done)](const Result<ExecCredential> &credential) mutable {
            if (!credential) {
                // The plugin ran by its own rules (its timeout, its prompts) and gave nothing
                // usable: as with kubectl, asking again at once would fail the same way.
                done(fail(permanentError(credential.error())));
                return;
            }
            if (!credential->token.isEmpty())
                material.authorization = bearer(credential->token.toUtf8());
            if (!credential->clientCertificatePem.isEmpty()) {
                const QString what = QStringLiteral("exec plugin \"%1\" client certificate")
                                         .arg(m_config.exec->command);
                Result<QList<QSslCertificate>> chain
                    = parseCertificates(credential->clientCertificatePem, what);
                Result<QSslKey> key = parsePrivateKey(credential->clientKeyPem, what);
                if (!chain || !key) {
                    done(fail(permanentError(!chain ? chain.error() : key.error())));
                    return;
                }
                material.clientChain = *chain;
                material.clientKey = *key;
            }
            done(material);
        });
}

bool Credentials::invalidate(const AuthMaterial &used)
{
    if (m_exec) {
        m_exec->invalidate();
        return true;
    }
    if (!m_config.tokenFile.isEmpty()) {
        const QByteArray sent = used.authorization;
        m_fileToken.clear(); // read it again; a rotated token may be waiting
        Result<QByteArray> fresh = bearerFromTokenFile();
        return fresh && *fresh != sent;
    }
    return false;
}

HeaderLines Credentials::impersonationHeaders() const
{
    HeaderLines headers;
    if (m_config.impersonateUser.isEmpty())
        return headers;
    headers.emplace_back("Impersonate-User", m_config.impersonateUser.toUtf8());
    if (!m_config.impersonateUid.isEmpty())
        headers.emplace_back("Impersonate-Uid", m_config.impersonateUid.toUtf8());
    for (const QString &group : m_config.impersonateGroups)
        headers.emplace_back("Impersonate-Group", group.toUtf8());
    for (const auto &[key, values] : m_config.impersonateExtra)
        for (const QString &value : values)
            headers.emplace_back(
                "Impersonate-Extra-" + QUrl::toPercentEncoding(key), value.toUtf8());
    return headers;
}

} // namespace dra::kube
