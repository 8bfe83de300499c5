// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl completion: shell completion scripts written from the command registry, so a new
// command completes without touching a script. The command words are written into the script;
// options are read from `dractl <command> --help` when the user asks for them, so they always
// match the installed binary.
#include <functional>
#include <string_view>
#include <vector>

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
    = R"sh(sed -nE 's/^ +(-[[:alnum:]], )?(--[[:alnum:]][[:alnum:]-]*).*/\2/p' | sort -u)sh";

QString bashScript()
{
    const QString words = caseArms(
        QStringLiteral("echo %1"), [](const Command &command) { return lastWord(command.path); });
    return QStringLiteral(R"sh(# bash completion for dractl, written by `dractl completion bash`.
# Command words come from this script; options from `dractl <command> --help`.

_dractl_subcommands() {
    case "$1" in
%1    esac
}

_dractl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local program=${COMP_WORDS[0]} group='' word i children
    [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        [[ $word == -* || $word == help ]] && continue
        children=" $(_dractl_subcommands "$group") "
        if [[ $children != *" $word "* ]]; then
            # The value of an option ("--cache FILE rollout ..."), else the first argument.
            [[ ${COMP_WORDS[i - 1]} == -* ]] && continue
            break
        fi
        group=${group:+$group }$word
    done
    COMPREPLY=()
    # The value of an option that takes one ("--cache <file>"): leave it to file completion.
    if [[ $prev == -* && $cur != -* ]] \
        && "$program" $group --help 2>/dev/null | grep -qE -- "(^| )$prev <"; then
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$program" $group --help 2>/dev/null | %2)" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -W "$(_dractl_subcommands "$group")" -- "$cur"))
}

complete -o default -F _dractl dractl
)sh")
        .arg(words, QString::fromUtf8(kOptionNames));
}

QString zshScript()
{
    const QString described = caseArms(QStringLiteral("reply=(%1)"), [](const Command &command) {
        return quoted(
            lastWord(command.path) + QLatin1Char(':') + QString::fromUtf8(command.summary));
    });
    return QStringLiteral(R"sh(#compdef dractl
# zsh completion for dractl, written by `dractl completion zsh`.
# Command words come from this script; options from `dractl <command> --help`.

_dractl_subcommands() {
    case "$1" in
%1    esac
}

_dractl() {
    local program=${words[1]/#\~/$HOME} group='' word i
    local -a reply names options
    for ((i = 2; i < CURRENT; i++)); do
        word=${words[i]}
        [[ $word == -* || $word == help ]] && continue
        reply=()
        _dractl_subcommands "$group"
        names=(${reply%%:*})
        if (( ! ${names[(Ie)$word]} )); then
            # The value of an option ("--cache FILE rollout ..."), else the first argument.
            [[ ${words[i - 1]} == -* ]] && continue
            break
        fi
        group=${group:+$group }$word
    done
    local cur=${words[CURRENT]} prev=${words[CURRENT - 1]}
    if [[ $prev == -* && $cur != -* ]] \
        && $program ${=group} --help 2>/dev/null | grep -qE -- "(^| )$prev <"; then
        _files
        return
    fi
    if [[ $cur == -* ]]; then
        options=(${(f)"$($program ${
        = group} --help 2>/dev/null | %2)"})
        compadd -- $options
        return
    fi
    reply=()
    _dractl_subcommands "$group"
    if (( $#reply )); then
        _describe -t commands 'dractl command' reply
    else
        _files
    fi
}

if
    [[$funcstack [1] == _dractl]]; then
    _dractl "$@"
else
    compdef _dractl dractl
fi
)sh")
        .arg(described, QString::fromUtf8(kOptionNames));
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
