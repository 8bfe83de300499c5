// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl template fields FILE: the structure the template editor's form shows, read from a
// ResourceClaimTemplate or ResourceClaim manifest — the form's twin for scripts and tests.
#include <QFile>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "core/model/claim_template_form.h"

namespace dra::cli {

namespace {

std::string specLine(const model::FormDeviceSpec &spec)
{
    std::string line = spec.deviceClassName.empty() ? "(no class)" : spec.deviceClassName;
    line += spec.isAll() ? ", all matching" : ", count " + std::to_string(spec.effectiveCount());
    if (!spec.selectors.empty())
        line += ", " + std::to_string(spec.selectors.size()) + " selector(s)";
    if (!spec.tolerations.empty())
        line += ", " + std::to_string(spec.tolerations.size()) + " toleration(s)";
    if (spec.adminAccess)
        line += ", admin access";
    if (!spec.capacityRequests.empty())
        line += ", capacity " + model::capacityRequestsText(spec);
    return line;
}

void printFields(const model::ClaimTemplateForm &form)
{
    std::string text = form.kind + " " + (form.ns.empty() ? "default" : form.ns) + "/" + form.name + "\n";
    for (const model::FormRequest &request : form.requests) {
        if (!request.firstAvailable) {
            text += "  request " + request.name + ": " + specLine(request.exactly) + "\n";
            continue;
        }
        text += "  request " + request.name + ": first available of\n";
        for (const model::FormDeviceSpec &alternative : request.alternatives)
            text += "    " + alternative.name + ": " + specLine(alternative) + "\n";
    }
    for (const model::FormConstraint &constraint : form.constraints)
        text += "  constraint on " + (constraint.requests.empty() ? "all" : model::requestListText(constraint.requests))
            + (constraint.matchAttribute.empty() ? "" : ": same " + constraint.matchAttribute)
            + (constraint.distinctAttribute.empty() ? "" : ": distinct " + constraint.distinctAttribute) + "\n";
    for (const model::FormConfig &config : form.config)
        text += "  config for " + (config.requests.empty() ? "all" : model::requestListText(config.requests)) + ": "
            + config.driver + "\n";
    out(text);
}

int fields(const QString &path, const QString &format)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("template: %1: %2").arg(path, file.errorString()));
    Result<model::ClaimTemplateForm> form = model::readClaimTemplateForm(file.readAll().toStdString(), path);
    if (!form) {
        // The input is at fault, as with `cel check`: the usage exit status, and the error as
        // JSON for scripts that asked for JSON.
        if (format == QLatin1String("json"))
            printJson({ { "error", form.error().message.toStdString() } });
        err(QStringLiteral("dractl: %1\n").arg(form.error().message));
        return Usage;
    }
    if (format == QLatin1String("json"))
        printJson(model::claimTemplateFormJson(*form));
    else
        printFields(*form);
    return Ok;
}

int runTemplate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(QStringLiteral("action"),
                                 QStringLiteral("fields: the requests, constraints and config of a ResourceClaimTemplate "
                                                "or ResourceClaim, as the template editor's form shows them."));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("A YAML or JSON manifest."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
                     QStringLiteral("Show a claim template's structure as the editor's form does.\n"
                                    "Exit status 2 when the file does not read as a template."),
                     &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("template")))
        return Usage;
    const QStringList positional = parser.positionalArguments();
    if (positional.value(0) != QLatin1String("fields") || positional.size() != 2) {
        err(QStringLiteral("dractl: template: say fields FILE\n"));
        return Usage;
    }
    return fields(positional.value(1), format);
}

const CommandRegistration templateRegistration(
    { "template", "Show a claim template's requests, constraints and config as the editor's form does", runTemplate, 56 });

} // namespace

} // namespace dra::cli
