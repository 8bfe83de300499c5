// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console of `dractl serve`: its banner link, its bundled files and their security
// policy, the console API behind the same token as the Kubernetes API with the same numbers as
// its `dractl` twins, WebSockets of other sites refused, and the page's modules under node.
#include <map>
#include <optional>
#include <set>

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QRegularExpression>
#include <QSslError>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"
#include "tests/support/tls_request.h"

namespace dra::test {
namespace {

using nlohmann::json;

using WebReply = TlsReply;

// One GET (or, with a body, POST) over TLS to the server's self-signed certificate, with
// `token` as bearer when set.
WebReply webGet(QNetworkAccessManager &network, const QUrl &url, const QString &token = {},
    const std::optional<QByteArray> &body = std::nullopt)
{
    QNetworkRequest request(url);
    request.setAttribute(
        QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    if (body)
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/yaml"));
    return sendOverTls(network, request, body ? "POST" : "GET", body.value_or(QByteArray()));
}

// The status line a WebSocket handshake on `path` gets, sending `origin` when not empty.
QByteArray handshakeStatus(
    const QUrl &base, const QString &path, const QString &token, const QByteArray &origin)
{
    QSslSocket socket;
    socket.setPeerVerifyMode(QSslSocket::VerifyNone);
    socket.connectToHostEncrypted(base.host(), quint16(base.port()));
    if (!socket.waitForEncrypted(10'000))
        return "no TLS connection: " + socket.errorString().toUtf8();
    QByteArray request = "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: " + base.host().toUtf8() + ":"
        + QByteArray::number(base.port())
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          "Sec-WebSocket-Protocol: draconsole.console.v1\r\nAuthorization: Bearer "
        + token.toUtf8() + "\r\n";
    if (!origin.isEmpty())
        request += "Origin: " + origin + "\r\n";
    socket.write(request + "\r\n");
    while (!socket.canReadLine() && socket.waitForReadyRead(10'000)) { }
    return socket.readLine().trimmed();
}

// A template of one MIG device of the 1g.10gb profile, for the checks that take a body.
constexpr const char *kOneMigTemplate = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-mig, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: mig.nvidia.com
          selectors:
          - cel: {expression: "device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"}
)";

class WebConsoleServeTest : public testing::Test
{
protected:
    // One demo server for the suite: starting one is the slow part.
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        ignoreOpenSslThreadLeaks(s_dir->path());
        s_server = new DemoServer(s_dir->path(), QStringLiteral("a100-mig"), true);
        if (!s_server->waitUntilServing(120'000))
            return;
        const QRegularExpressionMatch line = QRegularExpression(
            QStringLiteral("web console: (https://[^/\\s]+)/ui/#/overview\\?token=(\\S+)\\n"))
                                                 .match(QString::fromUtf8(s_server->banner()));
        if (line.hasMatch()) {
            *s_base = line.captured(1);
            *s_token = line.captured(2);
        }
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        delete s_dir;
        s_server = nullptr;
        s_dir = nullptr;
    }

    void SetUp() override { ASSERT_FALSE(s_base->isEmpty()) << s_server->diagnostics(); }

    QUrl url(const QString &path) const { return QUrl(*s_base + path); }
    QString cache() const { return s_dir->filePath(QStringLiteral("served.db")); }

    json consoleGet(const QString &path, const std::optional<QByteArray> &body = std::nullopt)
    {
        const WebReply reply = webGet(m_network, url(path), *s_token, body);
        EXPECT_EQ(reply.status, 200) << path.toStdString() << ": " << reply.body.constData();
        return json::parse(reply.body.toStdString(), nullptr, false);
    }
    // What `dractl ARGUMENTS` prints, as JSON; twin() reads the served cache.
    static json printedBy(const QStringList &arguments)
    {
        const DractlRun run = dractl(arguments);
        EXPECT_NE(run.exitCode, -1) << run.err;
        return json::parse(run.out, nullptr, false);
    }
    json twin(QStringList arguments)
    {
        return printedBy(arguments << QStringLiteral("--cache") << cache());
    }
    // The server's answer at `path` and its twin's, at the same revision of the cache: the demo
    // cluster's control plane may still be settling, so both are asked again until they agree
    // on the revision.
    // With `body`, the server is asked with a POST of it.
    std::pair<json, json> atSameRevision(const QString &path, const QStringList &twinArguments,
        const std::optional<QByteArray> &body = std::nullopt)
    {
        for (int attempt = 0; attempt < 20; ++attempt) {
            const json before = consoleGet(QStringLiteral("/console/v1/info"));
            const json served = consoleGet(QStringLiteral("/console/v1/") + path, body);
            const json printed = twin(twinArguments);
            const json cached = twin({ QStringLiteral("console-api"), QStringLiteral("info") });
            const json after = consoleGet(QStringLiteral("/console/v1/info"));
            if (before.value("rev", -1) == after.value("rev", -2)
                && after.value("rev", -3) == cached.value("rev", -4))
                return { served, printed };
            QThread::msleep(500);
        }
        ADD_FAILURE() << "the server and the cache never showed the same revision";
        return {};
    }

    static inline QTemporaryDir *s_dir = nullptr;
    static inline DemoServer *s_server = nullptr;
    static inline QString *s_base = new QString;
    static inline QString *s_token = new QString;
    QNetworkAccessManager m_network;
};

TEST_F(WebConsoleServeTest, BannerLinksTheOverviewWithTheTokenOfTheKubeconfig)
{
    QFile kubeconfig(s_server->kubeconfig());
    ASSERT_TRUE(kubeconfig.open(QIODevice::ReadOnly));
    const QByteArray text = kubeconfig.readAll();
    EXPECT_TRUE(text.contains(QByteArray(QByteArray("token: ") + s_token->toUtf8())))
        << text.constData();
    EXPECT_TRUE(text.contains(s_base->toUtf8())) << text.constData();
    EXPECT_LT(
        s_server->banner().indexOf("web console:"), s_server->banner().indexOf("kubeconfig:"));
}

TEST_F(WebConsoleServeTest, DractlContextsSaysWhichContextServesTheWebConsole)
{
    // The twin of the desktop's web console button: the same probe of the same server.
    const json contexts = printedBy({ QStringLiteral("contexts"), QStringLiteral("-o"),
        QStringLiteral("json"), QStringLiteral("--kubeconfig"), s_server->kubeconfig() });
    // The demo's admin, team member and viewer, each a context of the one server.
    ASSERT_TRUE(contexts.is_array() && contexts.size() == 3) << contexts.dump();
    for (const json &context : contexts) {
        EXPECT_EQ(context.value("reachable", false), true) << contexts.dump();
        EXPECT_EQ(context.value("webConsole", ""), s_base->toStdString() + "/ui/")
            << contexts.dump();
    }
    EXPECT_EQ(contexts[0].value("name", ""), "demo") << contexts.dump();
    const DractlRun table = dractl(
        { QStringLiteral("contexts"), QStringLiteral("--kubeconfig"), s_server->kubeconfig() });
    EXPECT_NE(table.out.find("demo serves the web console at " + s_base->toStdString() + "/ui/"),
        std::string::npos)
        << table.out;
    EXPECT_EQ(table.out.find(s_token->toStdString()), std::string::npos)
        << "the token stays out of what contexts prints";
}

TEST_F(WebConsoleServeTest, ServesTheBundledPageUnderAStrictPolicy)
{
    const WebReply page = webGet(m_network, url(QStringLiteral("/ui/")));
    EXPECT_EQ(page.status, 200);
    EXPECT_TRUE(page.contentType.startsWith("text/html")) << page.contentType.constData();
    EXPECT_TRUE(page.body.contains("<script type=\"module\" src=\"app.js\">"));
    // No inline script at all; injected styles only with this page's nonce, which the page
    // carries for the editor.
    EXPECT_TRUE(page.policy.contains("script-src 'self';")) << page.policy.constData();
    EXPECT_FALSE(page.policy.contains("unsafe-inline")) << page.policy.constData();
    const QRegularExpressionMatch nonce
        = QRegularExpression(QStringLiteral("'nonce-([A-Za-z0-9_-]+)'"))
              .match(QString::fromUtf8(page.policy));
    ASSERT_TRUE(nonce.hasMatch()) << page.policy.constData();
    const QByteArray meta
        = "<meta name=\"csp-nonce\" content=\"" + nonce.captured(1).toUtf8() + "\">";
    EXPECT_TRUE(page.body.contains(meta)) << page.body.left(600).constData();
    EXPECT_NE(webGet(m_network, url(QStringLiteral("/ui/"))).policy, page.policy)
        << "a nonce is used once";

    const WebReply script = webGet(m_network, url(QStringLiteral("/ui/app.js")));
    EXPECT_EQ(script.status, 200);
    EXPECT_TRUE(script.contentType.startsWith("text/javascript"));
    EXPECT_TRUE(script.body.contains("/console/v1/")) << "the bundle talks to the console API";
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/ui/style.css"))).status, 200);
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/ui"))).status, 301);
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/ui/secrets.json"))).status, 404);
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/ui/.hidden.js"))).status, 404);
}

TEST_F(WebConsoleServeTest, TheConsoleApiWantsTheTokenAsTheKubernetesApiDoes)
{
    for (const QString &path : { QStringLiteral("/console/v1/overview"),
             QStringLiteral("/console/v1/devices"), QStringLiteral("/console/v1/lint"),
             QStringLiteral("/apis/resource.k8s.io/v1/resourceslices") }) {
        const WebReply anonymous = webGet(m_network, url(path));
        EXPECT_EQ(anonymous.status, 401) << path.toStdString();
        EXPECT_FALSE(anonymous.body.contains("gpu")) << anonymous.body.constData();
        EXPECT_EQ(webGet(m_network, url(path), QStringLiteral("not-the-token")).status, 401);
        EXPECT_EQ(webGet(m_network, url(path), *s_token).status, 200) << path.toStdString();
    }
    // Not under /apis/: kubectl's discovery does not list it.
    const WebReply apis = webGet(m_network, url(QStringLiteral("/apis")), *s_token);
    EXPECT_FALSE(apis.body.contains("console")) << apis.body.constData();
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/console/v1/nothing")), *s_token).status, 404);
}

TEST_F(WebConsoleServeTest, OverviewCountsGpusApartFromTheirMigPlacements)
{
    const auto [overview, devices] = atSameRevision(QStringLiteral("overview"),
        { QStringLiteral("get"), QStringLiteral("devices"), QStringLiteral("-o"),
            QStringLiteral("json") });
    ASSERT_TRUE(overview.contains("nodes")) << overview.dump();
    std::map<std::string, int> gpus, all, migs;
    for (const json &device : devices["devices"]) {
        const std::string node = device.value("node", "");
        ++all[node];
        const std::string type = device["attributes"].value("gpu.nvidia.com/type", "");
        if (type == "gpu")
            ++gpus[node];
        if (type == "mig")
            ++migs[node];
    }
    ASSERT_FALSE(overview["nodes"].empty());
    for (const json &node : overview["nodes"]) {
        const std::string name = node["name"];
        EXPECT_EQ(node["gpus"]["total"].get<int>(), gpus[name]) << name;
        EXPECT_EQ(node["partitions"]["placements"].get<int>(), migs[name]) << name;
        if (gpus[name] == 0)
            continue;
        // The A100 nodes publish far more MIG placements than GPUs; only GPUs count as GPUs.
        EXPECT_GT(migs[name], gpus[name]) << name;
        EXPECT_LT(node["gpus"]["total"].get<int>(), all[name]) << name;
    }
    // The same document as its twin prints.
    const auto [served, printed] = atSameRevision(
        QStringLiteral("overview"), { QStringLiteral("console-api"), QStringLiteral("overview") });
    EXPECT_EQ(served, printed);
    // `dractl overview -o json`, the desktop summary's twin, prints the same document.
    const auto [page, summary] = atSameRevision(QStringLiteral("overview"),
        { QStringLiteral("overview"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(page, summary);
}

TEST_F(WebConsoleServeTest, DevicePagesAndSelectorsCountAsTheirDractlTwins)
{
    const auto [page, devices]
        = atSameRevision(QStringLiteral("devices?limit=5&sort=memory&order=desc"),
            { QStringLiteral("get"), QStringLiteral("devices"), QStringLiteral("-o"),
                QStringLiteral("json") });
    EXPECT_EQ(page["total"].get<size_t>(), devices["devices"].size());
    EXPECT_EQ(page["matched"], page["total"]);
    EXPECT_EQ(page["rows"].size(), 5u);

    const QString selector = QStringLiteral("device.attributes['gpu.nvidia.com'].type == 'mig'");
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("selector"), selector);
    const auto [filtered, evaluated]
        = atSameRevision(QStringLiteral("devices?") + query.toString(QUrl::FullyEncoded),
            { QStringLiteral("cel"), QStringLiteral("eval"), QStringLiteral("--expr"), selector,
                QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(filtered["matched"], evaluated["matches"]);
    EXPECT_EQ(filtered["selector"]["matches"], evaluated["matches"]);
    EXPECT_GT(filtered["matched"].get<int>(), 0);

    // A broken selector: its error at the column the compiler gives, no rows, and the same
    // diagnostics as `dractl cel check`.
    const QString broken = QStringLiteral("device.driver == 'gpu.nvidia.com' &&");
    QUrlQuery brokenQuery;
    brokenQuery.addQueryItem(QStringLiteral("selector"), broken);
    const json bad = consoleGet(
        QStringLiteral("/console/v1/devices?") + brokenQuery.toString(QUrl::FullyEncoded));
    const json checked = printedBy({ QStringLiteral("cel"), QStringLiteral("check"),
        QStringLiteral("--expr"), broken, QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(bad["matched"], 0);
    EXPECT_EQ(bad["selector"]["valid"], false);
    const auto errorsOf = [](const json &diagnostics) {
        json errors = json::array();
        for (const json &d : diagnostics)
            if (d.value("severity", "") == "error")
                errors.push_back(d);
        return errors;
    };
    EXPECT_EQ(errorsOf(bad["selector"]["diagnostics"]), errorsOf(checked["diagnostics"]));
    ASSERT_FALSE(checked["diagnostics"].empty());
    EXPECT_EQ(checked["diagnostics"][0]["line"], 1);

    // A misspelt attribute: a "did you mean" warning, as `dractl cel eval` gives.
    const QString typo = QStringLiteral("device.attributes['gpu.nvidia.com'].prodctName == 'x'");
    QUrlQuery typoQuery;
    typoQuery.addQueryItem(QStringLiteral("selector"), typo);
    const json warned = consoleGet(
        QStringLiteral("/console/v1/devices?") + typoQuery.toString(QUrl::FullyEncoded));
    EXPECT_NE(warned["selector"]["diagnostics"].dump().find("did you mean"), std::string::npos)
        << warned["selector"].dump();
}

TEST_F(WebConsoleServeTest, LintFreeAndCelAnswerTheDocumentsTheirTwinsPrint)
{
    const auto [lint, lintTwin] = atSameRevision(QStringLiteral("lint"),
        { QStringLiteral("lint"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(lint, lintTwin);
    const auto [free, freeTwin] = atSameRevision(QStringLiteral("free?by=node"),
        { QStringLiteral("free"), QStringLiteral("--by"), QStringLiteral("node"),
            QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(free, freeTwin);
    const auto [ready, readyTwin] = atSameRevision(QStringLiteral("readiness"),
        { QStringLiteral("readiness"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(ready, readyTwin);
    ASSERT_TRUE(ready.contains("checks")) << ready.dump();
    EXPECT_EQ(ready["checks"][0]["id"], "release");
    EXPECT_NE(ready["checks"][0]["verdict"], "unknown") << "the demo reports its version";
    // The Migration page's plan is `dractl migrate plan -o json`'s, in the cluster's release.
    const auto [migration, migrationTwin] = atSameRevision(QStringLiteral("migration"),
        { QStringLiteral("migrate"), QStringLiteral("plan"), QStringLiteral("-o"),
            QStringLiteral("json") });
    EXPECT_EQ(migration, migrationTwin);
    ASSERT_TRUE(migration["workloads"].is_array()) << migration.dump();
    EXPECT_TRUE(
        migration["release"].get<std::string>().find("the cluster's version") != std::string::npos)
        << migration.dump();
    const json check
        = consoleGet(QStringLiteral("/console/v1/cel/check?expr=device.driver%20%3D%3D%201"));
    // Both check as the cluster's release, not the newest one.
    const json checkTwin
        = twin({ QStringLiteral("cel"), QStringLiteral("check"), QStringLiteral("--expr"),
            QStringLiteral("device.driver == 1"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(check, checkTwin);
    EXPECT_EQ(check["ok"], false);
    EXPECT_TRUE(check["release"]["from"].get<std::string>().starts_with("the cluster's version, v"))
        << check.dump();
}

TEST_F(WebConsoleServeTest, TopologyIsTheDrawingDractlTopologyPrints)
{
    std::string node;
    const json overview = consoleGet(QStringLiteral("/console/v1/overview"));
    for (const json &n : overview["nodes"])
        if (n["gpus"]["total"].get<int>() > 0)
            node = n["name"].get<std::string>();
    ASSERT_FALSE(node.empty()) << "the demo has GPU nodes";
    const auto [served, printed]
        = atSameRevision(QStringLiteral("topology/") + QString::fromStdString(node),
            { QStringLiteral("topology"), QString::fromStdString(node), QStringLiteral("-o"),
                QStringLiteral("layout-json") });
    EXPECT_EQ(served, printed);
    ASSERT_TRUE(served.is_object()) << served.dump();
    EXPECT_FALSE(served.empty());
    const WebReply missing
        = webGet(m_network, url(QStringLiteral("/console/v1/topology/no-such-node")), *s_token);
    EXPECT_EQ(missing.status, 404) << missing.body.constData();
}

TEST_F(WebConsoleServeTest, TemplateCheckIsWhatDractlTemplateCheckPrints)
{
    const QByteArray text(kOneMigTemplate);
    const QString file
        = writeTestFile(s_dir->filePath(QStringLiteral("one-mig.yaml")), kOneMigTemplate);
    const auto [served, twinned] = atSameRevision(QStringLiteral("templates/check"),
        { QStringLiteral("console-api"), QStringLiteral("templates/check"),
            QStringLiteral("--body"), file },
        text);
    EXPECT_EQ(served, twinned);
    ASSERT_TRUE(served.contains("requests")) << served.dump();
    EXPECT_EQ(served["name"], "one-mig");
    // The same check `dractl template check FILE` prints for the file.
    json item = twin({ QStringLiteral("template"), QStringLiteral("check"), file,
        QStringLiteral("-o"), QStringLiteral("json") })["items"][0];
    item.erase("file");
    json withoutRev = served;
    withoutRev.erase("rev");
    EXPECT_EQ(withoutRev, item);

    const WebReply empty = webGet(
        m_network, url(QStringLiteral("/console/v1/templates/check")), *s_token, QByteArray());
    EXPECT_EQ(empty.status, 400) << empty.body.constData();
    const WebReply write
        = webGet(m_network, url(QStringLiteral("/console/v1/claims")), *s_token, QByteArray("{}"));
    EXPECT_EQ(write.status, 405) << "only the checks take a body";
}

TEST_F(WebConsoleServeTest, TheQuickHalfOfTheCheckCountsWhatTheWholeCheckCounts)
{
    // What the editor asks on every keystroke: the match counts of the whole check, in the
    // same release, without the allocation simulation; its twin prints the same.
    const QByteArray text(kOneMigTemplate);
    const QString file
        = writeTestFile(s_dir->filePath(QStringLiteral("one-mig-quick.yaml")), kOneMigTemplate);
    const auto [quick, twinned] = atSameRevision(QStringLiteral("templates/check?simulate=false"),
        { QStringLiteral("console-api"), QStringLiteral("templates/check?simulate=false"),
            QStringLiteral("--body"), file },
        text);
    EXPECT_EQ(quick, twinned);
    const json whole = atSameRevision(QStringLiteral("templates/check"),
        { QStringLiteral("console-api"), QStringLiteral("templates/check"),
            QStringLiteral("--body"), file },
        text)
                           .first;
    ASSERT_TRUE(whole.contains("allocation")) << whole.dump();
    EXPECT_FALSE(quick.contains("allocation")) << quick.dump();
    EXPECT_EQ(quick["requests"], whole["requests"]);
    EXPECT_EQ(quick["release"], whole["release"]);

    const WebReply older = webGet(m_network,
        url(QStringLiteral("/console/v1/templates/check?simulate=false&kubernetesVersion=1.33")),
        *s_token, text);
    ASSERT_EQ(older.status, 200) << older.body.constData();
    EXPECT_EQ(json::parse(older.body.toStdString())["kubernetesVersion"], "1.33");
    const WebReply unclear = webGet(m_network,
        url(QStringLiteral("/console/v1/templates/check?simulate=maybe")), *s_token, text);
    EXPECT_EQ(unclear.status, 400) << unclear.body.constData();
}

TEST_F(WebConsoleServeTest, NegativeControlIsWhatDractlNegativeControlPrints)
{
    const QByteArray text(kOneMigTemplate);
    const QString file
        = writeTestFile(s_dir->filePath(QStringLiteral("one-mig-negative.yaml")), kOneMigTemplate);
    // The page's endpoint, its `dractl console-api` twin and `dractl negative-control`.
    const auto [served, twinned] = atSameRevision(QStringLiteral("templates/negative-control"),
        { QStringLiteral("console-api"), QStringLiteral("templates/negative-control"),
            QStringLiteral("--body"), file },
        text);
    EXPECT_EQ(served, twinned);
    EXPECT_EQ(served,
        twin({ QStringLiteral("negative-control"), file, QStringLiteral("-o"),
            QStringLiteral("json") }));
    ASSERT_TRUE(served.contains("requests")) << served.dump();
    EXPECT_EQ(served["name"], "one-mig");
    EXPECT_EQ(served["negativeControl"], "one-mig-negative-control");
    // The demo's MIG devices of that profile exist: the control has something to prove.
    EXPECT_GT(served["originalMatches"].get<int>(), 0) << served.dump();
    EXPECT_EQ(served["negativeMatches"], 0) << served.dump();

    const WebReply empty = webGet(m_network,
        url(QStringLiteral("/console/v1/templates/negative-control")), *s_token, QByteArray());
    EXPECT_EQ(empty.status, 400) << empty.body.constData();
    const WebReply notAClaim
        = webGet(m_network, url(QStringLiteral("/console/v1/templates/negative-control")), *s_token,
            QByteArray("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"));
    EXPECT_EQ(notAClaim.status, 400) << notAClaim.body.constData();
    EXPECT_TRUE(notAClaim.body.contains("ConfigMap")) << notAClaim.body.constData();
}

TEST_F(WebConsoleServeTest, ClaimDiagnosisIsWhatDractlExplainPrints)
{
    const json claims = consoleGet(QStringLiteral("/console/v1/claims"));
    ASSERT_FALSE(claims["claims"].empty()) << claims.dump();
    const json &claim = claims["claims"][0];
    const QString name = QString::fromStdString(
        claim["namespace"].get<std::string>() + "/" + claim["name"].get<std::string>());
    const auto [served, printed] = atSameRevision(QStringLiteral("explain/claim/") + name,
        { QStringLiteral("explain"), QStringLiteral("claim"), name, QStringLiteral("-o"),
            QStringLiteral("json") });
    EXPECT_EQ(served, printed);
    ASSERT_FALSE(served["steps"].empty()) << served.dump();
    const json details = consoleGet(QStringLiteral("/console/v1/claims/") + name);
    EXPECT_EQ(details["diagnosis"]["steps"], served["steps"]);
    EXPECT_EQ(webGet(m_network, url(QStringLiteral("/console/v1/claims/nowhere/nothing")), *s_token)
                  .status,
        404);
}

// Access per DeviceClass, read from the demo's Roles and bindings: the training team creates
// claims in its namespace only, batch's quota keeps MIG out, and the platform group's wildcard
// grant on resource.k8s.io is flagged. `dractl access -o json` prints the same document, and its
// table says the same.
TEST_F(WebConsoleServeTest, AccessPerClassIsWhatDractlAccessPrints)
{
    const auto [served, printed] = atSameRevision(QStringLiteral("access"),
        { QStringLiteral("access"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(served, printed);
    EXPECT_EQ(served["source"], "rbac") << served["sourceNote"];
    std::map<std::string, json> namespaces;
    for (const json &ns : served["namespaces"])
        namespaces[ns["namespace"].get<std::string>()] = ns;
    const auto authors = [&](const std::string &ns) {
        std::set<std::string> names;
        for (const json &grant : namespaces[ns]["claimAuthors"])
            if (!grant["admin"].get<bool>())
                names.insert(grant["subject"]["name"].get<std::string>());
        return names;
    };
    EXPECT_TRUE(authors("training").contains("training-team")) << namespaces["training"].dump();
    EXPECT_FALSE(authors("inference").contains("training-team"));
    for (const json &access : namespaces["batch"]["classes"])
        EXPECT_EQ(access["blocked"].get<bool>(), access["class"] == "mig.nvidia.com")
            << access.dump();
    bool wildcard = false;
    for (const json &finding : served["findings"])
        wildcard = wildcard
            || (finding["code"] == "WildcardDraGrant" && finding["subject"]["name"] == "ml-platform"
                && finding["severity"] == "warning");
    EXPECT_TRUE(wildcard) << served["findings"].dump();

    // One class in one namespace, as the CLI's table shows it.
    const DractlRun table = dractl(
        { QStringLiteral("access"), QStringLiteral("--class"), QStringLiteral("mig.nvidia.com"),
            QStringLiteral("-n"), QStringLiteral("batch"), QStringLiteral("--cache"), cache() });
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("blocked by quota"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("training"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("WildcardDraGrant"), std::string::npos) << table.out;
}

TEST_F(WebConsoleServeTest, AWebSocketFromAnotherSiteIsRefused)
{
    const QUrl base(*s_base);
    const QString path = QStringLiteral("/console/v1/ws");
    EXPECT_TRUE(handshakeStatus(base, path, *s_token, "https://evil.example").contains(" 403"));
    EXPECT_TRUE(handshakeStatus(base, path, *s_token, "null").contains(" 403"));
    EXPECT_TRUE(
        handshakeStatus(base, QStringLiteral("/apis/resource.k8s.io/v1/resourceslices?watch=1"),
            *s_token, "https://evil.example")
            .contains(" 403"));
    // The page's own origin, and clients that send none (kubectl), are let in.
    const QByteArray own
        = "https://" + base.host().toUtf8() + ":" + QByteArray::number(base.port());
    EXPECT_TRUE(handshakeStatus(base, path, *s_token, own).contains(" 101"));
    EXPECT_TRUE(handshakeStatus(base, path, *s_token, {}).contains(" 101"));
    EXPECT_TRUE(handshakeStatus(base, path, QStringLiteral("wrong"), own).contains(" 401"));
}

// The page's WebSocket channel run by node against the server: a view subscription and a
// watch, a label on a slice arriving as both (tests/app/web_console_live_watch.mjs).
TEST_F(WebConsoleServeTest, ThePageChannelFollowsAViewAndAWatch)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        GTEST_SKIP() << "node is not on PATH; the web console's channel is not checked";
    QStringList arguments;
    // Node 20 has a WebSocket client only behind a flag; later versions have it by default.
    if (QProcess::execute(node,
            { QStringLiteral("-e"),
                QStringLiteral("process.exit(typeof WebSocket === 'function' ? 0 : 1)") })
        != 0)
        arguments << QStringLiteral("--experimental-websocket");
    arguments << QStringLiteral(DRA_SOURCE_DIR "/tests/app/web_console_live_watch.mjs")
              << QStringLiteral(DRA_SOURCE_DIR "/resources/web/src") << *s_base << *s_token;
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("NODE_TLS_REJECT_UNAUTHORIZED"), QStringLiteral("0"));
    process.setProcessEnvironment(environment);
    process.start(node, arguments);
    ASSERT_TRUE(process.waitForFinished(60'000)) << "node did not finish";
    const QByteArray out = process.readAllStandardOutput();
    EXPECT_EQ(process.exitCode(), 0)
        << out.constData() << process.readAllStandardError().constData();
    EXPECT_TRUE(out.contains("live channel: ok")) << out.constData();
}

// node runs the console's pure modules (tests/app/web_console_functions.mjs).
TEST(WebConsoleScriptTest, PureModulesComputeWhatThePageShows)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty())
        GTEST_SKIP() << "node is not on PATH; the web console's modules are not checked";
    QProcess process;
    process.start(node,
        { QStringLiteral(DRA_SOURCE_DIR "/tests/app/web_console_functions.mjs"),
            QStringLiteral(DRA_SOURCE_DIR "/resources/web/src") });
    ASSERT_TRUE(process.waitForFinished(60'000));
    const QByteArray out = process.readAllStandardOutput();
    EXPECT_EQ(process.exitCode(), 0)
        << out.constData() << process.readAllStandardError().constData();
    EXPECT_TRUE(out.contains("web console functions: ok")) << out.constData();
}

} // namespace
} // namespace dra::test
