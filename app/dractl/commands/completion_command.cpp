// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl completion: shell completion scripts (completion/) filled in from the command registry,
// so a new command completes without touching a script. The command words are written in;
// options are read from `dractl <command> --help` when the user asks for them, so they always
// match the installed binary.
#include <functional>
#include <string_view>
#include <vector>

#include <QFile>

#include "app/dractl/cli.h"
#include "app/dractl/command_registry.h"

namespace dra::cli {
namespace {

QString text(std::string_view view)
{
    return QString::fromUtf8(view.data(), qsizetype(view.size()));
}

QString lastWord(std::string_view path)
{
    const size_t space = path.rfind(' ');
    return text(space == std::string_view::npos ? path : path.substr(space + 1));
}

// Every command path below `group`, groups before their subcommands, in help order.
void collect(std::string_view group, std::vector<const Command *> *into)
{
    for (const Command *command : subcommands(group)) {
        into->push_back(command);
        collect(command->path, into);
    }
}

std::vector<const Command *> allCommands()
{
    std::vector<const Command *> all;
    collect("", &all);
    return all;
}

// A word inside single quotes in a shell script.
QString quoted(QString word)
{
    return QLatin1Char('\'') + word.replace(QLatin1Char('\''), QStringLiteral("'\\''"))
        + QLatin1Char('\'');
}

// The `case` arms mapping a group ('' for dractl itself) to `statement` run on what `item` makes
// of each of its subcommands: "echo get sync ..." for bash, "reply=('get:Show objects' ...)"
// for zsh.
QString caseArms(const QString &statement, const std::function<QString(const Command &)> &item)
{
    std::vector<std::string_view> groups { "" };
    for (const Command *command : allCommands())
        if (!subcommands(command->path).empty())
            groups.emplace_back(command->path);
    QString arms;
    for (std::string_view group : groups) {
        QStringList items;
        for (const Command *command : subcommands(group))
            items << item(*command);
        arms += QStringLiteral("    %1)\n        %2 ;;\n")
                    .arg(quoted(text(group)), statement.arg(items.join(QLatin1Char(' '))));
    }
    return arms;
}

// The pipeline that takes the option names out of QCommandLineParser's help: lines such as
// "  -o, --output <format>  ..." and "  --demo  ...", each name once.
constexpr const char *kOptionNames
    = R"(sed -nE 's/^ +(-[[:alnum:]], )?(--[[:alnum:]][[:alnum:]-]*).*/\2/p' | sort -u)";

// A script of completion/ (kept as shell, compiled in as a resource) with its command words
// and the option pipeline filled in.
QString script(const QString &resource, const QString &subcommandArms)
{
    QFile file(resource);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("dractl: the completion script %s is missing from the build", qPrintable(resource));
    return QString::fromUtf8(file.readAll())
        .replace(QStringLiteral("@SUBCOMMANDS@"), subcommandArms)
        .replace(QStringLiteral("@OPTION_NAMES@"), QString::fromUtf8(kOptionNames));
}

QString bashScript()
{
    return script(QStringLiteral(":/completion/dractl.bash"),
        caseArms(QStringLiteral("echo %1"),
            [](const Command &command) { return lastWord(command.path); }));
}

QString zshScript()
{
    return script(QStringLiteral(":/completion/_dractl.zsh"),
        caseArms(QStringLiteral("reply=(%1)"), [](const Command &command) {
            return quoted(
                lastWord(command.path) + QLatin1Char(':') + QString::fromUtf8(command.summary));
        }));
}

int runCompletion(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("shell"), QStringLiteral("bash, zsh or commands"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Write a completion script for a shell to stdout:\n"
                "  bash       source <(dractl completion bash), or save it as\n"
                "             /usr/share/bash-completion/completions/dractl\n"
                "  zsh        save it as _dractl in a folder of $fpath\n"
                "  commands   every command, one per line (for scripts and the manual page)"),
            &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        err(QStringLiteral("dractl: completion: name one shell: bash, zsh or commands\n"));
        return Usage;
    }
    const QString &shell = positional.front();
    if (shell == QLatin1String("bash")) {
        out(bashScript());
    } else if (shell == QLatin1String("zsh")) {
        out(zshScript());
    } else if (shell == QLatin1String("commands")) {
        for (const Command *command : allCommands())
            out(QString::fromUtf8(command->path) + QLatin1Char('\n'));
    } else {
        err(QStringLiteral("dractl: completion: unknown shell '%1' (bash, zsh, commands)\n")
                .arg(shell));
        return Usage;
    }
    return Ok;
}

const CommandRegistration registration({ .path = "completion",
    .summary = "Write a bash or zsh completion script",
    .run = runCompletion,
    .order = 95,
    .synopsis = "SHELL" });

} // namespace
} // namespace dra::cli
