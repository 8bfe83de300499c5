// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The dractl rollout subcommands that act on a cluster or on a rollout's state: start, run,
// the verbs, report.
#pragma once

#include <QStringList>

namespace dra::cli {

int runRolloutStart(const QStringList &arguments);
int runRolloutRun(const QStringList &arguments);
// promote, pause, resume, abort, finalise, reject, retry-gate: `arguments[0]` ends with the verb.
int runRolloutVerb(const QStringList &arguments, const QString &verb);
int runRolloutReport(const QStringList &arguments);

} // namespace dra::cli
