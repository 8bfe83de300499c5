// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl serve: the cache as a Kubernetes API over TLS with a token; read-only (offline mode),
// writable (--writable), or as a demo cluster seeded from a preset (--demo).
#include <cstdio>
#include <map>
#include <optional>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QHostAddress>
#include <QHostInfo>
#include <QSslSocket>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTimer>
#include <QUuid>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/stop_signal.h"
#include "core/common/json_text.h"
#include "core/common/clock.h"
#include "core/kube/in_cluster_config.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/live_mirror.h"
#include "core/kube/stream_health.h"
#include "core/release/kubernetes_release.h"
#include "core/rollout/rollout_host.h"
#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/embedded_demo_cluster.h"
#include "core/sandbox/fault_endpoint.h"
#include "core/sandbox/sandbox_faults.h"
#include "core/server/api_server.h"
#include "core/server/console_api.h"
#include "core/server/console_api_rollouts.h"
#include "core/server/http_server.h"
#include "core/server/kube_status.h"
#include "core/server/mirror_metrics.h"
#include "core/server/test_hooks.h"
#include "core/server/tls_identity.h"

namespace dra::cli {

namespace {

using common::Error;
using common::qs;

QString serveDir()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return QDir(base).filePath(QStringLiteral("draconsole/serve"));
}

// "127.0.0.1:6443", "[::1]:0", "0.0.0.0:8443".
Result<std::pair<QHostAddress, quint16>> parseListen(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const uint port = colon < 0 ? 0 : text.mid(colon + 1).toUInt(&ok);
    QString host = colon < 0 ? QString() : text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    const QHostAddress address(
        host == QLatin1String("localhost") ? QStringLiteral("127.0.0.1") : host);
    if (!ok || port > 65535 || address.isNull())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral(
                "--listen %1: expected ADDRESS:PORT, e.g. 127.0.0.1:6443 (port 0 picks a free one)")
                .arg(text));
    return std::pair { address, quint16(port) };
}

// QCommandLineParser has no options with an optional value: `--demo` and `--demo=PRESET` are
// taken out of the arguments before it sees them.
std::optional<QString> takeDemoOption(QStringList &arguments)
{
    std::optional<QString> preset;
    for (qsizetype i = arguments.size() - 1; i >= 1; --i) {
        const QString &argument = arguments[i];
        if (argument == QLatin1String("--demo")) {
            preset = preset.value_or(QStringLiteral("mixed"));
            arguments.removeAt(i);
        } else if (argument.startsWith(QLatin1String("--demo="))) {
            preset = argument.mid(7);
            arguments.removeAt(i);
        }
    }
    return preset;
}

QString describeCommand()
{
    QString presets;
    for (const auto &[name, summary] : sandbox::presetNames())
        presets += QStringLiteral("  %1  %2\n").arg(qs(name), -10).arg(qs(summary));
    return QStringLiteral(
        "Serve the cache as a Kubernetes API that kubectl and client libraries can use.\n\n"
        "Modes:\n"
        "  offline (default)  the cache as it is, read-only; writes answer 405\n"
        "  --writable         the same cache, writable: create, update, patch, server-side\n"
        "                     apply and delete of resource.k8s.io objects and namespaces\n"
        "  --context C        live mirror: mirrors the kubeconfig context C (--kubeconfig F\n"
        "                     as kubectl reads it) into the cache and serves what it mirrors,\n"
        "                     read-only, from the end of the initial sync on\n"
        "  --demo[=PRESET]    a demo cluster seeded from PRESET (default mixed) in a fresh\n"
        "                     cache in a temporary folder, or in --cache FILE (kept across\n"
        "                     restarts); writable. It runs Kubernetes %1 unless the preset or\n"
        "                     --kubernetes-version 1.NN says otherwise: that release's\n"
        "                     /version, resource.k8s.io versions and feature gates; users\n"
        "                     demo (admin), demo-training and demo-viewer, authorised by RBAC\n"
        "  --in-cluster       live mirror of the cluster this pod runs in, as its service\n"
        "                     account (installer/kubernetes deploys it); each caller is who\n"
        "                     the cluster says and may do what it allows (--authn=cluster);\n"
        "                     its rollouts are driven by the replica that holds the Lease\n"
        "                     --rollout-lease (default draconsole-rollouts)\n\n"
        "Health, without authentication as kube-apiserver serves them (?verbose lists checks):\n"
        "  /livez             the process answers\n"
        "  /readyz, /healthz  and, for a live mirror, every stream is listed and followed\n"
        "Metrics, for authenticated callers allowed `get` on the path /metrics:\n"
        "  /metrics           Prometheus text: requests by verb, resource and code with a\n"
        "                     latency histogram, open watches, the cache's size and, for a\n"
        "                     live mirror, each stream's state, objects, lag, watch restarts\n"
        "                     and relists\n\n"
        "Presets:\n%2\n"
        "--test-hooks adds endpoints that make the server misbehave on purpose, for tests of\n"
        "clients; each is a POST with the bearer token, and only on loopback addresses:\n"
        "  %3      end every open watch\n"
        "  %4           forget the history: resumed watches and old continue tokens get 410\n"
        "  %5   expire every continue token handed out so far\n"
        "  %6[?downMillis=500]  drop every connection, refuse connections for a while,\n"
        "                     then serve again, as an API server restart does\n"
        "  %7[?revision=N]  go back to the state at revision N (default: before the last\n"
        "                     change) and restart, as after an etcd restore: resourceVersions\n"
        "                     go back (writable servers only)\n"
        "  %8[?millis=3000]  how long a list or watch for a resourceVersion newer than\n"
        "                     the server's waits before its 504\n"
        "  rotate-service-account-token  with --demo-service-account-dir: a new token for\n"
        "                     draconsole-mirror, written there; the old one stops working")
        .arg(qs(sandbox::kDemoKubernetesVersion), presets, qs(server::test_hooks::kDropWatches),
            qs(server::test_hooks::kCompact), qs(server::test_hooks::kExpireContinue),
            qs(server::test_hooks::kRestart), qs(server::test_hooks::kRestore),
            qs(server::test_hooks::kTooLargeWait));
}

