// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl: dispatches to one subcommand; each lives in commands/.
#include <QCoreApplication>

#include "app/dractl/cli.h"

namespace {

QString usage()
{
    QString text = QStringLiteral(
        "Usage: dractl <command> [options]\n\n"
        "DRA Console's headless tool: mirror, inspect and serve Kubernetes Dynamic Resource\n"
        "Allocation objects.\n\nCommands:\n");
    for (const dra::cli::Command &command : dra::cli::commands())
        text += QStringLiteral("  %1%2\n")
                    .arg(QString::fromUtf8(command.name).leftJustified(18))
                    .arg(QString::fromUtf8(command.summary));
    text += QStringLiteral("\nRun 'dractl <command> --help' for a command's options.\n");
    return text;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dractl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DRA_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("draconsole"));

    QStringList arguments = QCoreApplication::arguments();
    const QString first = arguments.value(1);
    if (first.isEmpty() || first == QLatin1String("--help") || first == QLatin1String("-h")
        || first == QLatin1String("help")) {
        dra::cli::out(usage());
        return first.isEmpty() ? dra::cli::Usage : dra::cli::Ok;
    }
    if (first == QLatin1String("--version") || first == QLatin1String("version")) {
        dra::cli::out(QStringLiteral("dractl %1\n").arg(QCoreApplication::applicationVersion()));
        return dra::cli::Ok;
    }
    for (const dra::cli::Command &command : dra::cli::commands()) {
        if (first == QLatin1String(command.name)) {
            arguments.removeFirst();
            arguments[0] = QStringLiteral("dractl ") + first;
            return command.run(arguments);
        }
    }
    dra::cli::err(QStringLiteral("dractl: unknown command '%1'\n\n").arg(first) + usage());
    return dra::cli::Usage;
}
