// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <vector>

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QStringList>

#include "core/common/result.h"

namespace dra::server {

// Who a verified client certificate says the client is, as kube-apiserver reads it: the user
// is the subject's CN, the groups its O entries.
struct ClientIdentity
{
    QString user;
    QStringList groups;
};

// The CA bundle of --client-ca: client certificates it signed authenticate their holder.
// Immutable once loaded; any thread.
class ClientCertificateAuthority final
{
public:
    ~ClientCertificateAuthority();
    ClientCertificateAuthority(ClientCertificateAuthority &&) noexcept;

    // Reads a PEM bundle of one or more CA certificates; errors name the file.
    [[nodiscard]] static Result<ClientCertificateAuthority> load(const QString &path);
    [[nodiscard]] static Result<ClientCertificateAuthority> fromPem(
        const QByteArray &pem, const QString &origin);

    // Verifies a chain a client presented (DER, leaf first) against the CA bundle, for client
    // authentication, now; Unauthorized with the reason otherwise.
    [[nodiscard]] Result<ClientIdentity> verify(const std::vector<QByteArray> &chain) const;

    // The CA certificates, for the TLS configuration (the acceptable CAs a server names).
    QList<QSslCertificate> certificates() const;

private:
    struct Impl;
    explicit ClientCertificateAuthority(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace dra::server
