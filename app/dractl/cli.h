// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include "app/dractl/command_registry.h"
#include "core/common/error.h"
#include "core/common/result.h"

namespace dra::cli {

// Exit codes shared by every subcommand.
enum Exit : int {
    Ok = 0,
    Failed = 1, // the command ran and reported a failure (rejected documents, errors)
    Usage = 2, // bad arguments, or input that does not compile (cel)
};

// Writes UTF-8 text to stdout / stderr (no locale conversion, no buffering surprises).
void out(std::string_view text);
void out(const QString &text);
void err(const QString &text);

// Prints "dractl: <message>" to stderr and returns Failed (an exit code; dra::fail() makes an
// error value instead).
int reportFailure(const QString &message);
int reportFailure(const common::Error &error);

// Sets up a parser with --help and --version and processes `arguments`; on a parse error
// prints it and returns false with `exitCode` set, on --help/--version prints and exits.
bool parseOrExit(QCommandLineParser &parser, const QStringList &arguments,
    const QString &description, int *exitCode);

// Options most commands share.
QCommandLineOption cacheOption(); // --cache FILE
QCommandLineOption clusterOption(); // --cluster NAME
QCommandLineOption outputOption(const QString &defaultFormat); // -o/--output FORMAT
QCommandLineOption stateOption(); // --state FILE

// The cache file: --cache, else $XDG_CACHE_HOME/draconsole/cache.db.
QString cachePath(const QCommandLineParser &parser);

// The state file: --state, else $XDG_DATA_HOME/draconsole/state.db.
[[nodiscard]] Result<QString> statePath(const QCommandLineParser &parser);

// Whether -o names one of `allowed`; if not, prints "dractl: COMMAND: unknown output format
// 'F' (a, b)" and returns false.
bool checkOutputFormat(const QString &format, const QStringList &allowed, const QString &command);

} // namespace dra::cli
