// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The registered subcommands. Command files register themselves (CommandRegistration) during
// static initialisation; main() asks for the list only after that, sorted once.
#include <algorithm>
#include <cstring>
#include <vector>

#include "app/dractl/cli.h"

namespace dra::cli {
namespace {

std::vector<Command> &registered()
{
    static std::vector<Command> list; // a function-local static: safe from initialisation order
    return list;
}

} // namespace

CommandRegistration::CommandRegistration(const Command &command)
{
    registered().push_back(command);
}

std::span<const Command> commands()
{
    static const bool sorted = [] {
        std::ranges::sort(registered(), [](const Command &a, const Command &b) {
            return a.order != b.order ? a.order < b.order : std::strcmp(a.name, b.name) < 0;
        });
        return true;
    }();
    (void)sorted;
    return registered();
}

} // namespace dra::cli
