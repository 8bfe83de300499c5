// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench sync: the initial sync of a large demo inventory from `dractl serve` over
// loopback TLS into a cache, against `dractl import` of the same objects from a file (the
// target: at most 1.5x) and `kubectl get resourceslices -o json` on the same server.
#include <atomic>
#include <chrono>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <nlohmann/json.hpp>

#include "app/dractl/commands/bench_timing.h"
#include "app/dractl/cli.h"
#include "core/common/json_text.h"
#include "core/kube/mirror.h"
#include "core/kube/rest_client.h"
#include "core/model/kind.h"
#include "core/sandbox/demo_cluster.h"
#include "core/store/cache_db.h"
#include "core/store/store.h"

namespace dra::cli {

namespace {

using SteadyClock = std::chrono::steady_clock;
using common::Error;

// Linux keeps the peak resident size in VmHWM; writing 5 to clear_refs resets it, so the peak
// of one phase can be told from what came before it (seeding the served cache).
void resetPeakMemory()
{
    QFile refs(QStringLiteral("/proc/self/clear_refs"));
    if (refs.open(QIODevice::WriteOnly))
        refs.write("5");
}

double peakMemoryMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return 0;
}

// `dractl serve` on a free loopback port, with a kubeconfig for it.
class BenchApiServer
{
public:
    Result<void> start(const QString &dractl, const QString &cache, const QString &dir)
    {
        m_kubeconfig = dir + QStringLiteral("/bench.kubeconfig");
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
            dir + QStringLiteral("/config")); // its own key and token
        m_process.setProcessEnvironment(environment);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(dractl,
            { QStringLiteral("serve"), QStringLiteral("--cache"), cache,
                QStringLiteral("--cluster"),
                QString::fromLatin1(
                    sandbox::kDemoCluster.data(), qsizetype(sandbox::kDemoCluster.size())),
                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                QStringLiteral("--write-kubeconfig"), m_kubeconfig });
        QByteArray output;
        while (!output.contains("kubeconfig:")) {
            if (!m_process.waitForReadyRead(60 * 1000))
                return dra::fail(Error::Code::Internal,
                    QStringLiteral("dractl serve did not start: %1")
                        .arg(QString::fromUtf8(output)));
            output += m_process.readAllStandardOutput();
        }
        return {};
    }

    ~BenchApiServer()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10 * 1000))
            m_process.kill();
    }

    const QString &kubeconfig() const { return m_kubeconfig; }

private:
    QProcess m_process;
    QString m_kubeconfig;
};

struct SyncFigures
{
    double seconds = 0;
    int64_t objects = 0;
    double peakMiB = 0;
};

// One initial sync of `kinds` (empty: all) into a fresh cache, through the store thread.
Result<SyncFigures> timeSync(
    const QString &kubeconfig, const QString &cacheFile, const std::vector<model::Kind> &kinds)
{
    Result<kube::Kubeconfig> config = kube::readKubeconfigFile(kubeconfig);
    if (!config)
        return dra::fail(config.error());
    Result<kube::ClientConfig> client = kube::resolveContext(*config, {});
    if (!client)
        return dra::fail(client.error());
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(cacheFile + suffix);
    Result<store::CacheDb> cache = store::CacheDb::open(cacheFile, store::OpenMode::ReadWrite);
    if (!cache)
        return dra::fail(cache.error());

    resetPeakMemory();
    const SteadyClock::time_point start = SteadyClock::now();
    QThread storeThread;
    auto *storeObject = new store::Store(std::move(*cache));
    storeObject->moveToThread(&storeThread);
    QObject::connect(&storeThread, &QThread::finished, storeObject, &QObject::deleteLater);
    storeThread.start();
    kube::RestClient rest(*client);
    kube::MirrorOptions options;
    options.cluster = "bench";
    options.kinds = kinds;
    kube::Mirror mirror(rest, options);
    int emitted = 0;
    std::atomic<int> settled { 0 };
    std::optional<Error> failure;
    bool synced = false;
    QObject::connect(&mirror, &kube::Mirror::batchReady, storeObject, &store::Store::enqueue);
    QObject::connect(&mirror, &kube::Mirror::batchReady, &mirror, [&] { ++emitted; });
    QObject::connect(storeObject, &store::Store::committed, &mirror, [&] { ++settled; });
    QObject::connect(storeObject, &store::Store::failed, &mirror, [&](const Error &error) {
        failure = error;
        ++settled;
    });
    QObject::connect(&mirror, &kube::Mirror::initialSynced, &mirror, [&] { synced = true; });
    mirror.start();
    while ((!synced || settled.load() < emitted) && !failure && secondsSince(start) < 1800)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    SyncFigures figures;
    figures.seconds = secondsSince(start);
    figures.peakMiB = peakMemoryMiB();
    for (const kube::StreamStatus &stream : mirror.streams())
        figures.objects += stream.objects;
    mirror.stop();
    storeThread.quit();
    storeThread.wait();
    if (failure)
        return dra::fail(*failure);
    if (!synced)
        return dra::fail(Error::Code::Internal, QStringLiteral("the initial sync did not finish"));
    return figures;
}

