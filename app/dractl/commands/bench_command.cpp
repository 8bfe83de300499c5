// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench: benchmarks run from a Release build; each prints one JSON line. Each benchmark
// registers itself as a subcommand from its own file (bench_*.cpp).
#include "app/dractl/cli.h"

namespace dra::cli {

namespace {
const CommandRegistration benchRegistration({ .path = "bench",
    .summary = "Run a benchmark (ingest, ...)",
    .order = 90,
    .details = "Run from a Release build (scripts/bench)." });
} // namespace

} // namespace dra::cli
