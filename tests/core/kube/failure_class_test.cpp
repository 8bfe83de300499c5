// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/failure_class.h"

#include <QSslCertificate>

#include <gtest/gtest.h>

#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace {

TEST(FailureClassTest, AFailedTlsHandshakeIsPermanent)
{
    EXPECT_EQ(
        classifyNetworkFailure(QNetworkReply::SslHandshakeFailedError), FailureClass::Permanent);
}

TEST(FailureClassTest, TheNetworkPathFailingIsTransient)
{
    for (QNetworkReply::NetworkError error : { QNetworkReply::ConnectionRefusedError,
             QNetworkReply::RemoteHostClosedError, QNetworkReply::HostNotFoundError,
             QNetworkReply::TimeoutError, QNetworkReply::OperationCanceledError,
             QNetworkReply::TemporaryNetworkFailureError, QNetworkReply::NetworkSessionFailedError,
             QNetworkReply::ProxyConnectionRefusedError, QNetworkReply::UnknownNetworkError })
        EXPECT_EQ(classifyNetworkFailure(error), FailureClass::Transient) << int(error);
}

TEST(FailureClassTest, RefusedCredentialsArePermanentAndBusyOrFailingServersTransient)
{
    EXPECT_EQ(classifyHttpStatus(401), FailureClass::Permanent);
    for (int status : { 408, 429, 500, 502, 503, 504 })
        EXPECT_EQ(classifyHttpStatus(status), FailureClass::Transient) << status;
    // Answered by their callers: RBAC falls back to namespaces, 404 runs discovery again.
    EXPECT_EQ(classifyHttpStatus(403), FailureClass::Transient);
    EXPECT_EQ(classifyHttpStatus(404), FailureClass::Transient);
}

TEST(FailureClassTest, TlsFailuresAreWordedAsKubectlWordsThem)
{
    const QSslCertificate server(test::TestCluster::serverPem().certificate);
    const QString mismatch = describeTlsFailure(
        { QSslError(QSslError::HostNameMismatch, server) }, QStringLiteral("api.example"));
    EXPECT_TRUE(mismatch.startsWith(QStringLiteral("tls: failed to verify certificate: x509: "
                                                   "certificate is valid for ")))
        << mismatch.toStdString();
    EXPECT_TRUE(mismatch.contains(QStringLiteral("localhost"))) << mismatch.toStdString();
    EXPECT_TRUE(mismatch.contains(QStringLiteral(", not api.example"))) << mismatch.toStdString();

    const QString untrusted
        = describeTlsFailure({ QSslError(QSslError::UnableToGetLocalIssuerCertificate, server),
                                 QSslError(QSslError::CertificateUntrusted, server) },
            QStringLiteral("127.0.0.1"));
    EXPECT_TRUE(untrusted.contains(QStringLiteral("x509: certificate signed by unknown authority")))
        << untrusted.toStdString();
    // A wrong name is what the user must fix first, whatever order the checks came in.
    const QString both = describeTlsFailure({ QSslError(QSslError::CertificateUntrusted, server),
                                                QSslError(QSslError::HostNameMismatch, server) },
        QStringLiteral("api.example"));
    EXPECT_TRUE(both.contains(QStringLiteral("not api.example"))) << both.toStdString();
}

} // namespace
} // namespace dra::kube