// Seconds `kubectl get resourceslices -o json` takes against the server; -1 without kubectl.
double timeKubectl(const QString &kubectl, const QString &kubeconfig, const QString &dir)
{
    if (QStandardPaths::findExecutable(kubectl).isEmpty() && !QFile::exists(kubectl))
        return -1;
    QProcess process;
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setProcessChannelMode(QProcess::SeparateChannels);
    const SteadyClock::time_point start = SteadyClock::now();
    // A fresh discovery cache, so kubectl does what it does against a new cluster.
    process.start(kubectl,
        { QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--cache-dir"),
            dir + QStringLiteral("/kubectl-cache"), QStringLiteral("get"),
            QStringLiteral("resourceslices"), QStringLiteral("-o"), QStringLiteral("json") });
    if (!process.waitForFinished(30 * 60 * 1000) || process.exitCode() != 0) {
        err(QStringLiteral("bench sync: kubectl failed: %1\n")
                .arg(QString::fromUtf8(process.readAllStandardError())));
        return -1;
    }
    return secondsSince(start);
}

// The floor of the initial sync: the objects it mirrors, exported from the served cache to one
// JSON file, then `dractl import` of that file into a fresh cache (a process of its own, like
// the sync's server). Seconds of the import; the objects it imported through `objects`.
Result<double> timeImport(const QString &dractl, const QString &served, const QString &dir)
{
    QStringList exportArguments { QStringLiteral("export"), QStringLiteral("--cache"), served,
        QStringLiteral("--cluster"),
        QString::fromLatin1(sandbox::kDemoCluster.data(), qsizetype(sandbox::kDemoCluster.size())),
        QStringLiteral("-o"), QStringLiteral("json") };
    for (const model::KindInfo &kind : model::allKinds()) {
        if (!model::isWorkloadKind(kind.kind)) // what the mirror syncs by default
            exportArguments << QStringLiteral("--kind") << common::qs(kind.name);
    }
    const QString file = dir + QStringLiteral("/objects.json");
    QProcess exporter;
    exporter.setStandardOutputFile(file);
    exporter.start(dractl, exportArguments);
    if (!exporter.waitForFinished(10 * 60 * 1000) || exporter.exitCode() != 0)
        return dra::fail(Error::Code::Internal,
            QStringLiteral("dractl export failed: %1")
                .arg(QString::fromUtf8(exporter.readAllStandardError())));

    const QString cache = dir + QStringLiteral("/imported.db");
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(cache + suffix);
    QProcess importer;
    importer.setStandardOutputFile(QProcess::nullDevice());
    const SteadyClock::time_point start = SteadyClock::now();
    importer.start(dractl,
        { QStringLiteral("import"), QStringLiteral("--cache"), cache, QStringLiteral("--cluster"),
            QStringLiteral("bench"), file });
    if (!importer.waitForFinished(30 * 60 * 1000) || importer.exitCode() != 0)
        return dra::fail(Error::Code::Internal,
            QStringLiteral("dractl import failed: %1")
                .arg(QString::fromUtf8(importer.readAllStandardError())));
    return secondsSince(start);
}

} // namespace

