// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/failure_class.h"

#include <QDateTime>
#include <QSslCertificate>

#include <gtest/gtest.h>

#include "core/kube/api_status.h"
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

TEST(RetryAfterTest, SecondsAndHttpDatesAreWaitsAndNonsenseIsNone)
{
    const int64_t now = QDateTime(QDate(2026, 12, 2), QTime(15, 30), Qt::UTC).toMSecsSinceEpoch();
    EXPECT_EQ(retryAfterMs("3", now), 3000);
    EXPECT_EQ(retryAfterMs(" 120 ", now), 120'000);
    EXPECT_EQ(retryAfterMs("Wed, 02 Dec 2026 15:30:05 GMT", now), 5000);
    EXPECT_EQ(retryAfterMs("Wed, 02 Dec 2026 15:29:00 GMT", now), 0) << "a date already past";
    EXPECT_EQ(retryAfterMs("0", now), 0);
    EXPECT_EQ(retryAfterMs("-4", now), 0);
    EXPECT_EQ(retryAfterMs("soon", now), 0);
    EXPECT_EQ(retryAfterMs("", now), 0);
    // A server cannot park a client for a day.
    EXPECT_EQ(retryAfterMs("86400", now), kMaxRetryAfterMs);
}

TEST(RetryAfterTest, AStatusSaysHowLongToWaitInItsDetails)
{
    const common::Error error = statusError(429,
        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"too many requests",
            "reason":"TooManyRequests","details":{"retryAfterSeconds":7},"code":429})",
        QStringLiteral("GET /apis"));
    EXPECT_EQ(error.code, common::Error::Code::Busy);
    EXPECT_EQ(error.retryAfterMs, 7000);
    EXPECT_EQ(statusError(503, "busy", QStringLiteral("GET /apis")).retryAfterMs, 0);
}

} // namespace
} // namespace dra::kube
