// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/cli.h"

#include <cstdio>

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

#include "core/store/store_paths.h"

namespace dra::cli {

void out(std::string_view text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
}

void out(const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stdout);
}

void err(const QString &text)
{
    std::fflush(stdout);
    const QByteArray utf8 = text.toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stderr);
}

int reportFailure(const QString &message)
{
    err(QStringLiteral("dractl: ") + message + QLatin1Char('\n'));
    return Failed;
}

int reportFailure(const common::Error &error)
{
    return reportFailure(error.message);
}

bool parseOrExit(QCommandLineParser &parser, const QStringList &arguments,
    const QString &description, int *exitCode)
{
    parser.setApplicationDescription(description);
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    if (!parser.parse(arguments)) {
        err(QStringLiteral("dractl: ") + parser.errorText() + QStringLiteral("\nTry '")
            + arguments.value(0) + QStringLiteral(" --help'.\n"));
        *exitCode = Usage;
        return false;
    }
    if (parser.isSet(help)) {
        // Qt names the executable's path in the usage line; users typed "dractl <command>".
        QString text = parser.helpText();
        const QString program = QCoreApplication::arguments().value(0);
        if (!program.isEmpty() && text.startsWith(QStringLiteral("Usage: ") + program))
            text.replace(7, program.size(), arguments.value(0));
        out(text);
        *exitCode = Ok;
        return false;
    }
    if (parser.isSet(version)) {
        out(QCoreApplication::applicationName() + QLatin1Char(' ')
            + QCoreApplication::applicationVersion() + QLatin1Char('\n'));
        *exitCode = Ok;
        return false;
    }
    return true;
}

QCommandLineOption cacheOption()
{
    return { QStringLiteral("cache"),
        QStringLiteral("The cache file (default $XDG_CACHE_HOME/draconsole/cache.db)."),
        QStringLiteral("file") };
}

QCommandLineOption clusterOption()
{
    return { QStringLiteral("cluster"), QStringLiteral("The cluster the objects belong to."),
        QStringLiteral("name") };
}

QCommandLineOption outputOption(const QString &defaultFormat)
{
    return { { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Output format (default %1).").arg(defaultFormat), QStringLiteral("format"),
        defaultFormat };
}

QCommandLineOption stateOption()
{
    return { QStringLiteral("state"),
        QStringLiteral("The state file (default $XDG_DATA_HOME/draconsole/state.db)."),
        QStringLiteral("file") };
}

Result<QString> statePath(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("state")))
        return parser.value(QStringLiteral("state"));
    return store::defaultStatePath();
}

bool checkOutputFormat(const QString &format, const QStringList &allowed, const QString &command)
{
    if (allowed.contains(format))
        return true;
    reportFailure(QStringLiteral("%1: unknown output format '%2' (%3)")
                      .arg(command, format, allowed.join(QStringLiteral(", "))));
    return false;
}

QString cachePath(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("cache")))
        return parser.value(QStringLiteral("cache"));
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return QDir(base).filePath(QStringLiteral("draconsole/cache.db"));
}

} // namespace dra::cli
