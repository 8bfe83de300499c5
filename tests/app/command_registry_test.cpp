// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl's dispatcher over a registry of its own: which command runs for which words, what it
// is given, and the help every group prints. The commands here exist only in this test.
#include "app/dractl/command_registry.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "app/dractl/cli.h"

namespace {

using dra::cli::Command;
using dra::cli::CommandRegistration;
using dra::cli::dispatch;

// What the last command run was given.
QStringList g_given;

int record(const QStringList &arguments)
{
    g_given = arguments;
    return 7; // an exit status no dispatcher path makes up
}

const CommandRegistration fleet(
    { .path = "fleet", .summary = "Look after the fleet", .order = 20, .details = "Ships sail." });
const CommandRegistration fleetSail({ .path = "fleet sail",
    .summary = "set sail",
    .run = record,
    .order = 20,
    .synopsis = "SHIP [--wind W]" });
const CommandRegistration fleetDock(
    { .path = "fleet dock", .summary = "come home", .run = record, .order = 10 });
const CommandRegistration fleetCrew(
    { .path = "fleet crew", .summary = "the crew lists", .order = 30 });
const CommandRegistration fleetCrewList(
    { .path = "fleet crew list", .summary = "who is aboard", .run = record });
const CommandRegistration logCommand(
    { .path = "log", .summary = "Read the log", .run = record, .order = 10 });
const CommandRegistration logTrimCommand(
    { .path = "log trim", .summary = "drop old entries", .run = record });

struct Dispatched
{
    int exitCode;
    std::string out, err;
};

Dispatched dispatched(QStringList words)
{
    g_given.clear();
    words.prepend(QStringLiteral("/usr/bin/dractl"));
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const int exitCode = dispatch(words);
    std::fflush(stdout);
    std::string out = testing::internal::GetCapturedStdout();
    return { exitCode, std::move(out), testing::internal::GetCapturedStderr() };
}

QStringList words(const std::vector<const char *> &list)
{
    QStringList result;
    for (const char *word : list)
        result << QString::fromUtf8(word);
    return result;
}

} // namespace

struct DispatchCase
{
    const char *name;
    std::vector<const char *> typed; // after "dractl"
    std::vector<const char *> given; // what the command gets
};

class CommandDispatchTest : public testing::TestWithParam<DispatchCase>
{
};

TEST_P(CommandDispatchTest, RunsTheCommandTheWordsNameWithTheRestOfTheLine)
{
    const Dispatched result = dispatched(words(GetParam().typed));
    EXPECT_EQ(result.exitCode, 7) << result.err;
    EXPECT_EQ(g_given.join(QStringLiteral(" | ")).toStdString(),
        words(GetParam().given).join(QStringLiteral(" | ")).toStdString());
}

INSTANTIATE_TEST_SUITE_P(Registry, CommandDispatchTest,
    testing::Values(DispatchCase { "Subcommand", { "fleet", "sail", "Argo", "--wind", "NE" },
                        { "dractl fleet sail", "Argo", "--wind", "NE" } },
        DispatchCase { "TwoLevelsDown", { "fleet", "crew", "list", "-o", "json" },
            { "dractl fleet crew list", "-o", "json" } },
        DispatchCase { "OptionsBeforeTheSubcommand", { "fleet", "--wind", "NE", "sail", "Argo" },
            { "dractl fleet sail", "--wind", "NE", "Argo" } },
        DispatchCase { "OptionsBeforeANestedSubcommand", { "fleet", "-o", "json", "crew", "list" },
            { "dractl fleet crew list", "-o", "json" } },
        DispatchCase { "RunnableCommandKeepsItsArguments", { "log", "ships", "--since", "2d" },
            { "dractl log", "ships", "--since", "2d" } },
        DispatchCase { "RunnableCommandWithASubcommand", { "log", "trim", "--max-age", "7d" },
            { "dractl log trim", "--max-age", "7d" } },
        DispatchCase {
            "RunnableCommandHelpIsItsOwn", { "log", "--help" }, { "dractl log", "--help" } },
        DispatchCase { "HelpWordBeforeACommand", { "help", "fleet", "sail" },
            { "dractl fleet sail", "--help" } }),
    [](const testing::TestParamInfo<DispatchCase> &info) { return info.param.name; });

