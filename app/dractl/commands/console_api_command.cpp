// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl console-api PATH: what the web console's API (/console/v1/PATH) answers, computed on
// the cache by the same function the server calls: the command-line twin of every view of the
// web console.
#include <QFile>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/server/console_api.h"
#include "core/server/console_api_rollouts.h"

namespace dra::cli {

namespace {

using common::qs;

int runConsoleApi(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(stateOption());
    parser.addOption({ QStringLiteral("body"),
        QStringLiteral("Send this file's text as the request's body, as the page POSTs it "
                       "(templates/check, templates/negative-control)."),
        QStringLiteral("file") });
    parser.addPositionalArgument(QStringLiteral("path"),
        QStringLiteral("overview, devices?selector=...&sort=memory, classes, claims/NS/NAME, "
                       "... (with or without /console/v1/ before it)"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Print what the web console's API answers at /console/v1/PATH, computed on the "
                "cache with the server's own code: info, overview, devices (q, selector, node, "
                "sort, order, offset, limit), device?driver=&pool=&name=, classes, claims, "
                "claims/NS/NAME, templates, templates/NS/NAME, templates/check --body FILE, "
                "templates/negative-control --body FILE, "
                "topology/NODE, lint, free?by=, cel/check?expr=, cel/eval?expr=, "
                "explain/pod/NS/NAME, explain/claim/NS/NAME; rollouts and rollouts/NAME from the "
                "state file (--state).\n"
                "Exit status 1 when the API would answer an error."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return reportFailure(QStringLiteral("console-api: usage: dractl console-api PATH"));
    std::string target = parser.positionalArguments().front().toStdString();
    const std::string prefix = std::string(server::console::kPrefix) + "/";
    if (target.starts_with(prefix))
        target = target.substr(prefix.size());
    else if (target.starts_with("/"))
        target = target.substr(1);
    const size_t question = target.find('?');
    const std::string path = server::percentDecode(target.substr(0, question), false);
    const server::QueryParams query = server::QueryParams::parse(question == std::string::npos
            ? std::string_view()
            : std::string_view(target).substr(question + 1));

    std::string body;
    if (parser.isSet(QStringLiteral("body"))) {
        if (!server::console::takesBody(path))
            return reportFailure(QStringLiteral("console-api: %1 takes no body").arg(qs(path)));
        QFile file(parser.value(QStringLiteral("body")));
        if (!file.open(QIODevice::ReadOnly))
            return reportFailure(
                QStringLiteral("console-api: %1: %2")
                    .arg(parser.value(QStringLiteral("body")), file.errorString()));
        body = file.readAll().toStdString();
    }
    if (server::console::isRolloutsPath(path)) {
        // The rollout pages read the state file, not the cache.
        Result<QString> stateFile = statePath(parser);
        if (!stateFile)
            return reportFailure(stateFile.error());
        const server::console::Answer answer = server::console::rolloutsAnswer(*stateFile, path);
        printJson(answer.body);
        return answer.status < 300 ? Ok : Failed;
    }
    Result<server::console::ConsoleState> state = loadCachedConsoleState(parser);
    if (!state)
        return reportFailure(state.error());
    server::console::AnswerCaches caches;
    const server::console::Answer answer
        = server::console::answer(*state, path, query, caches, body);
    printJson(answer.body);
    return answer.status < 300 ? Ok : Failed;
}

const CommandRegistration consoleApiRegistration({ "console-api",
    "Print what the web console's API answers for a path, from the cache", runConsoleApi, 72 });

} // namespace

} // namespace dra::cli
