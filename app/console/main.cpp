// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// draconsole: the desktop console. Parses the command line, starts the session and the window;
// everything else lives in views/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QIcon>
#include <QSettings>
#include <QSize>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <optional>
#include <set>

#include "app/console/console_session.h"
#include "app/console/main_window.h"
#include "app/console/startup_probe.h"
#include "core/inventory/inventory.h"
#include "core/inventory/snapshot.h"
#include "core/kube/client_config.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/mirror.h"
#include "core/sandbox/presets.h"
#include "views/common/theme.h"

namespace {

// `--demo` takes an optional preset (`--demo=a100-mig`), which QCommandLineParser cannot say:
// the flag is rewritten to `--demo-preset PRESET` before parsing.
QStringList normaliseDemoFlag(QStringList arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--demo"))
            arguments[i] = QStringLiteral("--demo-preset=mixed");
        else if (arguments[i].startsWith(QLatin1String("--demo=")))
            arguments[i] = QStringLiteral("--demo-preset=") + arguments[i].mid(7);
    }
    return arguments;
}

QString defaultCachePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(QStringLiteral("draconsole/cache.db"));
}

// A kubeconfig context as kubectl reads it ($KUBECONFIG when `kubeconfigPath` is empty);
// credentials stay in this process's memory.
dra::Result<dra::kube::ClientConfig> resolveLiveContext(
    const QString &kubeconfigPath, const QString &context)
{
    dra::Result<dra::kube::Kubeconfig> kubeconfig
        = dra::kube::loadKubeconfig(dra::kube::KubeconfigSource::fromEnvironment(kubeconfigPath));
    if (!kubeconfig)
        return dra::fail(kubeconfig.error());
    return dra::kube::resolveContext(*kubeconfig, context);
}

void printError(const QString &message)
{
    std::fprintf(stderr, "draconsole: %s\n", message.toLocal8Bit().constData());
}

} // namespace

