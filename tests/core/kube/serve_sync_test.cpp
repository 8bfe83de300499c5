// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl serve --in-cluster` during its initial sync, against a cluster (in this process) that
// holds back one kind's lists: the mirror listens and answers its probes as kube-apiserver does
// while starting (/livez ok, /readyz failing and saying why), and turns ready once it synced.
#include <QDir>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/kube/rest_client.h"
#include "core/server/api_server.h"
#include "core/server/http_connection.h"
#include "core/server/kube_status.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace serve_sync_test {

using test::spinUntil;

// A probe of the mirror's health endpoint, whatever its status: {status, body}.
std::pair<int, std::string> probe(RestClient &client, const char *path, bool verbose = false)
{
    std::optional<std::pair<int, std::string>> answer;
    RestRequest request;
    request.path = QString::fromLatin1(path);
    if (verbose)
        request.query.addQueryItem(QStringLiteral("verbose"), {});
    client.sendAs(request, {}, &client, [&](const Result<RawResponse> &response) {
        answer = response ? std::pair(response->status, response->body.toStdString())
                          : std::pair(0, response.error().message.toStdString());
    });
    EXPECT_TRUE(spinUntil([&] { return answer.has_value(); }));
    return answer.value_or(std::pair(0, std::string("no answer")));
}

TEST(ServeSyncTest, AMirrorAnswersItsProbesDuringTheInitialSyncAndIsReadyOnceSynced)
{
    test::TestCluster cluster;
    cluster.put({ test::slice("s1", "n1"), test::namespaceObject("draconsole") });
    // The slices' lists are held unanswered (a slow cluster), then answered when released.
    bool holdSlices = true;
    std::vector<std::pair<server::Request, QPointer<server::HttpConnection>>> held;
    cluster.intercept = [&](server::Request &request, server::HttpConnection &connection) {
        if (!holdSlices || request.path.find("/resourceslices") == std::string::npos)
            return false;
        held.emplace_back(request, &connection);
        return true;
    };
    const auto release = [&] {
        holdSlices = false;
        for (auto &[request, connection] : held)
            if (connection)
                cluster.api().handle(request, *connection);
        held.clear();
    };

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString account = dir.filePath(QStringLiteral("serviceaccount"));
    ASSERT_TRUE(QDir().mkpath(account));
    test::writeFile(account + QStringLiteral("/token"), test::kToken);
    test::writeFile(
        account + QStringLiteral("/ca.crt"), test::KubeconfigFixtures::ca().certificate);
    test::writeFile(account + QStringLiteral("/namespace"), "draconsole");

    QProcess serve;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("KUBERNETES_SERVICE_HOST"), QStringLiteral("127.0.0.1"));
    environment.insert(QStringLiteral("KUBERNETES_SERVICE_PORT"), QString::number(cluster.port()));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    serve.setProcessEnvironment(environment);
    serve.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    serve.start(QStringLiteral(DRA_DRACTL),
        { QStringLiteral("serve"), QStringLiteral("--in-cluster"),
            QStringLiteral("--service-account-dir"), account, QStringLiteral("--authn=token"),
            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--cache"),
            dir.filePath(QStringLiteral("mirror.db")) });
    QByteArray output;
    const auto printed = [&](const char *text) {
        return spinUntil(
                   [&] {
                       output += serve.readAllStandardOutput();
                       return output.contains(text) || serve.state() == QProcess::NotRunning;
                   },
                   60'000)
            && output.contains(text);
    };
    ASSERT_TRUE(printed("Listening at ")) << output.toStdString();
    const QRegularExpressionMatch url
        = QRegularExpression(QStringLiteral("Listening at (https://\\S+) during the initial sync"))
              .match(QString::fromUtf8(output));
    ASSERT_TRUE(url.hasMatch()) << output.toStdString();
    ASSERT_TRUE(spinUntil([&] { return !held.empty(); }));

    ClientConfig mirror;
    mirror.context = QStringLiteral("mirror");
    mirror.server = QUrl(url.captured(1));
    mirror.insecureSkipTlsVerify = true;
    RestClient client(mirror);
    const auto [liveStatus, live] = probe(client, "/livez");
    EXPECT_EQ(liveStatus, 200) << live;
    const auto [unreadyStatus, unready] = probe(client, "/readyz", true);
    EXPECT_EQ(unreadyStatus, 500) << unready;
    EXPECT_NE(unready.find("initial sync in progress"), std::string::npos) << unready;
    EXPECT_FALSE(output.contains("Serving ")) << output.toStdString();

    release();
    ASSERT_TRUE(printed("kubeconfig:")) << output.toStdString();
    const auto [readyStatus, ready] = probe(client, "/readyz", true);
    EXPECT_EQ(readyStatus, 200) << ready;
    EXPECT_NE(ready.find("readyz check passed"), std::string::npos) << ready;

    serve.terminate();
    EXPECT_TRUE(spinUntil([&] { return serve.state() == QProcess::NotRunning; }, 30'000));
}

} // namespace serve_sync_test
} // namespace dra::kube
