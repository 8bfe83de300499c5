// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl sync: the live mirror of a cluster into the cache, as kubectl's kubeconfig reaches it.
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include <unistd.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QTimer>

#include "app/dractl/cli.h"
#include "app/dractl/commands/kube_options.h"
#include "app/dractl/commands/stop_signal.h"
#include "app/dractl/option_values.h"
#include "core/common/json_text.h"
#include "core/kube/live_mirror.h"
#include "core/store/cache_db.h"

namespace dra::cli {

namespace {

using common::Error;
using common::qs;

Result<std::vector<model::Kind>> parseKinds(const QString &text)
{
    std::vector<model::Kind> kinds;
    for (const QString &name : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const model::KindInfo *kind = model::findKind(name.trimmed().toStdString());
        if (!kind)
            return dra::fail(
                Error::Code::Invalid, QStringLiteral("--kinds: unknown kind \"%1\"").arg(name));
        kinds.push_back(kind->kind);
    }
    return kinds;
}

// Prints what the mirror does: per-kind progress while listing, then one live status line.
class SyncReporter final : public QObject
{
public:
    explicit SyncReporter(bool terminal)
        : m_terminal(terminal)
    {
        m_clock.start();
    }

    void progress(const kube::StreamStatus &status)
    {
        if (!m_terminal)
            return; // logs get the per-kind result line only
        line(QStringLiteral("  listing %1: %2 objects").arg(status.label()).arg(status.objects));
    }

    void changed(const kube::StreamStatus &status)
    {
        m_streams[{ status.kind, status.ns }] = status;
        const bool first = !m_reported.contains({ status.kind, status.ns });
        if (status.state == kube::StreamState::Synced && first) {
            m_reported.insert({ status.kind, status.ns });
            finishLine();
            out(QStringLiteral("  %1 %2 objects  (%3)\n")
                    .arg(status.label() + QLatin1Char(':'), -32)
                    .arg(status.objects, 7)
                    .arg(qs(status.apiVersion)));
        } else if (status.state == kube::StreamState::Watching && first) {
            m_reported.insert({ status.kind, status.ns });
            finishLine(); // a watch resumed where the last run stopped, or a streaming list
            out(QStringLiteral("  %1 %2  (%3)\n")
                    .arg(status.label() + QLatin1Char(':'), -32)
                    .arg(status.objects > 0 ? QStringLiteral("%1 objects").arg(status.objects, 7)
                                            : QStringLiteral("resumed at resourceVersion %1")
                                                  .arg(qs(status.resourceVersion)))
                    .arg(qs(status.apiVersion)));
        } else if (status.state == kube::StreamState::Forbidden
            || status.state == kube::StreamState::Error
            || status.state == kube::StreamState::Stale) {
            finishLine();
            err(QStringLiteral("  %1: %2: %3\n")
                    .arg(status.label(), qs(kube::streamStateName(status.state)), status.reason));
        }
    }

    void committed(const model::CommittedBatch &batch)
    {
        if (batch.changes.empty())
            return;
        m_changes += int64_t(batch.changes.size());
        m_lastChange = QDateTime::currentMSecsSinceEpoch();
    }

    void statusLine()
    {
        int watching = 0, listing = 0, unhealthy = 0;
        for (const auto &[key, status] : m_streams) {
            switch (status.state) {
            case kube::StreamState::Watching:
                ++watching;
                break;
            case kube::StreamState::Listing:
            case kube::StreamState::Synced:
                ++listing;
                break;
            default:
                ++unhealthy;
                break;
            }
        }
        QString text = QStringLiteral("%1 %2/%3 streams watching")
                           .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")))
                           .arg(watching)
                           .arg(m_streams.size());
        if (listing)
            text += QStringLiteral(", %1 listing").arg(listing);
        if (unhealthy)
            text += QStringLiteral(", %1 stale/forbidden/failing").arg(unhealthy);
        text += QStringLiteral(" · %1 changes").arg(m_changes);
        // Logs get a line when something changed; a terminal gets the line rewritten each second.
        const QString key = text.section(QLatin1Char(' '), 1);
        if (m_lastChange)
            text += QStringLiteral(", last %1 s ago")
                        .arg((QDateTime::currentMSecsSinceEpoch() - m_lastChange) / 1000);
        if (m_terminal) {
            line(text);
        } else if (key != m_lastPrinted) {
            out(text + QLatin1Char('\n'));
            std::fflush(stdout);
        }
        m_lastPrinted = key;
    }

    void finishLine()
    {
        if (m_open) {
            out(QStringLiteral("\r\033[K"));
            m_open = false;
        }
    }

    int64_t elapsedMs() const { return m_clock.elapsed(); }

private:
    void line(const QString &text)
    {
        out(QStringLiteral("\r\033[K") + text);
        std::fflush(stdout);
        m_open = true;
    }