int main(int argc, char **argv)
{
    const qint64 processToMainMs = dra::console::processAgeMs();
    QElapsedTimer sinceMain;
    sinceMain.start();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("draconsole"));
    QApplication::setOrganizationName(QStringLiteral("draconsole"));
    QApplication::setApplicationVersion(QStringLiteral(DRA_VERSION));
    // The desktop entry names the installed icon; a window opened from a terminal or a build
    // tree takes the same one from the resources.
    QApplication::setDesktopFileName(QStringLiteral("draconsole"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/draconsole.svg")));

    QString presets;
    for (const auto &[name, summary] : dra::sandbox::presetNames())
        presets += QStringLiteral("\n  %1: %2")
                       .arg(QString::fromStdString(name), QString::fromStdString(summary));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "DRA Console: inventory, topology, claims and templates of Kubernetes Dynamic Resource "
        "Allocation.\n\nWith --demo[=PRESET] it runs on the embedded demo cluster. Presets:%1")
                                         .arg(presets));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({ QStringLiteral("demo-preset"),
        QStringLiteral("Run on the demo cluster (also --demo[=PRESET])."),
        QStringLiteral("preset") });
    parser.addOption({ QStringLiteral("demo-nodes"),
        QStringLiteral("Nodes of the demo preset (its default when 0)."), QStringLiteral("n"),
        QStringLiteral("0") });
    parser.addOption({ QStringLiteral("demo-user"),
        QStringLiteral("Sign in to the demo cluster as one of its users (demo-training, "
                       "demo-viewer) and see what they may see."),
        QStringLiteral("context") });
    parser.addOption({ QStringLiteral("cache"),
        QStringLiteral("Open a cache file (an earlier mirror or import) offline."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("cluster"),
        QStringLiteral("The cluster of the cache to show."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("kubeconfig"),
        QStringLiteral("The kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."),
        QStringLiteral("file") });
    parser.addOption({ QStringLiteral("context"),
        QStringLiteral("Mirror this kubeconfig context live into the cache and show it."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("workload-namespaces"),
        QStringLiteral(
            "Also mirror Deployments, ReplicaSets, DaemonSets, Services and HTTPRoutes of "
            "these namespaces (comma-separated; * for all), for rollouts. Default: all on "
            "the demo cluster, none on a live one."),
        QStringLiteral("list") });
    parser.addOption({ QStringLiteral("theme"),
        QStringLiteral("light or dark (default: judged from the desktop)."),
        QStringLiteral("theme") });
    parser.addOption({ QStringLiteral("screenshot"),
        QStringLiteral(
            "Render each main view to DIR/<view>.png once the data has loaded, then exit."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("window-size"),
        QStringLiteral("The window's size, WIDTHxHEIGHT (default 1400x900), e.g. for screenshots."),
        QStringLiteral("size") });
    parser.addOption({ QStringLiteral("startup-report"),
        QStringLiteral(
            "Print startup timings as JSON once the landing page has painted the loaded data, "
            "then exit (bench/console).") });
    parser.process(normaliseDemoFlag(QApplication::arguments()));

    QSettings settings;
    const QString theme = parser.value(QStringLiteral("theme"));
    dra::views::applyTheme(app,
        !theme.isEmpty() ? dra::views::themeFromName(theme)
            : settings.contains(QStringLiteral("window/theme"))
            ? dra::views::themeFromName(settings.value(QStringLiteral("window/theme")).toString())
            : dra::views::themeOfPalette(app.palette()));

    dra::console::SessionOptions options;
    // Without a choice on the command line, the context used last time, if any.
    const bool live
        = parser.isSet(QStringLiteral("context")) || parser.isSet(QStringLiteral("kubeconfig"));
    const bool demo
        = parser.isSet(QStringLiteral("demo-preset")) || parser.isSet(QStringLiteral("demo-user"));
    const bool chosen = live || parser.isSet(QStringLiteral("cache")) || demo;
    std::optional<dra::kube::ClientConfig> client;
    QString kubeconfigPath;
    if (live) {
        kubeconfigPath = parser.value(QStringLiteral("kubeconfig"));
        dra::Result<dra::kube::ClientConfig> resolved
            = resolveLiveContext(kubeconfigPath, parser.value(QStringLiteral("context")));
        if (!resolved) {
            printError(resolved.error().message);
            return 2;
        }
        client = *resolved;
    } else if (!chosen && settings.contains(QStringLiteral("session/context"))) {
        kubeconfigPath = settings.value(QStringLiteral("session/kubeconfig")).toString();
        const QString context = settings.value(QStringLiteral("session/context")).toString();
        dra::Result<dra::kube::ClientConfig> resolved = resolveLiveContext(kubeconfigPath, context);
        if (resolved)
            client = *resolved;
        else
            printError(QStringLiteral(
                "the last context, %1, cannot be used (%2); opening the cache instead")
                           .arg(context, resolved.error().message));
    }
    if (client) {
        for (const QString &warning : client->warnings)
            printError(QStringLiteral("WARNING: ") + warning);
        settings.setValue(QStringLiteral("session/context"), client->context);
        settings.setValue(QStringLiteral("session/kubeconfig"), kubeconfigPath);
        options.mode = dra::console::SessionOptions::Mode::Live;
        options.client = *client;
        options.cachePath = parser.isSet(QStringLiteral("cache"))
            ? parser.value(QStringLiteral("cache"))
            : defaultCachePath();
    } else if (parser.isSet(QStringLiteral("cache"))) {
        settings.remove(QStringLiteral("session"));
        options.mode = dra::console::SessionOptions::Mode::Cache;
        options.cachePath = parser.value(QStringLiteral("cache"));
        if (!QFileInfo::exists(options.cachePath)) {
            printError(QStringLiteral("%1: no such cache file").arg(options.cachePath));
            return 2;
        }
    } else if (!demo && QFileInfo::exists(defaultCachePath())) {
        // The last mirror, offline, when there is one; the demo cluster otherwise.
        options.mode = dra::console::SessionOptions::Mode::Cache;
        options.cachePath = defaultCachePath();
    } else {
        if (demo)
            settings.remove(QStringLiteral("session"));
        options.preset = parser.value(QStringLiteral("demo-preset"));
        if (options.preset.isEmpty())
            options.preset = QStringLiteral("mixed");
        options.demoNodes = parser.value(QStringLiteral("demo-nodes")).toInt();
        options.demoUser = parser.value(QStringLiteral("demo-user")).toStdString();
    }
    options.cluster = parser.value(QStringLiteral("cluster")).toStdString();
    if (parser.isSet(QStringLiteral("workload-namespaces")))
        options.workloadNamespaces
            = dra::kube::parseNamespaceList(parser.value(QStringLiteral("workload-namespaces")));

    QSize windowSize(1400, 900);
    if (parser.isSet(QStringLiteral("window-size"))) {
        const QString value = parser.value(QStringLiteral("window-size"));
        const QStringList parts = value.split(QLatin1Char('x'));
        bool wide = false, high = false;
        const int width = parts.value(0).toInt(&wide), height = parts.value(1).toInt(&high);
        if (parts.size() != 2 || !wide || !high || width < 320 || height < 240) {
            printError(QStringLiteral("--window-size %1: expected WIDTHxHEIGHT of at least "
                                      "320x240, e.g. 1280x800")
                           .arg(value));
            return 2;
        }
        windowSize = QSize(width, height);
    }
    dra::console::ConsoleSession session(options);
    dra::console::MainWindow window(&session);
    window.resize(windowSize);
    int exitCode = 0;

    const QString screenshots = parser.value(QStringLiteral("screenshot"));
    QObject::connect(&session, &dra::console::ConsoleSession::failed, &app,
        [&](const dra::common::Error &error) {
            printError(error.message);
            if (!screenshots.isEmpty()) {
                exitCode = 1;
                app.quit();
            }
        });
    if (!screenshots.isEmpty()) {
        // Live and demo (both mirrored): once the whole cluster is in the cache (and the
        // follower has had time to read it); offline once the data has loaded.
        const bool live = options.mode != dra::console::SessionOptions::Mode::Cache;
        QObject::connect(&session,
            live ? &dra::console::ConsoleSession::initialSynced
                 : &dra::console::ConsoleSession::loaded,
            &app, [&] {
                // Let the views lay out, then wait for the background lint and overview figures
                // of the newest snapshot, so the pictures show what the cluster holds.
                auto *settle = new QTimer(&app);
                settle->setInterval(100);
                QObject::connect(settle, &QTimer::timeout, &app, [&, settle] {
                    if (!window.insightsSettled())
                        return;
                    settle->stop();
                    const QStringList problems = window.saveScreenshots(screenshots);
                    for (const QString &problem : problems)
                        printError(problem);
                    exitCode = problems.isEmpty() ? 0 : 1;
                    app.quit();
                });
                QTimer::singleShot(1500, settle, qOverload<>(&QTimer::start));
            });
    }
    if (parser.isSet(QStringLiteral("startup-report"))) {
        auto *probe = new dra::console::StartupProbe(
            window.currentPage(), sinceMain, processToMainMs, &app);
        QObject::connect(&session, &dra::console::ConsoleSession::loaded, probe, [probe, &session] {
            const dra::inventory::SnapshotPtr snapshot = session.inventory()->snapshot();
            std::set<std::string> nodes;
            for (const dra::inventory::SliceInfo &slice : snapshot->slices())
                nodes.insert(slice.node);
            probe->markLoaded(qint64(snapshot->devices().size()), qint64(nodes.size()));
        });
    }
    window.show();
    session.start();
    const int code = app.exec();
    return exitCode ? exitCode : code;
}