// The cache an offline, writable or live serve reads and (when writable) writes.
struct ServedCache
{
    std::optional<store::CacheDb> writer;
    store::CacheDb reader;
    std::string cluster;
};

Result<ServedCache> openServedCache(
    const QCommandLineParser &parser, bool writable, const std::string &liveCluster = {})
{
    ServedCache served;
    const QString path = cachePath(parser);
    if (!QFileInfo::exists(path))
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1: no cache yet; fill it with `dractl import FILE...`, or serve a "
                           "demo cluster with --demo")
                .arg(path));
    if (writable) {
        Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        if (!writer)
            return dra::fail(writer.error());
        served.writer.emplace(std::move(*writer));
    }
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!reader)
        return dra::fail(reader.error());
    served.reader = std::move(*reader);
    if (!liveCluster.empty()) {
        served.cluster = liveCluster;
    } else {
        Result<std::string> cluster = chooseCluster(served.reader, parser);
        if (!cluster)
            return dra::fail(cluster.error());
        served.cluster = *cluster;
    }
    return served;
}

// The demo cluster of --demo=PRESET: seeded into --cache FILE or a temporary cache, served with
// the TLS and token the options chose.
Result<std::unique_ptr<sandbox::EmbeddedDemoCluster>> createDemoCluster(
    const QCommandLineParser &parser, const QString &preset, const QSslConfiguration &tls,
    const QByteArray &caPem, const std::string &token,
    std::shared_ptr<const server::ClientCertificateAuthority> clientCa,
    const std::pair<QHostAddress, quint16> &listen)
{
    sandbox::EmbeddedDemoOptions options;
    options.preset.preset = preset.toStdString();
    options.preset.kubernetesVersion
        = parser.value(QStringLiteral("kubernetes-version")).toStdString();
    options.cluster = parser.isSet(QStringLiteral("cluster"))
        ? parser.value(QStringLiteral("cluster")).toStdString()
        : std::string(sandbox::kDemoCluster);
    if (parser.isSet(QStringLiteral("cache")))
        options.cachePath = cachePath(parser);
    options.address = listen.first;
    options.port = listen.second;
    options.tls = tls;
    options.caPem = caPem;
    options.token = token;
    options.clientCa = std::move(clientCa);
    // As on a real cluster: a template that names no namespace (the web editor's starter)
    // applies; the kubeconfig's context stays in the first team's namespace.
    options.defaultNamespace = true;
    return sandbox::EmbeddedDemoCluster::create(std::move(options));
}

// The rollout controllers' cluster when the server hosts them: this server itself, reached as
// `--write-kubeconfig` would reach it.
Result<rollout::HostedClusterFactory> selfClusterFactory(const std::string &url,
    const QByteArray &caPem, const std::string &token, const std::string &context)
{
    Result<kube::Kubeconfig> config = kube::parseKubeconfig(
        server::kubeconfigText(url, caPem, token, context), QStringLiteral("dractl serve"));
    if (!config)
        return dra::fail(config.error());
    Result<kube::ClientConfig> client = kube::resolveContext(*config, {});
    if (!client)
        return dra::fail(client.error());
    return rollout::kubeClusterFactory(
        std::move(*client), "dractl/" DRA_VERSION " (linux) draconsole serve rollout");
}

// How a live mirror reaches its cluster: the pod's service account, or a kubeconfig context.
Result<kube::ClientConfig> liveClientConfig(const QCommandLineParser &parser)
{
    return parser.isSet(QStringLiteral("in-cluster"))
        ? kube::inClusterConfig(parser.isSet(QStringLiteral("service-account-dir"))
                ? parser.value(QStringLiteral("service-account-dir"))
                : QString::fromLatin1(kube::kServiceAccountDir))
        : clientConfigFor(parser);
}

kube::RestOptions liveRestOptions()
{
    kube::RestOptions options;
    options.userAgent = "dractl/" DRA_VERSION " (linux) draconsole serve";
    options.exec = execOptionsForTerminal();
    return options;
}