int runBenchSync(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(
        { QStringLiteral("nodes"), QStringLiteral("Nodes of the scale inventory (default 5000)."),
            QStringLiteral("n"), QStringLiteral("5000") });
    parser.addOption({ QStringLiteral("preset"), QStringLiteral("Demo preset (default scale)."),
        QStringLiteral("name"), QStringLiteral("scale") });
    parser.addOption({ QStringLiteral("kubectl"),
        QStringLiteral("The kubectl to compare with (default: kubectl on PATH)."),
        QStringLiteral("path"), QStringLiteral("kubectl") });
    parser.addOption({ QStringLiteral("dir"),
        QStringLiteral("Work folder (default: a temporary one)."), QStringLiteral("dir") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Serve a demo inventory with `dractl serve` over loopback TLS and time an "
                "initial sync of it into a cache (all kinds, then ResourceSlices only), against "
                "`dractl import` of the same objects from a file and `kubectl get resourceslices "
                "-o json` against the same server. Prints one JSON "
                "line."),
            &exitCode))
        return exitCode;
    bool ok = false;
    const int nodes = parser.value(QStringLiteral("nodes")).toInt(&ok);
    if (!ok || nodes <= 0)
        return reportFailure(QStringLiteral("--nodes: expected a positive number"));

    QTemporaryDir temporary;
    const QString dir = parser.isSet(QStringLiteral("dir")) ? parser.value(QStringLiteral("dir"))
                                                            : temporary.path();
    QDir().mkpath(dir);
    const QString served = dir + QStringLiteral("/served.db");
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(served + suffix);
    {
        Result<store::CacheDb> writer = store::CacheDb::open(served, store::OpenMode::ReadWrite);
        if (!writer)
            return reportFailure(writer.error());
        sandbox::PresetOptions preset;
        preset.preset = parser.value(QStringLiteral("preset")).toStdString();
        preset.nodes = nodes;
        if (Result<void> seeded
            = sandbox::seedDemoCache(*writer, std::string(sandbox::kDemoCluster), preset);
            !seeded)
            return reportFailure(seeded.error());
    }
    BenchApiServer server;
    if (Result<void> started = server.start(QCoreApplication::applicationFilePath(), served, dir);
        !started)
        return reportFailure(started.error());

    Result<SyncFigures> all = timeSync(server.kubeconfig(), dir + QStringLiteral("/mirror.db"), {});
    if (!all)
        return reportFailure(all.error());
    Result<SyncFigures> slices = timeSync(server.kubeconfig(),
        dir + QStringLiteral("/mirror-slices.db"), { model::Kind::ResourceSlice });
    if (!slices)
        return reportFailure(slices.error());
    const double kubectl
        = timeKubectl(parser.value(QStringLiteral("kubectl")), server.kubeconfig(), dir);
    Result<double> imported = timeImport(QCoreApplication::applicationFilePath(), served, dir);
    if (!imported)
        return reportFailure(imported.error());

    nlohmann::json result = { { "bench", "sync" }, { "nodes", nodes }, { "objects", all->objects },
        { "wall_s", all->seconds },
        { "objects_per_s", all->seconds > 0 ? double(all->objects) / all->seconds : 0.0 },
        { "peak_rss_mib", all->peakMiB }, { "slices", slices->objects },
        { "slices_wall_s", slices->seconds }, { "slices_peak_rss_mib", slices->peakMiB },
        { "import_s", *imported }, { "sync_vs_import", all->seconds / *imported },
        { "target_met", all->seconds <= 1.5 * *imported } };
    if (kubectl >= 0) {
        result["kubectl_get_resourceslices_s"] = kubectl;
        result["slices_vs_kubectl"] = slices->seconds / kubectl;
    }
    out(common::compactJson(result) + "\n");
    return Ok;
}

namespace {
const CommandRegistration benchSyncRegistration({ .path = "bench sync",
    .summary = "initial sync of a served demo inventory vs kubectl get",
    .run = runBenchSync,
    .order = 30 });
} // namespace

} // namespace dra::cli
