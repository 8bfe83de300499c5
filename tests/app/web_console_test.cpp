// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console of `dractl serve`: its banner line, its static files served without a token,
// the API behind it still closed without one, and its JavaScript parsed and exercised by node.
#include <optional>

#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QSslError>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

#include "tests/app/demo_server.h"
#include "tests/app/dractl_run.h"

namespace dra::test {
namespace {

struct WebReply
{
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

// One GET over TLS to the server's self-signed certificate, with `token` as bearer when set.
WebReply webGet(QNetworkAccessManager &network, const QUrl &url, const QString &token = {})
{
    QNetworkRequest request(url);
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    QNetworkReply *reply = network.get(request);
    QObject::connect(reply, &QNetworkReply::sslErrors, reply,
        [reply](const QList<QSslError> &) { reply->ignoreSslErrors(); });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    WebReply result { reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
        reply->rawHeader("Content-Type"), reply->readAll() };
    reply->deleteLater();
    return result;
}

class WebConsoleServeTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        ignoreOpenSslThreadLeaks(m_dir.path());
        m_server.emplace(m_dir.path(), QStringLiteral("l40s-pcie"), false);
        ASSERT_TRUE(m_server->waitUntilServing(60'000)) << m_server->diagnostics();
        const QRegularExpressionMatch line = QRegularExpression(
            QStringLiteral("web console: (https://[^/\\s]+)/ui/#token=(\\S+)\\n"))
                                                 .match(QString::fromUtf8(m_server->banner()));
        ASSERT_TRUE(line.hasMatch()) << m_server->diagnostics();
        m_base = line.captured(1);
        m_token = line.captured(2);
    }

    QTemporaryDir m_dir;
    std::optional<DemoServer> m_server;
    QNetworkAccessManager m_network;
    QString m_base;
    QString m_token;
};

TEST_F(WebConsoleServeTest, BannerNamesTheConsoleWithTheTokenOfTheKubeconfig)
{
    QFile kubeconfig(m_server->kubeconfig());
    ASSERT_TRUE(kubeconfig.open(QIODevice::ReadOnly));
    const QByteArray text = kubeconfig.readAll();
    EXPECT_TRUE(text.contains(QByteArray(QByteArray("token: ") + m_token.toUtf8())))
        << text.constData();
    EXPECT_TRUE(text.contains(m_base.toUtf8())) << text.constData();
    // The console line comes with the URL lines, before the kubeconfig line that ends the banner.
    EXPECT_LT(
        m_server->banner().indexOf("web console:"), m_server->banner().indexOf("kubeconfig:"));
}

TEST_F(WebConsoleServeTest, ServesItsFilesWithoutATokenAndTheirContentTypes)
{
    const WebReply page = webGet(m_network, QUrl(m_base + QStringLiteral("/ui/")));
    EXPECT_EQ(page.status, 200);
    EXPECT_TRUE(page.contentType.startsWith("text/html")) << page.contentType.constData();
    EXPECT_TRUE(page.body.contains("<script type=\"module\" src=\"app.js\">"))
        << page.body.constData();

    const WebReply script = webGet(m_network, QUrl(m_base + QStringLiteral("/ui/app.js")));
    EXPECT_EQ(script.status, 200);
    EXPECT_TRUE(script.contentType.startsWith("text/javascript")) << script.contentType.constData();
    EXPECT_TRUE(script.body.contains("nodeSummaries")); // the bundle keeps export names

    const WebReply style = webGet(m_network, QUrl(m_base + QStringLiteral("/ui/style.css")));
    EXPECT_EQ(style.status, 200);
    EXPECT_TRUE(style.contentType.startsWith("text/css")) << style.contentType.constData();
    EXPECT_FALSE(style.body.isEmpty());

    const WebReply bare = webGet(m_network, QUrl(m_base + QStringLiteral("/ui")));
    EXPECT_EQ(bare.status, 301);
    EXPECT_EQ(webGet(m_network, QUrl(m_base + QStringLiteral("/ui/secrets.json"))).status, 404);
}

TEST_F(WebConsoleServeTest, TheApiBehindTheConsoleStillWantsTheToken)
{
    const QUrl slices(m_base + QStringLiteral("/apis/resource.k8s.io/v1/resourceslices"));
    EXPECT_EQ(webGet(m_network, slices).status, 401);
    EXPECT_EQ(webGet(m_network, slices, QStringLiteral("not-the-token")).status, 401);
    EXPECT_EQ(webGet(m_network, QUrl(m_base + QStringLiteral("/api/v1/nodes"))).status, 401);
    const WebReply listed = webGet(m_network, slices, m_token);
    EXPECT_EQ(listed.status, 200);
    EXPECT_TRUE(listed.body.contains("\"ResourceSliceList\"")) << listed.body.left(300).constData();
    // A path that only starts like the console's is no console file and stays behind the token.
    EXPECT_EQ(webGet(m_network, QUrl(m_base + QStringLiteral("/uix"))).status, 401);
}

// The page's own watch code, run by node against the server: it lists with the token, then
// watches over a WebSocket whose subprotocol carries the token
// (tests/app/web_console_live_watch.mjs).
TEST_F(WebConsoleServeTest, ThePageWatchesOverAWebSocketWithTheTokenInItsSubprotocol)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        GTEST_SKIP() << "node is not on PATH; the web console's watch is not checked";
    const QString module = m_dir.filePath(QStringLiteral("app.mjs"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(DRA_SOURCE_DIR "/resources/web/src/main.js"), module));
    QStringList arguments;
    // Node 20 has a WebSocket client only behind a flag; later versions have it by default.
    if (QProcess::execute(node,
            { QStringLiteral("-e"),
                QStringLiteral("process.exit(typeof WebSocket === 'function' ? 0 : 1)") })
        != 0)
        arguments << QStringLiteral("--experimental-websocket");
    arguments << QStringLiteral(DRA_SOURCE_DIR "/tests/app/web_console_live_watch.mjs") << module
              << m_base << m_token;
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(
        QStringLiteral("NODE_TLS_REJECT_UNAUTHORIZED"), QStringLiteral("0")); // self-signed
    process.setProcessEnvironment(environment);
    process.start(node, arguments);
    ASSERT_TRUE(process.waitForFinished(60'000)) << "node did not finish";
    const QByteArray out = process.readAllStandardOutput();
    EXPECT_EQ(process.exitCode(), 0)
        << out.constData() << process.readAllStandardError().constData();
    EXPECT_TRUE(out.contains("live watch: ok")) << out.constData();
}

// node runs the console's module: it must parse, and its pure functions must shape sample API
// objects as the page shows them (tests/app/web_console_functions.mjs).
class WebConsoleScriptTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            GTEST_SKIP() << "node is not on PATH; the web console's JavaScript is not checked";
        ASSERT_TRUE(m_dir.isValid());
        // As .mjs, node takes it for the ES module it is whatever its version's default.
        m_module = m_dir.filePath(QStringLiteral("app.mjs"));
        ASSERT_TRUE(
            QFile::copy(QStringLiteral(DRA_SOURCE_DIR "/resources/web/src/main.js"), m_module));
    }

    DractlRun node(const QStringList &arguments)
    {
        QProcess process;
        process.start(m_node, arguments);
        EXPECT_TRUE(process.waitForFinished(60'000)) << "node did not finish";
        return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardOutput().toStdString(),
            process.readAllStandardError().toStdString() };
    }

    QString m_node;
    QTemporaryDir m_dir;
    QString m_module;
};

TEST_F(WebConsoleScriptTest, AppModuleParses)
{
    const DractlRun checked = node({ QStringLiteral("--check"), m_module });
    EXPECT_EQ(checked.exitCode, 0) << checked.err;
}

TEST_F(WebConsoleScriptTest, PureFunctionsComputeWhatThePageShows)
{
    const DractlRun run
        = node({ QStringLiteral(DRA_SOURCE_DIR "/tests/app/web_console_functions.mjs"), m_module });
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("web console functions: ok"), std::string::npos) << run.out;
}

} // namespace
} // namespace dra::test