// With --in-cluster: the Lease that decides which replica drives rollouts, and how this one
// competes for it (its namespace, when not given, is the service account's: filled in later).
Result<std::optional<rollout::ClusterLeaseSetup>> rolloutLeaseSetup(
    const QCommandLineParser &parser, bool inCluster)
{
    const bool named = parser.isSet(QStringLiteral("rollout-lease"));
    const bool timed = parser.isSet(QStringLiteral("lease-duration"));
    if (!inCluster) {
        if (named || timed)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--rollout-lease and --lease-duration go with --in-cluster"));
        return std::optional<rollout::ClusterLeaseSetup>();
    }
    rollout::ClusterLeaseSetup setup;
    setup.userAgent = liveRestOptions().userAgent.toStdString();
    setup.options.name = "draconsole-rollouts";
    if (named) {
        const QString text = parser.value(QStringLiteral("rollout-lease"));
        const QStringList parts = text.split(QLatin1Char('/'));
        if (parts.size() != 2 || parts[0].isEmpty() || parts[1].isEmpty())
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--rollout-lease %1: expected namespace/name").arg(text));
        setup.options.ns = parts[0].toStdString();
        setup.options.name = parts[1].toStdString();
    }
    if (timed) {
        bool ok = false;
        const int seconds = parser.value(QStringLiteral("lease-duration")).toInt(&ok);
        if (!ok || seconds < 2)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("--lease-duration %1: expected whole seconds, at least 2")
                    .arg(parser.value(QStringLiteral("lease-duration"))));
        setup.options.durationSeconds = seconds;
    }
    // client-go's proportions: renew deadline 10 s and retry period 2 s of a 15 s lease.
    setup.options.renewDeadlineMs = int64_t(setup.options.durationSeconds) * 2000 / 3;
    setup.options.retryMs = int64_t(setup.options.durationSeconds) * 2000 / 15;
    // A pod's host name is its name; the nonce tells a restarted process from its predecessor.
    const QString identity = QSysInfo::machineHostName() + QLatin1Char('_')
        + QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
    setup.options.identity = identity.toStdString();
    return std::optional(std::move(setup));
}

// Who drives the state file's rollouts, as the start-up lines say it.
QString rolloutDriver(const rollout::RolloutHostThread *rollouts)
{
    if (!rollouts)
        return QStringLiteral("followed: dractl rollout run drives them");
    const std::optional<rollout::HostLeadership> leadership = rollouts->host()->leadership();
    if (!leadership)
        return QStringLiteral("their controllers run in this server");
    return QStringLiteral("driven by the replica that holds Lease %1; this one is %2")
        .arg(qs(leadership->lease), qs(leadership->identity));
}

// With --authn=cluster: the cluster reviews callers' tokens and access for the mirror, which
// must be allowed to ask (the installer's ClusterRole grants it); without that nobody could be
// told apart, so the server does not start.
Result<std::shared_ptr<server::DelegatedAccess>> delegateToCluster(const kube::ClientConfig &config)
{
    auto delegated = std::make_shared<server::DelegatedAccess>(config, liveRestOptions());
    std::optional<Result<void>> probed;
    QEventLoop loop;
    delegated->probe(&loop, [&](const Result<void> &result) {
        probed = result;
        loop.quit();
    });
    if (!probed)
        loop.exec();
    if (!*probed)
        return dra::fail(probed->error().code,
            QStringLiteral("--authn=cluster: %1").arg(probed->error().message));
    return delegated;
}

// Runs the event loop until the mirror has discovered its cluster's API (`synced` false) or
// finished its initial sync (`synced` true), failed, or a stop signal came; its failure, if any.
std::optional<Error> runMirrorUntil(kube::LiveMirror &live, bool synced)
{
    // The application's own loop, which a stop signal ends; the connections go with `scope`.
    QObject scope;
    std::optional<Error> failure;
    QObject::connect(&live, &kube::LiveMirror::failed, &scope, [&failure](const Error &error) {
        failure = error;
        QCoreApplication::quit();
    });
    QObject::connect(
        &live, &kube::LiveMirror::initialSynced, &scope, [] { QCoreApplication::quit(); });
    if (!synced)
        QObject::connect(
            &live, &kube::LiveMirror::discovered, &scope, [] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    return failure;
}

// Starts mirroring the context the options name into the cache and runs the event loop until
// it has discovered the cluster's API (or a stop signal): the server listens from then on, and
// says it is ready once the initial sync is done.
Result<std::unique_ptr<kube::LiveMirror>> startLiveMirror(const QCommandLineParser &parser,
    const kube::ClientConfig &client, const std::shared_ptr<kube::StreamHealth> &streams)
{
    kube::LiveMirrorOptions options;
    options.client = client;
    options.rest = liveRestOptions();
    options.cachePath = cachePath(parser);
    options.mirror.cluster = parser.isSet(QStringLiteral("cluster"))
        ? parser.value(QStringLiteral("cluster")).toStdString()
        : client.context.toStdString();
    options.mirror.workloadNamespaces = workloadNamespacesFrom(parser);
    auto live = std::make_unique<kube::LiveMirror>(std::move(options));
    const QString describe = client.describe();
    const QString cacheFile = live->cachePath();
    QObject::connect(live.get(), &kube::LiveMirror::discovered, live.get(),
        [describe, cacheFile](const kube::ApiDiscovery &discovery) {
            out(QStringLiteral("Mirroring %1 into %2: Kubernetes %3\n")
                    .arg(describe, cacheFile,
                        discovery.gitVersion.isEmpty() ? QStringLiteral("(unknown version)")
                                                       : discovery.gitVersion));
            std::fflush(stdout);
        });
    QObject::connect(live.get(), &kube::LiveMirror::streamChanged, live.get(),
        [streams](const kube::StreamStatus &status) {
            streams->update(status, QDateTime::currentMSecsSinceEpoch());
            if (status.state == kube::StreamState::Forbidden
                || status.state == kube::StreamState::Error)
                err(QStringLiteral("  %1: %2: %3\n")
                        .arg(status.label(), qs(kube::streamStateName(status.state)),
                            status.reason));
        });
    QObject::connect(live.get(), &kube::LiveMirror::notice, live.get(), [](const Error &error) {
        err(QStringLiteral("note: ") + error.message + QLatin1Char('\n'));
    });
    live->start();
    if (std::optional<Error> failure = runMirrorUntil(*live, false))
        return dra::fail(*failure);
    return live;
}

// The names a self-signed certificate is made for: loopback, and where the server is reached
// from elsewhere (the address it listens on, the pod's host name in a cluster).
QStringList selfSignedHosts(const std::pair<QHostAddress, quint16> &listen, bool inCluster)
{
    QStringList hosts { QStringLiteral("127.0.0.1"), QStringLiteral("::1"),
        QStringLiteral("localhost") };
    if (!listen.first.isLoopback() && listen.first != QHostAddress::AnyIPv4
        && listen.first != QHostAddress::Any && listen.first != QHostAddress::AnyIPv6)
        hosts << listen.first.toString();
    if (inCluster && !QHostInfo::localHostName().isEmpty())
        hosts << QHostInfo::localHostName();
    return hosts;
}

} // namespace

