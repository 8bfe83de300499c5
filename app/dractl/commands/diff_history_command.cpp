// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl diff-history: how one object changed between two points in time, from the change log.
#include <QDateTime>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/cache_access.h"
#include "app/dractl/commands/history_support.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/store/cache_db.h"

namespace dra::cli {

namespace {

using common::qs;

// The object's state at a point: the last logged change then, unless it was a deletion.
struct StateAt
{
    std::optional<store::LoggedChange> change;
    nlohmann::json object; // null when the object did not exist then
};

QString describe(const StateAt &state, int64_t at)
{
    if (!state.change)
        return QStringLiteral("%1: not in the log yet").arg(formatTime(at));
    const QString what = state.change->type == model::ChangeType::Deleted
        ? QStringLiteral("deleted")
        : state.change->type == model::ChangeType::Added ? QStringLiteral("added")
                                                         : QStringLiteral("modified");
    return QStringLiteral("%1: rev %2, %3 at %4, resourceVersion %5")
        .arg(formatTime(at))
        .arg(state.change->rev)
        .arg(what, formatTime(state.change->at), qs(state.change->resourceVersion));
}

std::string shortJson(const nlohmann::json &value)
{
    std::string text = common::compactJson(value);
    if (text.size() > 160)
        text = text.substr(0, 157) + "...";
    return text;
}

} // namespace

int runDiffHistory(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(cacheOption());
    parser.addOption(clusterOption());
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addOption({ { QStringLiteral("n"), QStringLiteral("namespace") },
        QStringLiteral("The object's namespace (namespaced kinds; default: default)."),
        QStringLiteral("ns"), QStringLiteral("default") });
    parser.addOption(
        { QStringLiteral("from"), QStringLiteral("The earlier point (10m, 2h, 3d ago, or a time)."),
            QStringLiteral("time") });
    parser.addOption({ QStringLiteral("to"), QStringLiteral("The later point (default: now)."),
        QStringLiteral("time"), QStringLiteral("now") });
    parser.addPositionalArgument(QStringLiteral("object"),
        QStringLiteral("KIND/NAME or KIND NAME (resourceclaim/train-0, slice node-1-gpu)."),
        QStringLiteral("OBJECT"));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "Show how one object changed between two points in time, field by field, from "
                "the cache's change log."),
            &exitCode))
        return exitCode;
    QStringList positional = parser.positionalArguments();
    if (positional.size() == 1 && positional[0].contains(QLatin1Char('/')))
        positional = { positional[0].section(QLatin1Char('/'), 0, 0),
            positional[0].section(QLatin1Char('/'), 1) };
    if (positional.size() != 2)
        return reportFailure(
            QStringLiteral("diff-history: name one object, e.g. resourceclaim/train-0"));
    const model::KindInfo *kind = model::findKind(positional[0].toStdString());
    if (!kind)
        return reportFailure(QStringLiteral("unknown kind \"%1\"").arg(positional[0]));
    if (!parser.isSet(QStringLiteral("from")))
        return reportFailure(QStringLiteral("diff-history: --from is required"));
    const QString format = parser.value(QStringLiteral("output"));
    if (format != QLatin1String("text") && !isStructured(format))
        return reportFailure(QStringLiteral("-o %1: expected text, json or yaml").arg(format));

    const int64_t now = QDateTime::currentMSecsSinceEpoch();
    Result<int64_t> from
        = parseTimePoint(parser.value(QStringLiteral("from")), QStringLiteral("--from"), now);
    if (!from)
        return reportFailure(from.error());
    Result<int64_t> to
        = parseTimePoint(parser.value(QStringLiteral("to")), QStringLiteral("--to"), now);
    if (!to)
        return reportFailure(to.error());
    if (*to < *from)
        return reportFailure(QStringLiteral("--to is before --from"));

    Result<ClusterCache> opened = openClusterCache(parser);
    if (!opened)
        return reportFailure(opened.error());
    const common::ObjectKey key { std::string(kind->group), std::string(kind->name),
        kind->namespaced ? parser.value(QStringLiteral("namespace")).toStdString() : std::string(),
        positional[1].toStdString() };
    StateAt states[2];
    for (int i = 0; i < 2; ++i) {
        Result<std::optional<store::LoggedChange>> change
            = opened->cache.changeAt(opened->cluster, key, i == 0 ? *from : *to);
        if (!change)
            return reportFailure(change.error());
        states[i].change = *change;
        if (*change && (*change)->type != model::ChangeType::Deleted)
            states[i].object = nlohmann::json::parse((*change)->json, nullptr, false);
    }
    if (!states[0].change && !states[1].change) {
        Result<std::pair<int64_t, int64_t>> oldest = opened->cache.oldestChange();
        return reportFailure(
            QStringLiteral("%1: no change of it is logged up to %2%3")
                .arg(qs(key.display()), formatTime(*to),
                    oldest && oldest->second > 0 ? QStringLiteral(" (the log goes back to %1)")
                                                       .arg(formatTime(oldest->first))
                                                 : QString()));
    }
    const std::vector<JsonDifference> differences = diffJson(states[0].object, states[1].object);

    if (isStructured(format)) {
        auto point = [](const StateAt &state, int64_t at) {
            nlohmann::json json = { { "time",
                QDateTime::fromMSecsSinceEpoch(at, Qt::UTC)
                    .toString(Qt::ISODateWithMs)
                    .toStdString() } };
            if (state.change) {
                json["rev"] = state.change->rev;
                json["resourceVersion"] = state.change->resourceVersion;
            }
            json["object"] = state.object;
            return json;
        };
        nlohmann::json changes = nlohmann::json::array();
        for (const JsonDifference &difference : differences) {
            nlohmann::json item = { { "op",
                                        difference.op == '+'       ? "add"
                                            : difference.op == '-' ? "remove"
                                                                   : "change" },
                { "path", difference.path } };
            if (difference.from)
                item["from"] = *difference.from;
            if (difference.to)
                item["to"] = *difference.to;
            changes.push_back(std::move(item));
        }
        const nlohmann::json result
            = { { "object", key.display() }, { "from", point(states[0], *from) },
                  { "to", point(states[1], *to) }, { "changes", changes } };
        if (format == QLatin1String("json"))
            printJson(result);
        else
            printYaml(result);
        return Ok;
    }
    out(qs(key.display()) + QLatin1Char('\n'));
    out(QStringLiteral("  from %1\n  to   %2\n")
            .arg(describe(states[0], *from), describe(states[1], *to)));
    if (differences.empty()) {
        out(QStringLiteral("no difference\n"));
        return Ok;
    }
    for (const JsonDifference &difference : differences) {
        std::string line(1, difference.op);
        line += " " + (difference.path.empty() ? std::string("(whole object)") : difference.path)
            + ": ";
        if (difference.op == '~')
            line += shortJson(*difference.from) + " -> " + shortJson(*difference.to);
        else
            line += shortJson(difference.op == '+' ? *difference.to : *difference.from);
        out(line + "\n");
    }
    return Ok;
}

namespace {
const CommandRegistration diffHistoryRegistration({ "diff-history",
    "Show how one object changed between two points in time", runDiffHistory, 36 });
} // namespace

} // namespace dra::cli
