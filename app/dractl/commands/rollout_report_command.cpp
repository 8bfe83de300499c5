// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl rollout report: the evidence bundle of a rollout from the state file, as one
// self-contained HTML page or as JSON.
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/rollout_drive.h"
#include "core/common/json_text.h"
#include "core/rollout/audit_log.h"
#include "core/rollout/rollout_report.h"
#include "core/rollout/rollout_store.h"
#include "core/store/state_db.h"

namespace dra::cli {

using common::qs;

int runRolloutReport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(stateOption());
    parser.addOption(outputOption(QStringLiteral("html")));
    parser.addOption({ QStringLiteral("output-file"),
        QStringLiteral("Write the report to FILE instead of stdout."), QStringLiteral("FILE") });
    parser.addPositionalArgument(QStringLiteral("NAME"), QStringLiteral("The rollout."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral(
                "The evidence bundle of a rollout: the stages as a timeline, each gate with its "
                "evidence, every mutation with its preview, and the audit log with the check of "
                "its hash chain; as one self-contained HTML page or as JSON."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format, { QStringLiteral("html"), QStringLiteral("json") },
            QStringLiteral("rollout report")))
        return Usage;
    if (parser.positionalArguments().size() != 1)
        return err(QStringLiteral("dractl rollout report: name one rollout\n")), Usage;
    const std::string id = parser.positionalArguments().front().toStdString();
    Result<QString> state = statePath(parser);
    if (!state)
        return reportFailure(state.error());
    if (!QFileInfo::exists(*state))
        return reportFailure(QStringLiteral("rollout report: no state file at %1").arg(*state));
    Result<store::StateDb> db = store::StateDb::open(*state, store::OpenMode::ReadOnly);
    if (!db)
        return reportFailure(db.error());
    Result<std::optional<rollout::RolloutRecord>> record = rollout::RolloutStore(*db).load(id);
    if (!record)
        return reportFailure(record.error());
    if (!*record)
        return reportFailure(
            QStringLiteral("rollout report: no rollout named %1 in %2").arg(qs(id), *state));
    rollout::AuditLog log(db->database());
    Result<rollout::AuditLog::TargetAudit> audit = log.entriesVerified(id);
    if (!audit)
        return reportFailure(audit.error());
    const rollout::RolloutReportInput input { std::move(**record), std::move(audit->entries),
        audit->verification, QDateTime::currentMSecsSinceEpoch() };
    const std::string text = format == QLatin1String("json")
        ? rollout::rolloutReportJson(input).dump(2) + "\n"
        : rollout::rolloutReportHtml(input);
    if (parser.isSet(QStringLiteral("output-file"))) {
        QFile file(parser.value(QStringLiteral("output-file")));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || file.write(text.data(), qint64(text.size())) != qint64(text.size()))
            return reportFailure(QStringLiteral("rollout report: cannot write %1: %2")
                                     .arg(file.fileName(), file.errorString()));
        out(QStringLiteral("Wrote %1\n").arg(file.fileName()));
        return Ok;
    }
    out(text);
    return Ok;
}

} // namespace dra::cli