TEST(CommandRegistryTest, GroupHelpListsSubcommandsInOrderWithTheirArguments)
{
    for (const QStringList &typed : { words({ "fleet", "--help" }), words({ "fleet", "-h" }),
             words({ "fleet", "help" }), words({ "help", "fleet" }) }) {
        const Dispatched help = dispatched(typed);
        EXPECT_EQ(help.exitCode, 0) << typed.join(QLatin1Char(' ')).toStdString();
        EXPECT_EQ(help.out.rfind("Usage: dractl fleet <command> [options]\n", 0), 0u) << help.out;
        const size_t dock = help.out.find("  dock "),
                     sail = help.out.find("  sail SHIP [--wind W]"),
                     crew = help.out.find("  crew ");
        ASSERT_NE(dock, std::string::npos) << help.out;
        ASSERT_NE(sail, std::string::npos) << help.out;
        ASSERT_NE(crew, std::string::npos) << help.out;
        EXPECT_LT(dock, sail) << "sorted by order";
        EXPECT_LT(sail, crew) << "sorted by order";
        EXPECT_NE(help.out.find("Look after the fleet.\n"), std::string::npos) << help.out;
        EXPECT_NE(help.out.find("Ships sail.\n"), std::string::npos) << help.out;
        EXPECT_EQ(help.out.find("who is aboard"), std::string::npos)
            << "only the commands one level down: " << help.out;
    }
}

TEST(CommandRegistryTest, AGroupWithoutASubcommandShowsItsHelpAsAUsageError)
{
    const Dispatched bare = dispatched(words({ "fleet" }));
    EXPECT_EQ(bare.exitCode, dra::cli::Usage);
    EXPECT_NE(bare.out.find("  sail SHIP"), std::string::npos) << bare.out;
    EXPECT_TRUE(g_given.isEmpty()) << "nothing ran";
}

TEST(CommandRegistryTest, AnUnknownSubcommandIsAUsageErrorNamingTheChoices)
{
    const Dispatched unknown = dispatched(words({ "fleet", "sink", "Argo" }));
    EXPECT_EQ(unknown.exitCode, dra::cli::Usage);
    EXPECT_NE(unknown.err.find("dractl: fleet: unknown command 'sink' (dock, sail, crew)"),
        std::string::npos)
        << unknown.err;
    EXPECT_NE(unknown.err.find("Try 'dractl fleet --help'."), std::string::npos) << unknown.err;
    EXPECT_TRUE(g_given.isEmpty());

    const Dispatched options = dispatched(words({ "fleet", "--wind", "NE" }));
    EXPECT_EQ(options.exitCode, dra::cli::Usage) << "options alone name no subcommand";
    EXPECT_TRUE(g_given.isEmpty());

    const Dispatched top = dispatched(words({ "sail" }));
    EXPECT_EQ(top.exitCode, dra::cli::Usage) << "a subcommand is not a command of its own";
    EXPECT_NE(top.err.find("dractl: unknown command 'sail'"), std::string::npos) << top.err;
}

TEST(CommandRegistryTest, TopLevelHelpListsCommandsOnly)
{
    const Dispatched help = dispatched(words({ "--help" }));
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_EQ(help.out.rfind("Usage: dractl <command> [options]\n", 0), 0u) << help.out;
    EXPECT_LT(help.out.find("  log "), help.out.find("  fleet ")) << help.out;
    EXPECT_EQ(help.out.find("set sail"), std::string::npos) << help.out;
    EXPECT_EQ(dispatched(words({})).exitCode, dra::cli::Usage);
}

TEST(CommandRegistryTest, EveryGroupKnowsTheVersion)
{
    QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
    for (const QStringList &typed :
        { words({ "--version" }), words({ "version" }), words({ "fleet", "--version" }) }) {
        const Dispatched version = dispatched(typed);
        EXPECT_EQ(version.exitCode, 0);
        EXPECT_EQ(version.out, "dractl 9.8.7\n");
    }
}
