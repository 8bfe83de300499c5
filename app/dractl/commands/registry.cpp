// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The list of subcommands. Each command's `run` lives in its own file beside this one.
#include "app/dractl/cli.h"

namespace dra::cli {

int runImport(const QStringList &arguments);
int runGet(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runDemoInventory(const QStringList &arguments);
int runCache(const QStringList &arguments);
int runBench(const QStringList &arguments);
int runServe(const QStringList &arguments);
int runTopology(const QStringList &arguments);

std::span<const Command> commands()
{
    static const Command list[] = {
        {"import", "Load JSON/YAML manifests or dumps into the cache", runImport},
        {"get", "Show objects or devices from the cache", runGet},
        {"export", "Write cached objects as a List in a chosen API version", runExport},
        {"demo-inventory", "Generate a demo cluster inventory (NVIDIA-like GPUs)", runDemoInventory},
        {"topology", "Draw a node's GPU topology (text, json, dot, svg)", runTopology},
        {"cache", "Inspect, check, rebuild or reset the cache", runCache},
        {"bench", "Run a benchmark (ingest, ...)", runBench},
        {"serve", "Serve the cache as a read-only Kubernetes API (kubectl works against it)", runServe},
    };
    return list;
}

} // namespace dra::cli