    bool m_terminal;
    bool m_open = false;
    QElapsedTimer m_clock;
    std::map<std::pair<model::Kind, std::string>, kube::StreamStatus> m_streams;
    std::set<std::pair<model::Kind, std::string>> m_reported;
    int64_t m_changes = 0;
    int64_t m_lastChange = 0;
    QString m_lastPrinted;
};

} // namespace

int runSync(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(kubeconfigOption());
    parser.addOption(contextOption());
    parser.addOptions(impersonationOptions());
    parser.addOption(workloadNamespacesOption());
    parser.addOption(cacheOption());
    parser.addOption({ QStringLiteral("cluster"),
        QStringLiteral("The name of the cluster in the cache (default: the context's name)."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("once"),
        QStringLiteral("List every kind, write it to the cache and exit.") });
    parser.addOption({ QStringLiteral("kinds"),
        QStringLiteral("Mirror only these kinds (comma-separated, as kubectl names them)."),
        QStringLiteral("kinds") });
    parser.addOption({ QStringLiteral("namespaces"),
        QStringLiteral("Namespaces to mirror when a kind may not be listed in all namespaces "
                       "(besides those the user may list and the context's)."),
        QStringLiteral("list") });
    parser.addOption({ QStringLiteral("page-size"),
        QStringLiteral("Objects per list page (default 500; 0: no paging)."), QStringLiteral("n"),
        QStringLiteral("500") });
    parser.addOption({ QStringLiteral("streaming-list"),
        QStringLiteral("List with watch + sendInitialEvents where the server supports it.") });
    parser.addOption({ QStringLiteral("retain"),
        QStringLiteral(
            "Keep this much change history (e.g. 7d, 12h); older changes are trimmed and "
            "the file compacted."),
        QStringLiteral("age") });
    parser.addOption({ QStringLiteral("retain-size"),
        QStringLiteral("Keep at most this much change history (e.g. 500MB)."),
        QStringLiteral("size") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Mirror a cluster into the cache: list every DRA and core kind the console uses, "
                "then follow the cluster live until stopped (Ctrl-C or TERM). The kubeconfig is "
                "read as kubectl reads it; credentials are never written anywhere."),
            &exitCode))
        return exitCode;

    Result<std::vector<model::Kind>> kinds = parseKinds(parser.value(QStringLiteral("kinds")));
    if (!kinds)
        return reportFailure(kinds.error());
    bool pageOk = false;
    const int pageSize = parser.value(QStringLiteral("page-size")).toInt(&pageOk);
    if (!pageOk || pageSize < 0)
        return reportFailure(QStringLiteral("--page-size: expected a number of objects"));
    store::RetentionPolicy retention;
    if (parser.isSet(QStringLiteral("retain"))) {
        Result<int64_t> age = durationOption(parser, QStringLiteral("retain"));
        if (!age)
            return reportFailure(age.error());
        retention.maxAgeMs = *age;
    }
    if (parser.isSet(QStringLiteral("retain-size"))) {
        Result<int64_t> bytes = sizeOption(parser, QStringLiteral("retain-size"));
        if (!bytes)
            return reportFailure(bytes.error());
        retention.maxBytes = *bytes;
    }

    Result<kube::ClientConfig> config = clientConfigFor(parser);
    if (!config)
        return reportFailure(config.error());
    const std::string cluster = parser.isSet(QStringLiteral("cluster"))
        ? parser.value(QStringLiteral("cluster")).toStdString()
        : config->context.toStdString();
    const bool once = parser.isSet(QStringLiteral("once"));

    const QString cacheFile = cachePath(parser);
    kube::LiveMirrorOptions options;
    options.client = *config;
    options.rest.userAgent = "dractl/" DRA_VERSION " (linux) draconsole";
    options.rest.exec = execOptionsForTerminal();
    options.cachePath = cacheFile;
    options.resume = !once;
    options.mirror.cluster = cluster;
    options.mirror.workloadNamespaces = workloadNamespacesFrom(parser);
    options.mirror.kinds = *kinds;
    for (const QString &ns :
        parser.value(QStringLiteral("namespaces")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        options.mirror.namespaces.push_back(ns.trimmed().toStdString());
    options.mirror.reflector.pageSize = pageSize;
    options.mirror.reflector.streamingList = parser.isSet(QStringLiteral("streaming-list"));

    kube::LiveMirror live(std::move(options));
    SyncReporter reporter(isatty(STDOUT_FILENO));
    std::optional<Error> cacheError;
    std::optional<Error> permanentError; // with --once: why the cluster cannot be mirrored

    QObject::connect(&live, &kube::LiveMirror::failed, &reporter, [&](const Error &error) {
        cacheError = error;
        QCoreApplication::quit();
    });
    QObject::connect(&live, &kube::LiveMirror::committed, &reporter,
        [&](const model::CommittedBatch &batch) { reporter.committed(batch); });
    QObject::connect(&live, &kube::LiveMirror::writeFailed, &reporter, [&](const Error &error) {
        reporter.finishLine();
        err(QStringLiteral("dractl: cannot write the cache: ") + error.message + QLatin1Char('\n'));
    });
    QObject::connect(&live, &kube::LiveMirror::retentionApplied, &reporter,
        [&](const store::RetentionSummary &summary) {
            if (summary.deletedChanges > 0) {
                reporter.finishLine();
                out(QStringLiteral(
                    "history trimmed: %1 changes removed, %2 kept; cache %3 -> %4 bytes\n")
                        .arg(summary.deletedChanges)
                        .arg(summary.keptChanges)
                        .arg(summary.bytesBefore)
                        .arg(summary.bytesAfter));
            }
        });
    QObject::connect(&live, &kube::LiveMirror::warning, &reporter, [&](const QString &warning) {
        reporter.finishLine();
        err(QStringLiteral("warning: ") + warning + QLatin1Char('\n'));
    });
    QObject::connect(&live, &kube::LiveMirror::notice, &reporter, [&](const Error &error) {
        reporter.finishLine();
        err(QStringLiteral("note: ") + error.message + QLatin1Char('\n'));
    });
    QObject::connect(
        &live, &kube::LiveMirror::permanentFailure, &reporter, [&](const Error &error) {
            if (once) {
                // As kubectl: a certificate that does not verify or credentials that cannot be had
                // end the command at once with the reason, instead of a retry loop.
                if (!permanentError)
                    permanentError = error;
                QCoreApplication::quit();
                return;
            }
            reporter.finishLine();
            err(QStringLiteral("error: ") + error.message
                + QStringLiteral(
                    "\n  (the mirror keeps the cache as it is and tries again every few "
                    "minutes; fix the cause, or restart after editing the kubeconfig)\n"));
        });
    QObject::connect(
        &live, &kube::LiveMirror::discovered, &reporter, [&](const kube::ApiDiscovery &discovery) {
            reporter.finishLine();
            out(QStringLiteral(
                "Mirroring %1 into %2 (cluster %3): Kubernetes %4, resource.k8s.io %5\n")
                    .arg(config->describe(), cacheFile, qs(cluster),
                        discovery.gitVersion.isEmpty() ? QStringLiteral("(unknown version)")
                                                       : discovery.gitVersion,
                        discovery.resourceVersions.isEmpty()
                            ? QStringLiteral("not served")
                            : discovery.resourceVersions.join(QStringLiteral(", "))));
        });
    QObject::connect(&live, &kube::LiveMirror::listProgress, &reporter,
        [&](const kube::StreamStatus &status) { reporter.progress(status); });
    QObject::connect(
        &live, &kube::LiveMirror::streamChanged, &reporter, [&](const kube::StreamStatus &status) {
            if (!permanentError) // else the one error line says it all
                reporter.changed(status);
        });

    QTimer statusTimer;
    QObject::connect(&statusTimer, &QTimer::timeout, &reporter, [&] { reporter.statusLine(); });
    QObject::connect(&live, &kube::LiveMirror::initialSynced, &reporter, [&] {
        if (permanentError)
            return; // the command is ending on it
        reporter.finishLine();
        out(QStringLiteral("Initial sync done in %1 s.%2\n")
                .arg(double(reporter.elapsedMs()) / 1000.0, 0, 'f', 1)
                .arg(once ? QString() : QStringLiteral(" Following the cluster; Ctrl-C stops.")));
        std::fflush(stdout);
        if (once)
            QCoreApplication::quit();
        else
            statusTimer.start(1000);
    });

    QTimer retentionTimer;
    if (retention.maxAgeMs > 0 || retention.maxBytes > 0) {
        // Trimmed once the writer holds the file, before the first batch, then every hour.
        auto trim = [&] { live.applyRetention(retention); };
        QObject::connect(&live, &kube::LiveMirror::cacheReady, &reporter, trim);
        QObject::connect(&retentionTimer, &QTimer::timeout, &reporter, trim);
        retentionTimer.start(3600 * 1000);
    }

    const StopOnSignal stopOnSignal;
    live.start();
    QCoreApplication::exec();
    statusTimer.stop();
    reporter.finishLine();
    if (cacheError)
        return reportFailure(*cacheError);
    if (permanentError) {
        live.stop(kube::StreamState::Error, permanentError->message);
        return reportFailure(*permanentError);
    }

    // Say in the cache how current it is from now on: listed once, or no longer followed.
    const QString stoppedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    const int failures = once
        ? live.stop(kube::StreamState::Synced,
            QStringLiteral("listed by dractl sync --once at %1; not followed since").arg(stoppedAt))
        : live.stop(
            kube::StreamState::Stale, QStringLiteral("dractl sync stopped at %1").arg(stoppedAt));
    if (StopOnSignal::requested())
        out(QStringLiteral("Stopped; the cache keeps the last state seen.\n"));
    return failures > 0 || (once && !live.initialSyncDone() && StopOnSignal::requested()) ? Failed
                                                                                          : Ok;
}

namespace {
const CommandRegistration syncRegistration({ "sync",
    "Mirror a cluster into the cache, live (kubeconfig as kubectl reads it)", runSync, 11 });
} // namespace

} // namespace dra::cli
