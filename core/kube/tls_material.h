// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include "core/common/result.h"

namespace dra::kube {

// Certificates of a PEM bundle (a CA file, a client certificate chain). `what` names the
// source in errors: "FILE: users[\"dev\"].client-certificate-data".
[[nodiscard]] Result<QList<QSslCertificate>> parseCertificates(
    const QByteArray &pem, const QString &what);

// A PEM private key of any form kubectl accepts for RSA and EC (PKCS#1, SEC1, PKCS#8), read with
// OpenSSL and handed to Qt in the form its TLS backend loads.
[[nodiscard]] Result<QSslKey> parsePrivateKey(const QByteArray &pem, const QString &what);

// Fails unless `keyPem` is the private key of the first certificate of `certificatePem`.
[[nodiscard]] Result<void> checkKeyMatchesCertificate(
    const QByteArray &certificatePem, const QByteArray &keyPem, const QString &what);

} // namespace dra::kube
