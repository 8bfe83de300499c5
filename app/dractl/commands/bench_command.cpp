// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench: benchmarks run from a Release build; each prints one JSON line.
#include "app/dractl/cli.h"

namespace dra::cli {

int runBenchAlloc(const QStringList &arguments);
int runBenchCel(const QStringList &arguments);
int runBenchIngest(const QStringList &arguments);
int runBenchServe(const QStringList &arguments);
int runBenchSync(const QStringList &arguments);
int runBenchSnapshot(const QStringList &arguments);

int runBench(const QStringList &arguments)
{
    const QString which = arguments.value(1);
    QStringList rest = arguments.mid(1);
    if (!rest.isEmpty())
        rest[0] = arguments.value(0) + QLatin1Char(' ') + which;
    if (which == QLatin1String("alloc"))
        return runBenchAlloc(rest);
    if (which == QLatin1String("cel"))
        return runBenchCel(rest);
    if (which == QLatin1String("ingest"))
        return runBenchIngest(rest);
    if (which == QLatin1String("serve"))
        return runBenchServe(rest);
    if (which == QLatin1String("sync"))
        return runBenchSync(rest);
    if (which == QLatin1String("snapshot"))
        return runBenchSnapshot(rest);
    if (which == QLatin1String("--help") || which == QLatin1String("-h") || which.isEmpty()) {
        out(QStringLiteral(
            "Usage: dractl bench <ingest|snapshot|sync|alloc|serve|cel> [options]\n\n"
            "  ingest     cache ingest of an inventory vs a bare SQLite floor\n"
            "  snapshot   inventory Snapshot load from a cache vs reading its rows\n"
            "  sync       initial sync of a served demo inventory vs kubectl get\n"
            "  alloc      claims allocated one after another on the 5,000-node scale inventory\n"
            "  serve      API server list latency and watch fan-out to many watchers\n"
            "  cel        a CEL selector over every device of an inventory file\n"
            "Run from a Release build (scripts/bench).\n"));
        return which.isEmpty() ? Usage : Ok;
    }
    return fail(QStringLiteral("bench: unknown benchmark '%1'").arg(which));
}

namespace {
const CommandRegistration benchRegistration(
    { "bench", "Run a benchmark (ingest, ...)", runBench, 90 });
} // namespace

} // namespace dra::cli
