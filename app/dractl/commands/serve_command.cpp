// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl serve: the cache as a Kubernetes API over TLS with a token; read-only (offline mode),
// writable (--writable), or as a demo cluster seeded from a preset (--demo).
#include <cstdio>
#include <optional>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/live_mirror.h"
#include "app/dractl/commands/stop_signal.h"
#include "core/common/json_text.h"
#include "core/kube/clock.h"
#include "core/sandbox/control_plane.h"
#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/service_proxy.h"
#include "core/sandbox/fault_endpoint.h"
#include "core/sandbox/sandbox_faults.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
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

QString urlHost(const QHostAddress &address)
{
    if (address.protocol() == QAbstractSocket::IPv6Protocol)
        return QLatin1Char('[') + address.toString() + QLatin1Char(']');
    return address.toString();
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
        "  --demo[=PRESET]    a demo cluster (Kubernetes %1) seeded from PRESET (default\n"
        "                     mixed) in a fresh cache in a temporary folder, or in --cache FILE\n"
        "                     (kept across restarts); writable\n\n"
        "Presets:\n%2\n"
        "--test-hooks adds endpoints that make the server misbehave on purpose, for tests of\n"
        "clients; each is a POST with the bearer token, and only on loopback addresses:\n"
        "  %3      end every open watch\n"
        "  %4           forget the history: resumed watches and old continue tokens get 410\n"
        "  %5   expire every continue token handed out so far\n"
        "  %6[?downMillis=500]  drop every connection, refuse connections for a while,\n"
        "                     then serve again, as an API server restart does")
        .arg(qs(sandbox::kDemoKubernetesVersion), presets, qs(server::test_hooks::kDropWatches),
            qs(server::test_hooks::kCompact), qs(server::test_hooks::kExpireContinue),
            qs(server::test_hooks::kRestart));
}

// The caches a serve reads and (when writable) writes; the temporary folder of a demo cache
// goes away with it.
struct ServedCache
{
    std::unique_ptr<QTemporaryDir> folder;
    std::optional<store::CacheDb> writer;
    store::CacheDb reader;
    std::string cluster;
};

Result<ServedCache> openServedCache(const QCommandLineParser &parser,
    const std::optional<QString> &demoPreset, bool writable, const std::string &liveCluster = {})
{
    ServedCache served;
    QString path = cachePath(parser);
    if (demoPreset) {
        if (!parser.isSet(QStringLiteral("cache"))) {
            served.folder = std::make_unique<QTemporaryDir>();
            if (!served.folder->isValid())
                return dra::fail(Error::Code::Internal,
                    QStringLiteral("cannot make a temporary folder for the demo cache: %1")
                        .arg(served.folder->errorString()));
            path = served.folder->filePath(QStringLiteral("cache.db"));
        }
        if (const QString dir = QFileInfo(path).absolutePath(); !QDir().mkpath(dir))
            return dra::fail(Error::Code::Internal, QStringLiteral("cannot create %1").arg(dir));
    } else if (!QFileInfo::exists(path)) {
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1: no cache yet; fill it with `dractl import FILE...`, or serve a "
                           "demo cluster with --demo")
                .arg(path));
    }
    if (demoPreset || writable) {
        Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        if (!writer)
            return dra::fail(writer.error());
        served.writer.emplace(std::move(*writer));
    }
    if (demoPreset) {
        served.cluster = parser.isSet(QStringLiteral("cluster"))
            ? parser.value(QStringLiteral("cluster")).toStdString()
            : std::string(sandbox::kDemoCluster);
        sandbox::PresetOptions preset;
        preset.preset = demoPreset->toStdString();
        if (Result<void> seeded = sandbox::seedDemoCache(*served.writer, served.cluster, preset);
            !seeded)
            return dra::fail(seeded.error());
    }
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!reader)
        return dra::fail(reader.error());
    served.reader = std::move(*reader);
    if (!liveCluster.empty()) {
        served.cluster = liveCluster;
    } else if (!demoPreset) {
        Result<std::string> cluster = chooseCluster(served.reader, parser);
        if (!cluster)
            return dra::fail(cluster.error());
        served.cluster = *cluster;
    }
    return served;
}

