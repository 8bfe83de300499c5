// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The paths `dractl serve --demo --test-hooks` adds to the served API (the demo's fault
// endpoint and service proxy, the test hooks) want the token as every other path does, over
// the real binary's TLS; with --no-auth they answer without it.
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSslError>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"
#include "tests/support/tls_request.h"

namespace dra::test::serve_auth {
namespace {

constexpr const char *kToken = "tok-auth-test-0f1e2d3c4b5a69788796a5b4c3d2e1f0";

using Sent = TlsReply;

Sent send(QNetworkAccessManager &network, const QUrl &url, const QByteArray &verb,
    const QByteArray &authorization)
{
    QNetworkRequest request(url);
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    const QByteArray body = verb == "POST" ? QByteArray(R"({"kind":"crash"})") : QByteArray();
    return sendOverTls(network, request, verb, body);
}

// `dractl serve --demo --test-hooks` with `auth` (--token-file F or --no-auth); its base URL,
// or an empty one when it did not start.
class Server
{
public:
    Server(const QString &dir, const QStringList &auth)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir + QStringLiteral("/config"));
        m_process.setProcessEnvironment(environment);
        m_process.start(QStringLiteral(DRACTL_PATH),
            QStringList { QStringLiteral("serve"), QStringLiteral("--demo"),
                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                QStringLiteral("--test-hooks") }
                + auth);
        while (!m_out.contains("rollouts:") && m_process.state() != QProcess::NotRunning
            && m_process.waitForReadyRead(120'000))
            m_out += m_process.readAllStandardOutput();
        const QRegularExpressionMatch at
            = QRegularExpression(QStringLiteral("Serving .* at (https://\\S+)\\n"))
                  .match(QString::fromUtf8(m_out));
        if (at.hasMatch())
            m_base = at.captured(1);
    }
    ~Server()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(30'000))
            m_process.kill();
        m_process.waitForFinished(5'000);
    }
    QString base() const { return m_base; }
    std::string diagnostics()
    {
        return QByteArray(m_out + m_process.readAllStandardError()).toStdString();
    }

private:
    QProcess m_process;
    QByteArray m_out;
    QString m_base;
};

// The demo's own paths, each with a method that would read or change something.
const std::vector<std::pair<QByteArray, QString>> kDemoPaths = {
    { "GET", QStringLiteral("/sandbox/v1/faults") },
    { "POST", QStringLiteral("/sandbox/v1/faults") },
    { "DELETE", QStringLiteral("/sandbox/v1/faults") },
    { "GET",
        QStringLiteral("/api/v1/namespaces/monitoring/services/prometheus/proxy/api/v1/"
                       "query?query=up") },
    { "GET", QStringLiteral("/api/v1/namespaces/inference/pods") },
    { "GET", QStringLiteral("/apis/apps/v1/namespaces/inference/deployments") },
    { "POST", QStringLiteral("/draconsole/test/compact") },
    { "POST", QStringLiteral("/draconsole/test/restart") },
    { "GET", QStringLiteral("/apis/resource.k8s.io/v1/resourceslices") },
    { "GET", QStringLiteral("/console/v1/overview") },
    { "GET", QStringLiteral("/metrics") },
};

TEST(ServeAuthTest, TheDemosOwnPathsWantTheToken)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ignoreOpenSslThreadLeaks(dir.path());
    const QString tokenFile
        = writeTestFile(dir.filePath(QStringLiteral("token")), std::string(kToken) + "\n");
    Server server(dir.path(), { QStringLiteral("--token-file"), tokenFile });
    ASSERT_FALSE(server.base().isEmpty()) << server.diagnostics();
    QNetworkAccessManager network;
    for (const auto &[verb, path] : kDemoPaths) {
        const QUrl url(server.base() + path);
        for (const QByteArray &authorization : { QByteArray(), QByteArray("Bearer wrong"),
                 QByteArray(QByteArray("Basic ") + kToken) }) {
            const Sent sent = send(network, url, verb, authorization);
            EXPECT_EQ(sent.status, 401) << verb.constData() << " " << path.toStdString()
                                        << " with '" << authorization.constData() << "'";
            EXPECT_TRUE(
                nlohmann::json::parse(sent.body.toStdString(), nullptr, false).value("reason", "")
                == "Unauthorized")
                << sent.body.constData();
        }
    }
    // The faults were not touched: the right token reads an empty list.
    const Sent faults = send(network, QUrl(server.base() + QStringLiteral("/sandbox/v1/faults")),
        "GET", QByteArray(QByteArray("Bearer ") + kToken));
    EXPECT_EQ(faults.status, 200) << faults.body.constData();
    EXPECT_EQ(nlohmann::json::parse(faults.body.toStdString(), nullptr, false)["items"].size(), 0u)
        << faults.body.constData();
}

TEST(ServeAuthTest, WithoutAuthenticationTheSamePathsAnswer)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ignoreOpenSslThreadLeaks(dir.path());
    Server server(dir.path(), { QStringLiteral("--no-auth") });
    ASSERT_FALSE(server.base().isEmpty()) << server.diagnostics();
    QNetworkAccessManager network;
    for (const auto &[verb, path] : kDemoPaths) {
        if (path.contains(QLatin1String("/restart")))
            continue; // it would drop the connections of the paths after it
        const Sent sent = send(network, QUrl(server.base() + path), verb, {});
        EXPECT_NE(sent.status, 401) << verb.constData() << " " << path.toStdString();
        EXPECT_NE(sent.status, 0) << verb.constData() << " " << path.toStdString();
    }
}

} // namespace
} // namespace dra::test::serve_auth