int runServe(const QStringList &arguments)
{
    QStringList args = arguments;
    const std::optional<QString> demoPreset = takeDemoOption(args);
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption({ QStringLiteral("demo"),
        QStringLiteral("--demo[=PRESET]: serve a writable demo cluster seeded from PRESET "
                       "(default mixed).") });
    parser.addOption({ QStringLiteral("kubernetes-version"),
        QStringLiteral("With --demo: the Kubernetes release the demo cluster runs (1.%1 to 1.%2; "
                       "default the preset's).")
            .arg(release::kOldestModelledMinor)
            .arg(release::developmentReleaseMinor()),
        QStringLiteral("1.NN") });
    parser.addOption({ QStringLiteral("writable"),
        QStringLiteral("Accept writes to the cache (create, update, patch, apply, delete).") });
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOption({ QStringLiteral("in-cluster"),
        QStringLiteral(
            "Mirror the cluster this runs in, as a pod does: KUBERNETES_SERVICE_HOST/PORT "
            "and the service account's token (re-read when it rotates), CA and "
            "namespace. Listens on all interfaces unless --listen says otherwise.") });
    parser.addOption({ QStringLiteral("service-account-dir"),
        QStringLiteral("With --in-cluster: where the service account's token, ca.crt and namespace "
                       "are (default %1).")
            .arg(QString::fromLatin1(kube::kServiceAccountDir)),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("rollout-lease"),
        QStringLiteral("With --in-cluster: the coordination.k8s.io Lease whose holder alone drives "
                       "the state file's rollouts, so that an old and a new replica never both "
                       "do (default: draconsole-rollouts in the service account's namespace)."),
        QStringLiteral("namespace/name") });
    parser.addOption({ QStringLiteral("lease-duration"),
        QStringLiteral("With --in-cluster: seconds a replica's last renewal of the rollout Lease "
                       "keeps the others out (default 15; it renews every 2/15 of that and "
                       "stops driving after 2/3 without a renewal)."),
        QStringLiteral("seconds") });
    parser.addOption({ QStringLiteral("authn"),
        QStringLiteral("Who callers are: token (the server's own bearer token, one user) or "
                       "cluster (each caller's own token, reviewed by the live mirror's cluster "
                       "with TokenReview, every read authorised there with a "
                       "SubjectAccessReview, writes passed through with the caller's token). "
                       "Default: cluster with --in-cluster, else token."),
        QStringLiteral("token|cluster") });
    parser.addOptions(impersonationOptions());
    parser.addOption(workloadNamespacesOption());
    parser.addOption(stateOption());
    parser.addOption({ QStringLiteral("listen"),
        QStringLiteral("Address and port (default 127.0.0.1:6443; port 0 picks a free one)."),
        QStringLiteral("addr:port"), QStringLiteral("127.0.0.1:6443") });
    parser.addOption(
        { QStringLiteral("no-auth"), QStringLiteral("Accept requests without a bearer token.") });
    parser.addOption({ QStringLiteral("token-file"),
        QStringLiteral("Read the bearer token from this file."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("tls-cert"),
        QStringLiteral("Serve this PEM certificate (with --tls-key)."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("tls-key"),
        QStringLiteral("The PEM private key of --tls-cert."), QStringLiteral("file") });
    parser.addOption({ QStringLiteral("tls-dir"),
        QStringLiteral("Serve DIR/tls.crt with DIR/tls.key (a mounted kubernetes.io/tls Secret) "
                       "when they are there, else a self-signed certificate."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("client-ca"),
        QStringLiteral("Also accept client certificates signed by this PEM CA bundle (user = the "
                       "certificate's CN, groups = its O)."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("write-kubeconfig"),
        QStringLiteral("Write a kubeconfig for this server to this file."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("demo-service-account-dir"),
        QStringLiteral(
            "With --demo: write the token, ca.crt and namespace of the draconsole-mirror "
            "service account into this folder, as a pod mounts them, for a "
            "`dractl serve --in-cluster --service-account-dir` against the demo."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("web-root"),
        QStringLiteral("Serve the web console's files from this folder (a bundle built with "
                       "`node resources/web/build.mjs DIR --watch`) instead of the built-in one."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("max-connections"),
        QStringLiteral("Close connections past this many open at once (WebSockets included; "
                       "default: the open-file limit less room for the server's own files)."),
        QStringLiteral("n") });
    parser.addOption({ QStringLiteral("test-hooks"),
        QStringLiteral("Add the fault-injection endpoints listed above (loopback only).") });
    int exitCode = Ok;
    if (!parseOrExit(parser, args, describeCommand(), &exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty())
        return reportFailure(
            QStringLiteral("unexpected argument %1 (a demo preset goes as --demo=PRESET)")
                .arg(parser.positionalArguments().front()));
    if (parser.isSet(QStringLiteral("no-auth")) && parser.isSet(QStringLiteral("token-file")))
        return reportFailure(Error { Error::Code::Invalid,
            QStringLiteral("--no-auth and --token-file exclude each other") });
    if (parser.isSet(QStringLiteral("tls-cert")) != parser.isSet(QStringLiteral("tls-key")))
        return reportFailure(
            Error { Error::Code::Invalid, QStringLiteral("--tls-cert and --tls-key go together") });
    if (!demoPreset && parser.isSet(QStringLiteral("kubernetes-version")))
        return reportFailure(QStringLiteral(
            "--kubernetes-version chooses the release of a demo cluster (--demo); the other "
            "modes serve the release their cache records"));
    if (demoPreset) {
        bool known = false;
        for (const auto &[name, summary] : sandbox::presetNames())
            known = known || qs(name) == *demoPreset;
        if (!known)
            return reportFailure(
                QStringLiteral("--demo=%1: no such preset; `dractl serve --help` lists them")
                    .arg(*demoPreset));
    }

    std::optional<int> maxConnections;
    if (parser.isSet(QStringLiteral("max-connections"))) {
        bool ok = false;
        maxConnections = parser.value(QStringLiteral("max-connections")).toInt(&ok);
        if (!ok || *maxConnections < 1)
            return reportFailure(QStringLiteral("--max-connections %1: expected a positive number")
                                     .arg(parser.value(QStringLiteral("max-connections"))));
    }
    const bool inCluster = parser.isSet(QStringLiteral("in-cluster"));
    if (parser.isSet(QStringLiteral("service-account-dir")) && !inCluster)
        return reportFailure(QStringLiteral("--service-account-dir goes with --in-cluster"));
    if (inCluster
        && (parser.isSet(QStringLiteral("kubeconfig")) || parser.isSet(QStringLiteral("context"))))
        return reportFailure(QStringLiteral("--in-cluster reads the pod's service account; it "
                                            "excludes --kubeconfig and --context"));
    // In a pod the Service reaches the server on the pod's address, not on loopback.
    Result<std::pair<QHostAddress, quint16>> listen
        = parseListen(inCluster && !parser.isSet(QStringLiteral("listen"))
                ? QStringLiteral("0.0.0.0:6443")
                : parser.value(QStringLiteral("listen")));
    if (!listen)
        return reportFailure(listen.error());
    const bool testHooks = parser.isSet(QStringLiteral("test-hooks"));
    if (testHooks && !listen->first.isLoopback())
        return reportFailure(
            QStringLiteral("--test-hooks makes the server misbehave on purpose and is "
                           "only allowed on a loopback address, not %1")
                .arg(listen->first.toString()));
    const bool live = inCluster || parser.isSet(QStringLiteral("context"))
        || parser.isSet(QStringLiteral("kubeconfig"));
    if (live && (demoPreset || parser.isSet(QStringLiteral("writable"))))
        return reportFailure(
            QStringLiteral("a live mirror (--context/--kubeconfig) is read-only: it cannot be "
                           "combined with --demo or --writable"));
    const QString authn = parser.isSet(QStringLiteral("authn"))
        ? parser.value(QStringLiteral("authn"))
        : (inCluster ? QStringLiteral("cluster") : QStringLiteral("token"));
    if (authn != QLatin1String("token") && authn != QLatin1String("cluster"))
        return reportFailure(QStringLiteral("--authn %1: expected token or cluster").arg(authn));
    const bool delegated = authn == QLatin1String("cluster");
    if (delegated && !live)
        return reportFailure(
            QStringLiteral("--authn=cluster asks a live mirror's cluster who callers are; it needs "
                           "--in-cluster, --context or --kubeconfig"));
    if (delegated
        && (parser.isSet(QStringLiteral("no-auth")) || parser.isSet(QStringLiteral("token-file"))))
        return reportFailure(QStringLiteral("--authn=cluster takes each caller's own token; it "
                                            "excludes --no-auth and --token-file"));
    const StopOnSignal stopOnSignal;
    // Watchers and pages each hold a connection; the server's connection limit follows the
    // process's open-file limit (server::defaultMaxConnections), so take what the system allows.
    server::raiseOpenFileLimit();

    Result<std::optional<rollout::ClusterLeaseSetup>> rolloutLease
        = rolloutLeaseSetup(parser, inCluster);
    if (!rolloutLease)
        return reportFailure(rolloutLease.error());
    std::unique_ptr<kube::LiveMirror> mirror;
    std::shared_ptr<server::DelegatedAccess> delegatedAccess;
    const auto streams = std::make_shared<kube::StreamHealth>();
    std::optional<kube::ClientConfig> liveClient;
    if (live) {
        Result<kube::ClientConfig> client = liveClientConfig(parser);
        if (!client)
            return reportFailure(client.error());
        liveClient = *client;
        if (delegated) {
            Result<std::shared_ptr<server::DelegatedAccess>> access = delegateToCluster(*client);
            if (!access)
                return reportFailure(access.error());
            delegatedAccess = std::move(*access);
        }
        Result<std::unique_ptr<kube::LiveMirror>> started
            = startLiveMirror(parser, *client, streams);
        if (!started)
            return reportFailure(started.error());
        mirror = std::move(*started);
        if (StopOnSignal::requested()) {
            mirror->stop(kube::StreamState::Stale,
                QStringLiteral("dractl serve stopped before the initial sync"));
            out(QStringLiteral("Stopped.\n"));
            return Ok;
        }
    }
    const bool writable = demoPreset || parser.isSet(QStringLiteral("writable"));
    // The demo cluster makes its own cache (below); the other modes serve the one the options
    // name, which must be there before anything else is set up.
    std::optional<ServedCache> cache;
    if (!demoPreset) {
        Result<ServedCache> opened
            = openServedCache(parser, writable, mirror ? mirror->cluster() : std::string());
        if (!opened)
            return reportFailure(opened.error());
        cache = std::move(*opened);
    }

    const QString dir = serveDir();
    // The certificate to serve: --tls-cert, else one in --tls-dir (a Secret that may not be
    // mounted), else our own self-signed one.
    QString certificateFile = parser.value(QStringLiteral("tls-cert"));
    QString keyFile = parser.value(QStringLiteral("tls-key"));
    if (certificateFile.isEmpty() && parser.isSet(QStringLiteral("tls-dir"))) {
        const QDir tlsDir(parser.value(QStringLiteral("tls-dir")));
        if (QFileInfo::exists(tlsDir.filePath(QStringLiteral("tls.crt")))
            && QFileInfo::exists(tlsDir.filePath(QStringLiteral("tls.key")))) {
            certificateFile = tlsDir.filePath(QStringLiteral("tls.crt"));
            keyFile = tlsDir.filePath(QStringLiteral("tls.key"));
        }
    }
    Result<server::TlsIdentity> identity = !certificateFile.isEmpty()
        ? server::loadIdentity(certificateFile, keyFile)
        : server::loadOrCreateIdentity(dir, selfSignedHosts(*listen, inCluster));
    if (!identity)
        return reportFailure(identity.error());
    Result<QSslConfiguration> tls = identity->serverConfiguration();
    if (!tls)
        return reportFailure(tls.error());
    std::shared_ptr<const server::ClientCertificateAuthority> clientCa;
    if (parser.isSet(QStringLiteral("client-ca"))) {
        Result<server::ClientCertificateAuthority> loaded
            = server::ClientCertificateAuthority::load(parser.value(QStringLiteral("client-ca")));
        if (!loaded)
            return reportFailure(loaded.error());
        clientCa = std::make_shared<const server::ClientCertificateAuthority>(std::move(*loaded));
        // Ask every client for a certificate but let those without one use a token; the
        // certificate is verified against the CA per request.
        tls->setPeerVerifyMode(QSslSocket::QueryPeer);
        tls->setCaCertificates(clientCa->certificates());
    }
    std::string token;
    if (!parser.isSet(QStringLiteral("no-auth")) && !delegated) {
        const bool fromFile = parser.isSet(QStringLiteral("token-file"));
        Result<std::string> loaded = server::loadOrCreateToken(
            fromFile ? parser.value(QStringLiteral("token-file")) : dir + QStringLiteral("/token"),
            !fromFile);
        if (!loaded)
            return reportFailure(loaded.error());
        token = *loaded;
    }

    // The demo cluster runs its own server over its own cache.
    std::unique_ptr<sandbox::EmbeddedDemoCluster> demo;
    std::unique_ptr<server::ApiServer> ownApi;
    std::unique_ptr<server::HttpServer> ownHttp;
    if (demoPreset) {
        Result<std::unique_ptr<sandbox::EmbeddedDemoCluster>> created = createDemoCluster(
            parser, *demoPreset, *tls, identity->certificatePem, token, clientCa, *listen);
        if (!created)
            return reportFailure(created.error());
        demo = std::move(*created);
    } else {
        server::ApiServerOptions options;
        options.cluster = cache->cluster;
        options.token = token;
        options.writer = cache->writer ? &*cache->writer : nullptr;
        options.clientCa = clientCa;
        options.delegated = delegatedAccess;
        if (mirror) {
            options.kubernetesVersion = mirror->discovery().gitVersion.toStdString();
            for (const QString &version : mirror->discovery().resourceVersions)
                options.clusterResourceVersions.push_back(version.toStdString());
            options.readinessFailures = [streams, live = mirror.get()] {
                std::vector<std::string> failures = streams->unready();
                if (!live->initialSyncDone())
                    failures.insert(failures.begin(), "initial sync in progress");
                return failures;
            };
            options.moreMetrics = [streams] {
                return server::mirrorMetrics(*streams, QDateTime::currentMSecsSinceEpoch());
            };
        }
        ownApi = std::make_unique<server::ApiServer>(cache->reader, options);
        ownHttp = std::make_unique<server::HttpServer>(ownApi->handler());
        ownHttp->setTlsConfiguration(*tls);
    }
    server::ApiServer &api = demo ? demo->api() : *ownApi;
    server::HttpServer &http = demo ? demo->http() : *ownHttp;
    http.setExchangeObserver(api.exchangeObserver());
    if (maxConnections)
        http.setMaxConnections(*maxConnections);
    if (parser.isSet(QStringLiteral("web-root")))
        api.setWebConsoleFiles({ QDir(parser.value(QStringLiteral("web-root"))).absolutePath() });
    std::unique_ptr<server::TestHooks> hooks;
    if (testHooks) {
        hooks = std::make_unique<server::TestHooks>(api, http);
        api.setExtraHandler(std::string(server::test_hooks::kPrefix),
            [&hooks](server::Request &request, server::HttpConnection &connection) {
                return hooks->handle(request, connection);
            });
    }
    if (parser.isSet(QStringLiteral("demo-service-account-dir"))) {
        if (!demo)
            return reportFailure(QStringLiteral("--demo-service-account-dir goes with --demo"));
        if (Result<void> written = demo->writeServiceAccountDir(
                parser.value(QStringLiteral("demo-service-account-dir")));
            !written)
            return reportFailure(written.error());
        if (hooks) // as the kubelet rotates a projected token
            api.setExtraHandler(
                std::string(server::test_hooks::kPrefix) + "rotate-service-account-token",
                [&demo](server::Request &request, server::HttpConnection &connection) {
                    if (request.method != "POST")
                        return false;
                    Result<void> rotated = demo->rotateServiceAccountToken();
                    connection.respond(rotated ? server::jsonResponse(200, { { "rotated", true } })
                                               : server::status::fromError(rotated.error()));
                    return true;
                });
    }
    // The demo cluster's control plane starts with its server.
    if (Result<void> listening = demo ? demo->listen() : http.listen(listen->first, listen->second);
        !listening)
        return reportFailure(listening.error());

    const QString url = server::httpsUrl(listen->first, http.port());
    // A live mirror answers its probes while the initial sync runs (/readyz fails until it is
    // done); the rest of its start, and the lines below, follow the sync.
    if (mirror && !mirror->initialSyncDone()) {
        out(QStringLiteral("Listening at %1 during the initial sync (/livez ok, /readyz not yet)\n")
                .arg(url));
        std::fflush(stdout);
        if (std::optional<Error> failure = runMirrorUntil(*mirror, true))
            return reportFailure(*failure);
        if (StopOnSignal::requested()) {
            http.close();
            mirror->stop(kube::StreamState::Stale,
                QStringLiteral("dractl serve stopped before the initial sync"));
            out(QStringLiteral("Stopped.\n"));
            return Ok;
        }
    }
    const std::string context = demoPreset ? "demo" : "draconsole";
    // A demo cluster's rollouts are its own: unless --state names a file, they go to a temporary
    // one, never to the user's state file, whose rollouts drive real clusters.
    QTemporaryDir demoStateDir;
    Result<QString> rolloutState = demo && !parser.isSet(QStringLiteral("state"))
        ? Result<QString>(demoStateDir.filePath(QStringLiteral("state.db")))
        : statePath(parser);
    if (!rolloutState)
        return reportFailure(rolloutState.error());
    // The demo cluster's rollouts run here, so one started from the web console goes on by
    // itself; a `dractl rollout run` of the same rollout holds its lease and is followed. In a
    // cluster they run as the service account, by the replica that holds the rollout Lease.
    std::unique_ptr<rollout::RolloutHostThread> rollouts;
    if (inCluster && liveClient && *rolloutLease) {
        (*rolloutLease)->config = *liveClient;
        if ((*rolloutLease)->options.ns.empty())
            (*rolloutLease)->options.ns = liveClient->ns.toStdString();
        rollout::RolloutHostOptions hostOptions;
        hostOptions.controller.owner = rollout::ControllerOwner::thisProcess();
        rollouts = std::make_unique<rollout::RolloutHostThread>(*rolloutState,
            rollout::kubeClusterFactory(*liveClient, liveRestOptions().userAgent.toStdString()),
            std::move(hostOptions), std::move(*rolloutLease));
    } else if (demo) {
        Result<rollout::HostedClusterFactory> self
            = selfClusterFactory(url.toStdString(), identity->certificatePem, token, context);
        if (!self)
            return reportFailure(self.error());
        rollout::RolloutHostOptions hostOptions;
        hostOptions.controller.tickMs = 2'000;
        hostOptions.controller.owner = rollout::ControllerOwner::thisProcess();
        rollouts = std::make_unique<rollout::RolloutHostThread>(
            *rolloutState, std::move(*self), std::move(hostOptions));
    }
    api.consoleApi().rollouts().configure(*rolloutState, rollouts ? rollouts->host() : nullptr);
    QString kubeconfigNote;
    if (parser.isSet(QStringLiteral("write-kubeconfig"))) {
        const QString path = parser.value(QStringLiteral("write-kubeconfig"));
        // A demo cluster's users each get a context: its admin first (current), then the team
        // member and the viewer its Roles and bindings describe.
        std::vector<server::KubeconfigContext> contexts { { context, token, {} } };
        QStringList names { qs(context) };
        if (demo)
            for (const sandbox::DemoUserToken &user : demo->userTokens()) {
                contexts.push_back({ user.context, user.token, user.ns });
                names << qs(user.context);
            }
        const QByteArray text
            = server::kubeconfigText(url.toStdString(), identity->certificatePem, contexts);
        if (Result<void> written = server::writePrivateFile(path, text); !written)
            return reportFailure(written.error());
        const QString others = names.size() > 1
            ? QStringLiteral("; also contexts %1").arg(names.mid(1).join(QStringLiteral(", ")))
            : QString();
        kubeconfigNote = QStringLiteral("kubeconfig: %1 (context %2%3; kubectl --kubeconfig %1 "
                                        "get resourceslices)\n")
                             .arg(path, qs(context), others);
        if (delegatedAccess)
            kubeconfigNote = QStringLiteral(
                "kubeconfig: %1 (context %2, without credentials: each user adds their own, "
                "e.g. kubectl --kubeconfig %1 --token \"$TOKEN\" get resourceslices)\n")
                                 .arg(path, qs(context));
    } else {
        kubeconfigNote
            = QStringLiteral("kubeconfig: none written; add --write-kubeconfig FILE to get one\n");
    }
    const QString what = demoPreset
        ? QStringLiteral("the %1 demo cluster (%2)")
              .arg(*demoPreset,
                  demo->temporaryCache() ? QStringLiteral("a temporary cache") : demo->cachePath())
        : QStringLiteral("%1 (cluster %2)").arg(cache->reader.path(), qs(cache->cluster));
    const QString mode = mirror && inCluster
        ? QStringLiteral("live mirror of the cluster this pod runs in (service account %1), "
                         "read-only")
              .arg(parser.isSet(QStringLiteral("service-account-dir"))
                      ? parser.value(QStringLiteral("service-account-dir"))
                      : QString::fromLatin1(kube::kServiceAccountDir))
        : mirror ? QStringLiteral("live mirror of context %1, read-only")
                       .arg(parser.value(QStringLiteral("context")).isEmpty()
                               ? qs(mirror->cluster())
                               : parser.value(QStringLiteral("context")))
        : demoPreset
        ? QStringLiteral("demo cluster, writable")
        : (writable ? QStringLiteral("writable") : QStringLiteral("offline, read-only"));
    out(QStringLiteral("Serving %1 at %2\n").arg(what, url));
    out(QStringLiteral(
        "mode: %1\nKubernetes: %2\nport: %3 (at most %5 connections at once)\nauth: %4\n")
            .arg(mode, qs(api.servedApi().gitVersion()))
            .arg(http.port())
            .arg((delegatedAccess ? QStringLiteral(
                      "each caller's own bearer token, reviewed by %1 (TokenReview); "
                      "every read authorised there (SubjectAccessReview); writes "
                      "passed through to it with the caller's token")
                                        .arg(delegatedAccess->cluster().describe())
                         : token.empty() ? QStringLiteral("none (--no-auth)")
                         : demo          ? QStringLiteral("bearer tokens of the demo's users, each "
                                                                   "authorised by the cluster's RBAC")
                                         : QStringLiteral("bearer token"))
                + (clientCa ? QStringLiteral(", client certificates of %1")
                                  .arg(parser.value(QStringLiteral("client-ca")))
                            : QString()))
            .arg(http.maxConnections()));
    out(!certificateFile.isEmpty()
            ? QStringLiteral("tls: certificate %1\n").arg(certificateFile)
            : QStringLiteral("tls: self-signed certificate %1/serve.crt (%2); clients must trust "
                             "it, as the written kubeconfig does\n")
                  .arg(dir,
                      parser.isSet(QStringLiteral("tls-dir"))
                          ? QStringLiteral("no tls.crt and tls.key in %1")
                                .arg(parser.value(QStringLiteral("tls-dir")))
                          : QStringLiteral("no --tls-cert")));
    if (demo)
        out(QStringLiteral("control plane: Deployments get pods, pods get devices and answer HTTP "
                           "on loopback; faults: %1%2 (dractl sandbox fault ...; kinds: %3)\n")
                .arg(url, qs(sandbox::kFaultsPath), qs(sandbox::faultKindNames())));
    if (testHooks)
        out(QStringLiteral(
            "test hooks: POST "
            "%1%2{drop-watches,compact,expire-continue,restart,restore,too-large-wait%3}\n")
                .arg(url, qs(server::test_hooks::kPrefix),
                    parser.isSet(QStringLiteral("demo-service-account-dir"))
                        ? QStringLiteral(",rotate-service-account-token")
                        : QString()));
    // The fragment never reaches the server; the page keeps the token for the tab and takes it
    // out of the address bar, leaving the route.
    out(QStringLiteral("web console: %1/ui/#/overview%2\n")
            .arg(url, token.empty() ? QString() : QStringLiteral("?token=") + qs(token)));
    out(kubeconfigNote);
    out(QStringLiteral("rollouts: state file %1 (%2; dractl rollout status --state %1)\n")
            .arg(*rolloutState, rolloutDriver(rollouts.get())));
    std::fflush(stdout); // whoever started us (a script, a test) waits for these lines

    QCoreApplication::exec();
    rollouts.reset(); // its controllers stop (leases released) while the server still answers
    http.close();
    if (mirror) {
        mirror->stop(kube::StreamState::Stale,
            QStringLiteral("dractl serve stopped at %1")
                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)));
    }
    out(QStringLiteral("Stopped.\n"));
    return Ok;
}

namespace {
const CommandRegistration serveRegistration(
    { "serve", "Serve the cache as a Kubernetes API (kubectl works against it)", runServe, 70 });
} // namespace

} // namespace dra::cli