// Starts mirroring the context the options name into the cache and runs the event loop until
// the initial sync is done (or a stop signal), so the server starts with complete lists.
Result<std::unique_ptr<LiveMirror>> startLiveMirror(const QCommandLineParser &parser)
{
    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return dra::fail(config.error());
    const std::string cluster = parser.isSet(QStringLiteral("cluster"))
        ? parser.value(QStringLiteral("cluster")).toStdString()
        : config->context.toStdString();
    const QString cacheFile = cachePath(parser);
    QDir().mkpath(QFileInfo(cacheFile).absolutePath());
    Result<store::CacheDb> cache = store::CacheDb::open(cacheFile, store::OpenMode::ReadWrite);
    if (!cache)
        return dra::fail(cache.error());
    kube::MirrorOptions options;
    options.cluster = cluster;
    options.workloadNamespaces = workloadNamespacesFrom(parser);
    options.resumeFrom = kube::resumePointsOf(*cache, cluster);
    kube::RestOptions restOptions;
    restOptions.userAgent = "dractl/" DRA_VERSION " (linux) draconsole serve";
    restOptions.exec = execOptionsForTerminal();
    auto live = std::make_unique<LiveMirror>(*config, restOptions, std::move(*cache), options);
    const QString describe = config->describe();
    QObject::connect(&live->mirror(), &kube::Mirror::discovered, &live->mirror(),
        [describe, cacheFile](const kube::ApiDiscovery &discovery) {
            out(QStringLiteral("Mirroring %1 into %2: Kubernetes %3\n")
                    .arg(describe, cacheFile,
                        discovery.gitVersion.isEmpty() ? QStringLiteral("(unknown version)") : discovery.gitVersion));
            std::fflush(stdout);
        });
    QObject::connect(&live->mirror(), &kube::Mirror::streamChanged, &live->mirror(),
        [](const kube::StreamStatus &status) {
            if (status.state == kube::StreamState::Forbidden || status.state == kube::StreamState::Error)
                err(QStringLiteral("  %1: %2: %3\n")
                        .arg(status.label(), qs(kube::streamStateName(status.state)), status.reason));
        });
    QObject::connect(&live->mirror(), &kube::Mirror::notice, &live->mirror(),
        [](const Error &error) { err(QStringLiteral("note: ") + error.message + QLatin1Char('\n')); });
    QObject::connect(&live->mirror(), &kube::Mirror::initialSynced, &live->mirror(),
        [] { QCoreApplication::quit(); });
    live->start();
    QCoreApplication::exec();
    return live;
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
    parser.addOption({ QStringLiteral("writable"),
        QStringLiteral("Accept writes to the cache (create, update, patch, apply, delete).") });
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOption(workloadNamespacesOption());
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
    parser.addOption({ QStringLiteral("client-ca"),
        QStringLiteral("Also accept client certificates signed by this PEM CA bundle (user = the "
                       "certificate's CN, groups = its O)."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("write-kubeconfig"),
        QStringLiteral("Write a kubeconfig for this server to this file."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("test-hooks"),
        QStringLiteral("Add the fault-injection endpoints listed above (loopback only).") });
    int exitCode = Ok;
    if (!parseOrExit(parser, args, describeCommand(), &exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument %1 (a demo preset goes as --demo=PRESET)")
                        .arg(parser.positionalArguments().front()));
    if (parser.isSet(QStringLiteral("no-auth")) && parser.isSet(QStringLiteral("token-file")))
        return fail(Error { Error::Code::Invalid,
            QStringLiteral("--no-auth and --token-file exclude each other") });
    if (parser.isSet(QStringLiteral("tls-cert")) != parser.isSet(QStringLiteral("tls-key")))
        return fail(
            Error { Error::Code::Invalid, QStringLiteral("--tls-cert and --tls-key go together") });
    if (demoPreset) {
        bool known = false;
        for (const auto &[name, summary] : sandbox::presetNames())
            known = known || qs(name) == *demoPreset;
        if (!known)
            return fail(QStringLiteral("--demo=%1: no such preset; `dractl serve --help` lists them")
                            .arg(*demoPreset));
    }

    Result<std::pair<QHostAddress, quint16>> listen
        = parseListen(parser.value(QStringLiteral("listen")));
    if (!listen)
        return fail(listen.error());
    const bool testHooks = parser.isSet(QStringLiteral("test-hooks"));
    if (testHooks && !listen->first.isLoopback())
        return fail(QStringLiteral("--test-hooks makes the server misbehave on purpose and is "
                                   "only allowed on a loopback address, not %1")
                        .arg(listen->first.toString()));
    const bool live = parser.isSet(QStringLiteral("context")) || parser.isSet(QStringLiteral("kubeconfig"));
    if (live && (demoPreset || parser.isSet(QStringLiteral("writable"))))
        return fail(QStringLiteral("a live mirror (--context/--kubeconfig) is read-only: it cannot be "
                                   "combined with --demo or --writable"));
    const StopOnSignal stopOnSignal;

    std::unique_ptr<LiveMirror> mirror;
    if (live) {
        Result<std::unique_ptr<LiveMirror>> started = startLiveMirror(parser);
        if (!started)
            return fail(started.error());
        mirror = std::move(*started);
        if (StopOnSignal::requested()) {
            mirror->stop(kube::StreamState::Stale, QStringLiteral("dractl serve stopped before the initial sync"));
            out(QStringLiteral("Stopped.\n"));
            return Ok;
        }
    }
    const bool writable = demoPreset || parser.isSet(QStringLiteral("writable"));
    Result<ServedCache> cache
        = openServedCache(parser, demoPreset, writable, mirror ? mirror->cluster() : std::string());
    if (!cache)
        return fail(cache.error());

    const QString dir = serveDir();
    Result<server::TlsIdentity> identity = parser.isSet(QStringLiteral("tls-cert"))
        ? server::loadIdentity(
            parser.value(QStringLiteral("tls-cert")), parser.value(QStringLiteral("tls-key")))
        : server::loadOrCreateIdentity(dir,
            { QStringLiteral("127.0.0.1"), QStringLiteral("::1"), QStringLiteral("localhost") });
    if (!identity)
        return fail(identity.error());
    Result<QSslConfiguration> tls = identity->serverConfiguration();
    if (!tls)
        return fail(tls.error());
    std::shared_ptr<const server::ClientCertificateAuthority> clientCa;
    if (parser.isSet(QStringLiteral("client-ca"))) {
        Result<server::ClientCertificateAuthority> loaded
            = server::ClientCertificateAuthority::load(parser.value(QStringLiteral("client-ca")));
        if (!loaded)
            return fail(loaded.error());
        clientCa = std::make_shared<const server::ClientCertificateAuthority>(std::move(*loaded));
        // Ask every client for a certificate but let those without one use a token; the
        // certificate is verified against the CA per request.
        tls->setPeerVerifyMode(QSslSocket::QueryPeer);
        tls->setCaCertificates(clientCa->certificates());
    }
    std::string token;
    if (!parser.isSet(QStringLiteral("no-auth"))) {
        const bool fromFile = parser.isSet(QStringLiteral("token-file"));
        Result<std::string> loaded = server::loadOrCreateToken(
            fromFile ? parser.value(QStringLiteral("token-file")) : dir + QStringLiteral("/token"),
            !fromFile);
        if (!loaded)
            return fail(loaded.error());
        token = *loaded;
    }

    server::ApiServerOptions options;
    options.cluster = cache->cluster;
    options.token = token;
    options.writer = cache->writer ? &*cache->writer : nullptr;
    options.clientCa = clientCa;
    if (mirror)
        options.kubernetesVersion = mirror->mirror().discovery().gitVersion.toStdString();
    server::ApiServer api(cache->reader, options);
    server::HttpServer http(api.handler());
    http.setTlsConfiguration(*tls);
    std::unique_ptr<server::TestHooks> hooks;
    if (testHooks) {
        hooks = std::make_unique<server::TestHooks>(api, http);
        api.setExtraHandler(std::string(server::test_hooks::kPrefix),
            [&hooks](server::Request &request, server::HttpConnection &connection) {
                return hooks->handle(request, connection);
            });
    }
    // The demo cluster acts on what clients write: Deployments get pods, pods get devices.
    std::unique_ptr<server::ObjectWriter> demoWriter;
    std::unique_ptr<sandbox::ControlPlane> controlPlane;
    if (demoPreset) {
        demoWriter = std::make_unique<server::ObjectWriter>(*cache->writer, cache->cluster);
        controlPlane = std::make_unique<sandbox::ControlPlane>(*demoWriter, kube::Clock::system());
        controlPlane->setCommittedCallback([&api] { api.watchHub().poll(); });
        api.setExtraHandler(std::string(sandbox::kSandboxApiPrefix),
            [&controlPlane](server::Request &request, server::HttpConnection &connection) {
                return sandbox::handleFaultRequest(*controlPlane, request, connection);
            });
        // Services' proxy subresource: how a rollout's gates reach the demo Prometheus.
        api.setExtraHandler(std::string(sandbox::kNamespacedCorePrefix),
            [&controlPlane](server::Request &request, server::HttpConnection &connection) {
                return sandbox::handleServiceProxy(*controlPlane, request, connection);
            });
    }
    if (Result<void> listening = http.listen(listen->first, listen->second); !listening)
        return fail(listening.error());
    if (controlPlane)
        controlPlane->start();

    const QString url
        = QStringLiteral("https://%1:%2").arg(urlHost(listen->first)).arg(http.port());
    const std::string context = demoPreset ? "demo" : "draconsole";
    QString kubeconfigNote;
    if (parser.isSet(QStringLiteral("write-kubeconfig"))) {
        const QString path = parser.value(QStringLiteral("write-kubeconfig"));
        const QByteArray text = server::kubeconfigText(
            url.toStdString(), identity->certificatePem, token, context);
        if (Result<void> written = server::writePrivateFile(path, text); !written)
            return fail(written.error());
        kubeconfigNote = QStringLiteral("kubeconfig: %1 (context %2; kubectl --kubeconfig %1 get "
                                        "resourceslices)\n")
                             .arg(path, qs(context));
    } else {
        kubeconfigNote
            = QStringLiteral("kubeconfig: none written; add --write-kubeconfig FILE to get one\n");
    }
    const QString what = demoPreset
        ? QStringLiteral("the %1 demo cluster (%2)")
              .arg(*demoPreset,
                  cache->folder ? QStringLiteral("a temporary cache") : cache->reader.path())
        : QStringLiteral("%1 (cluster %2)").arg(cache->reader.path(), qs(cache->cluster));
    const QString mode = mirror
        ? QStringLiteral("live mirror of context %1, read-only").arg(parser.value(QStringLiteral("context")).isEmpty()
                ? qs(mirror->cluster()) : parser.value(QStringLiteral("context")))
        : demoPreset
        ? QStringLiteral("demo cluster, writable")
        : (writable ? QStringLiteral("writable") : QStringLiteral("offline, read-only"));
    out(QStringLiteral("Serving %1 at %2\n").arg(what, url));
    out(QStringLiteral("mode: %1\nKubernetes: %2\nport: %3\nauth: %4\n")
            .arg(mode, qs(api.servedApi().gitVersion()))
            .arg(http.port())
            .arg((token.empty() ? QStringLiteral("none (--no-auth)") : QStringLiteral("bearer token"))
                + (clientCa ? QStringLiteral(", client certificates of %1")
                                  .arg(parser.value(QStringLiteral("client-ca")))
                            : QString())));
    if (controlPlane)
        out(QStringLiteral("control plane: Deployments get pods, pods get devices and answer HTTP "
                           "on loopback; faults: %1%2 (dractl sandbox fault ...; kinds: %3)\n")
                .arg(url, qs(sandbox::kFaultsPath), qs(sandbox::faultKindNames())));
    if (testHooks)
        out(QStringLiteral("test hooks: POST %1%2{drop-watches,compact,expire-continue,restart}\n")
                .arg(url, qs(server::test_hooks::kPrefix)));
    out(kubeconfigNote);
    std::fflush(stdout); // whoever started us (a script, a test) waits for these lines

    QCoreApplication::exec();
    http.close();
    if (mirror) {
        mirror->stop(kube::StreamState::Stale, QStringLiteral("dractl serve stopped at %1")
                         .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)));
    }
    out(QStringLiteral("Stopped.\n"));
    return Ok;
}

namespace {
const CommandRegistration serveRegistration({"serve", "Serve the cache as a Kubernetes API (kubectl works against it)", runServe, 70});
} // namespace

} // namespace dra::cli
