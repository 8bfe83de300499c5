// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The registered commands and the dispatcher. Command files register themselves
// (CommandRegistration) during static initialisation; main() dispatches only after that.
#include "app/dractl/command_registry.h"

#include <algorithm>
#include <string>

#include <QCoreApplication>

#include "app/dractl/cli.h"

namespace dra::cli {
namespace {

std::vector<Command> &registered()
{
    static std::vector<Command> list; // a function-local static: safe from initialisation order
    return list;
}

std::string_view parentOf(std::string_view path)
{
    const size_t space = path.rfind(' ');
    return space == std::string_view::npos ? std::string_view() : path.substr(0, space);
}

std::string_view nameOf(std::string_view path)
{
    const size_t space = path.rfind(' ');
    return space == std::string_view::npos ? path : path.substr(space + 1);
}

QString text(std::string_view view)
{
    return QString::fromUtf8(view.data(), qsizetype(view.size()));
}

const Command *find(std::string_view path)
{
    for (const Command &command : registered())
        if (command.path == path)
            return &command;
    return nullptr;
}

const Command *subcommand(std::string_view group, const QString &word)
{
    if (word.isEmpty() || word.startsWith(QLatin1Char('-')))
        return nullptr;
    for (const Command *command : subcommands(group))
        if (text(nameOf(command->path)) == word)
            return command;
    return nullptr;
}

bool isHelp(const QString &word)
{
    return word == QLatin1String("--help") || word == QLatin1String("-h")
        || word == QLatin1String("help");
}

// "dractl" or "dractl rollout": how the help and the errors name a group.
QString spoken(std::string_view group)
{
    return group.empty() ? QStringLiteral("dractl") : QStringLiteral("dractl ") + text(group);
}

QString names(std::string_view group)
{
    QStringList list;
    for (const Command *command : subcommands(group))
        list << text(nameOf(command->path));
    return list.join(QStringLiteral(", "));
}

int unknown(std::string_view group, const QString &word)
{
    if (group.empty()) {
        err(QStringLiteral("dractl: unknown command '%1'\n\n").arg(word) + groupHelp(group));
        return Usage;
    }
    err(QStringLiteral("dractl: %1: unknown command '%2' (%3)\nTry '%4 --help'.\n")
            .arg(text(group), word, names(group), spoken(group)));
    return Usage;
}

} // namespace

CommandRegistration::CommandRegistration(const Command &command)
{
    registered().push_back(command);
}

std::vector<const Command *> subcommands(std::string_view group)
{
    std::vector<const Command *> list;
    for (const Command &command : registered())
        if (parentOf(command.path) == group)
            list.push_back(&command);
    std::ranges::sort(list, [](const Command *a, const Command *b) {
        return a->order != b->order ? a->order < b->order
                                    : std::string_view(a->path) < std::string_view(b->path);
    });
    return list;
}

QString groupHelp(std::string_view group)
{
    QString help = QStringLiteral("Usage: %1 <command> [options]\n\n").arg(spoken(group));
    const Command *self = find(group);
    if (group.empty())
        help += QStringLiteral(
            "DRA Console's headless tool: mirror, inspect and serve Kubernetes Dynamic Resource\n"
            "Allocation objects.\n\n");
    else if (self) {
        QString summary = QString::fromUtf8(self->summary); // lower case in its parent's list
        if (!summary.isEmpty())
            summary[0] = summary[0].toUpper();
        help += summary + QStringLiteral(".\n\n");
    }
    help += QStringLiteral("Commands:\n");
    const std::vector<const Command *> list = subcommands(group);
    const auto label = [](const Command *command) {
        QString words = text(nameOf(command->path));
        if (*command->synopsis)
            words += QLatin1Char(' ') + QString::fromUtf8(command->synopsis);
        return words;
    };
    qsizetype width = 18;
    for (const Command *command : list)
        width = std::max(width, label(command).size() + 3);
    for (const Command *command : list)
        help += QStringLiteral("  ") + label(command).leftJustified(width)
            + QString::fromUtf8(command->summary) + QLatin1Char('\n');
    if (self && *self->details)
        help += QLatin1Char('\n') + QString::fromUtf8(self->details) + QLatin1Char('\n');
    help += QStringLiteral("\nRun '%1 <command> --help' for a command's options.\n")
                .arg(spoken(group));
    return help;
}

int dispatch(QStringList arguments)
{
    // `dractl help rollout promote` is `dractl rollout promote --help`.
    if (arguments.size() > 2 && arguments[1] == QLatin1String("help")) {
        arguments.removeAt(1);
        arguments.append(QStringLiteral("--help"));
    }
    std::string group;
    while (true) {
        const QString word = arguments.value(1);
        if (word.isEmpty()) {
            out(groupHelp(group));
            return Usage;
        }
        if (isHelp(word)) {
            out(groupHelp(group));
            return Ok;
        }
        if (word == QLatin1String("--version")
            || (group.empty() && word == QLatin1String("version"))) {
            out(QStringLiteral("dractl %1\n").arg(QCoreApplication::applicationVersion()));
            return Ok;
        }
        qsizetype at = 1;
        const Command *command = subcommand(group, word);
        // Options written before a group's subcommand (`dractl cache --cache FILE info`), as one
        // parser per group used to accept them: the first word naming a subcommand picks it and
        // the options go to that subcommand's parser.
        if (!command && !group.empty() && word.startsWith(QLatin1Char('-'))) {
            for (qsizetype i = 2; i < arguments.size() && !command; ++i) {
                command = subcommand(group, arguments[i]);
                at = i;
            }
        }
        if (!command)
            return unknown(group, word);
        arguments.removeAt(at);
        arguments[0] = spoken(command->path);
        if (command->run && !subcommand(command->path, arguments.value(1)))
            return command->run(arguments);
        group = command->path;
    }
}

} // namespace dra::cli
