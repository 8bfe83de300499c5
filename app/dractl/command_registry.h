// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl's commands and subcommands: each command file registers what it runs, and one
// dispatcher finds it from the words on the command line and writes every list of commands in
// the help.
#pragma once

#include <string_view>
#include <vector>

#include <QString>
#include <QStringList>

namespace dra::cli {

// One command, named by the words a user types after `dractl`: "get", or "rollout promote" for
// a subcommand of the group "rollout". A command without `run` is a group: `dractl rollout`
// lists its subcommands and `dractl rollout promote ...` runs one. A command with both `run`
// and subcommands runs itself unless its first argument names a subcommand.
//
// `run` gets the arguments after the command's words, led by "dractl <words>" (the program name
// QCommandLineParser expects first, and what its --help shows). `order` places a command among
// its siblings in the help: at the top, 10s mirror the cluster, 20s-40s read the cache, 50s
// analyse, 60s drive rollouts, 70s serve, 80s-90s maintain.
struct Command
{
    const char *path;
    const char *summary; // one line, for the parent's list
    int (*run)(const QStringList &arguments) = nullptr;
    int order = 100;
    const char *synopsis = ""; // its arguments in the parent's list: "NAME", "[NAME] [-w]"
    const char *details = ""; // a group's help: a paragraph after its list of subcommands
};

// Each command file registers its commands with static instances of this, so adding a command
// touches no shared list:
//   const cli::CommandRegistration registration({ "get", "Show objects", runGet, 20 });
//   const cli::CommandRegistration promote({ .path = "rollout promote", .summary = "...",
//       .run = runPromote, .order = 20, .synopsis = "NAME" });
// A subcommand's group must be registered too (a group is a Command without `run`).
struct CommandRegistration
{
    explicit CommandRegistration(const Command &command);
};

// The commands directly below `group` ("" for the top level), in help order.
std::vector<const Command *> subcommands(std::string_view group);

// The help of `group` ("" for dractl itself): usage line, summary, its subcommands with their
// synopsis and summary, the group's details.
QString groupHelp(std::string_view group);

// Runs the command the words of `arguments` name (`arguments[0]` is the program, as
// QCoreApplication::arguments() gives it) and returns its exit status. Knows `help`, `--help`,
// `-h` and `--version` at every level, `dractl help <command...>`, and options written before
// a group's subcommand (`dractl cache --cache FILE info`). Unknown words are a usage error (2)
// naming the subcommands that exist.
int dispatch(QStringList arguments);

} // namespace dra::cli
