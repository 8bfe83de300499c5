// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/failure_class.h"

#include <QSslCertificate>
#include <QStringList>

namespace dra::kube {

namespace {

// The names a certificate is valid for, as Go lists them in "certificate is valid for ...".
QStringList certificateNames(const QSslCertificate &certificate)
{
    QStringList names;
    const auto alternatives = certificate.subjectAlternativeNames();
    for (auto it = alternatives.cbegin(); it != alternatives.cend(); ++it)
        names.append(it.value());
    if (names.isEmpty())
        names = certificate.subjectInfo(QSslCertificate::CommonName);
    return names;
}

QString x509Reason(const QSslError &error, const QString &verifiedName)
{
    switch (error.error()) {
    case QSslError::HostNameMismatch: {
        const QStringList names = certificateNames(error.certificate());
        if (names.isEmpty())
            return QStringLiteral("x509: certificate is not valid for %1").arg(verifiedName);
        return QStringLiteral("x509: certificate is valid for %1, not %2")
            .arg(names.join(QStringLiteral(", ")), verifiedName);
    }
    case QSslError::UnableToGetIssuerCertificate:
    case QSslError::UnableToGetLocalIssuerCertificate:
    case QSslError::UnableToVerifyFirstCertificate:
    case QSslError::SelfSignedCertificate:
    case QSslError::SelfSignedCertificateInChain:
    case QSslError::CertificateUntrusted:
    case QSslError::CertificateRejected:
    case QSslError::CertificateSignatureFailed:
        return QStringLiteral("x509: certificate signed by unknown authority");
    case QSslError::CertificateExpired:
    case QSslError::CertificateNotYetValid:
        return QStringLiteral("x509: certificate has expired or is not yet valid");
    default:
        return QStringLiteral("x509: certificate not accepted");
    }
}

} // namespace

FailureClass classifyNetworkFailure(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::SslHandshakeFailedError:
        return FailureClass::Permanent;
    default:
        return FailureClass::Transient;
    }
}

FailureClass classifyHttpStatus(int status)
{
    return status == 401 ? FailureClass::Permanent : FailureClass::Transient;
}

QString describeTlsFailure(const QList<QSslError> &errors, const QString &verifiedName)
{
    if (errors.isEmpty())
        return QStringLiteral("tls: handshake failed");
    // Go reports one reason; a name mismatch is what the user most needs to hear, then trust.
    const QSslError *chosen = &errors.first();
    for (const QSslError &error : errors)
        if (error.error() == QSslError::HostNameMismatch)
            chosen = &error;
    QStringList details;
    for (const QSslError &error : errors)
        details.append(error.errorString());
    details.removeDuplicates();
    return QStringLiteral("tls: failed to verify certificate: %1 (%2)")
        .arg(x509Reason(*chosen, verifiedName), details.join(QStringLiteral("; ")));
}

} // namespace dra::kube
