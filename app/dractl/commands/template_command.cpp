// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl template fields FILE: the structure the template editor's form shows, read from a
// ResourceClaimTemplate or ResourceClaim manifest — the form's twin for scripts and tests.
// dractl template set FILE: the form's edits of one request (class, count, selectors), written
// into the YAML as the form writes them, comments kept.
// dractl template check FILE...: the editor's check (template_check_command.cpp).
#include <algorithm>
#include <optional>
#include <variant>

#include <QFile>
#include <QSaveFile>

#include <nlohmann/json.hpp>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "app/dractl/commands/template_check_command.h"
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
    std::string text
        = form.kind + " " + (form.ns.empty() ? "default" : form.ns) + "/" + form.name + "\n";
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
        text += "  constraint on "
            + (constraint.requests.empty() ? "all" : model::requestListText(constraint.requests))
            + (constraint.matchAttribute.empty() ? "" : ": same " + constraint.matchAttribute)
            + (constraint.distinctAttribute.empty() ? ""
                                                    : ": distinct " + constraint.distinctAttribute)
            + "\n";
    for (const model::FormConfig &config : form.config)
        text += "  config for "
            + (config.requests.empty() ? "all" : model::requestListText(config.requests)) + ": "
            + config.driver + "\n";
    out(text);
}

// The file's text and form, or the exit status after the error was printed.
struct ReadTemplate
{
    std::string text;
    model::ClaimTemplateForm form;
};
std::variant<ReadTemplate, int> readTemplate(const QString &path, const QString &format)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return reportFailure(QStringLiteral("template: %1: %2").arg(path, file.errorString()));
    ReadTemplate read { file.readAll().toStdString(), {} };
    Result<model::ClaimTemplateForm> form = model::readClaimTemplateForm(read.text, path);
    if (!form) {
        // The input is at fault, as with `cel check`: the usage exit status, and the error as
        // JSON for scripts that asked for JSON.
        if (format == QLatin1String("json"))
            printJson({ { "error", form.error().message.toStdString() } });
        err(QStringLiteral("dractl: %1\n").arg(form.error().message));
        return Usage;
    }
    read.form = std::move(*form);
    return read;
}

int fields(const QString &path, const QString &format)
{
    std::variant<ReadTemplate, int> read = readTemplate(path, format);
    if (const int *status = std::get_if<int>(&read))
        return *status;
    const model::ClaimTemplateForm &form = std::get<ReadTemplate>(read).form;
    if (format == QLatin1String("json"))
        printJson(model::claimTemplateFormJson(form));
    else
        printFields(form);
    return Ok;
}

int usageError(const QString &message)
{
    err(QStringLiteral("dractl: template: %1\n").arg(message));
    return Usage;
}

// What `set` changes of the request it names.
struct RequestEdit
{
    QString request;
    std::optional<QString> deviceClass;
    std::optional<int64_t> count;
    bool all = false;
    std::optional<QStringList> selectors;
};

int set(const QString &path, const RequestEdit &edit, bool inPlace)
{
    std::variant<ReadTemplate, int> read = readTemplate(path, QString());
    if (const int *status = std::get_if<int>(&read))
        return *status;
    auto &[text, form] = std::get<ReadTemplate>(read);
    QStringList names;
    for (const model::FormRequest &request : form.requests)
        names << QString::fromStdString(request.name);
    if (edit.request.isEmpty() && form.requests.size() != 1)
        return usageError(QStringLiteral("%1 has %2 requests (%3): say which with --request")
                              .arg(path)
                              .arg(form.requests.size())
                              .arg(names.join(QStringLiteral(", "))));
    const auto request = std::ranges::find_if(form.requests, [&](const model::FormRequest &r) {
        return edit.request.isEmpty() || QString::fromStdString(r.name) == edit.request;
    });
    if (request == form.requests.end())
        return usageError(
            QStringLiteral("%1 has no request \"%2\" (requests: %3)")
                .arg(path, edit.request,
                    names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "))));
    if (request->firstAvailable)
        return usageError(QStringLiteral(
            "request \"%1\" of %2 lists alternatives (firstAvailable); set edits an exact request")
                              .arg(QString::fromStdString(request->name), path));
    model::FormDeviceSpec &spec = request->exactly;
    if (edit.deviceClass)
        spec.deviceClassName = edit.deviceClass->toStdString();
    if (edit.all) {
        spec.allocationMode = "All";
        spec.count.reset();
    } else if (edit.count) {
        if (spec.allocationMode == "All")
            spec.allocationMode.clear(); // back to ExactCount
        spec.count = *edit.count;
    }
    if (edit.selectors) {
        spec.selectors.clear();
        for (const QString &selector : *edit.selectors)
            spec.selectors.push_back(selector.toStdString());
    }
    Result<std::string> written = model::writeClaimTemplateForm(text, form, path);
    if (!written)
        return usageError(written.error().message);
    if (!inPlace) {
        out(*written);
        return Ok;
    }
    // Written beside and renamed over: a failed write leaves the file as it was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(*written)) < 0
        || !file.commit())
        return reportFailure(QStringLiteral("template: %1: %2").arg(path, file.errorString()));
    return Ok;
}

int runTemplateFields(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(outputOption(QStringLiteral("text")));
    parser.addPositionalArgument(
        QStringLiteral("file"), QStringLiteral("A YAML or JSON manifest."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("The requests, constraints and config of a ResourceClaimTemplate or "
                           "ResourceClaim, as the template editor's form shows them.\n"
                           "Exit status 2 when the file does not read as a template."),
            &exitCode))
        return exitCode;
    const QString format = parser.value(QStringLiteral("output"));
    if (!checkOutputFormat(
            format, { QStringLiteral("text"), QStringLiteral("json") }, QStringLiteral("template")))
        return Usage;
    if (parser.positionalArguments().size() != 1)
        return usageError(QStringLiteral("fields: name one FILE"));
    return fields(parser.positionalArguments().front(), format);
}

int runTemplateSet(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("request"),
        QStringLiteral("The request to edit (needed when there are several)."),
        QStringLiteral("name") });
    parser.addOption(
        { QStringLiteral("class"), QStringLiteral("Its DeviceClass."), QStringLiteral("name") });
    parser.addOption({ QStringLiteral("count"),
        QStringLiteral("How many devices (allocation mode ExactCount)."), QStringLiteral("n") });
    parser.addOption(
        { QStringLiteral("all"), QStringLiteral("Every matching device (allocation mode All).") });
    parser.addOption({ QStringLiteral("selector"),
        QStringLiteral("A CEL selector; repeat for several. Replaces the request's selectors; "
                       "--selector '' removes them."),
        QStringLiteral("cel") });
    parser.addOption({ { QStringLiteral("i"), QStringLiteral("in-place") },
        QStringLiteral("Write the file instead of printing it.") });
    parser.addPositionalArgument(
        QStringLiteral("file"), QStringLiteral("A YAML or JSON manifest."));
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Edit one request of a claim template as the editor's form does "
                           "(comments kept) and print the YAML, or write it with -i.\n"
                           "Exit status 2 when the file does not read as a template or the edit "
                           "does not apply."),
            &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return usageError(QStringLiteral("set: name one FILE"));
    RequestEdit edit;
    edit.request = parser.value(QStringLiteral("request"));
    if (parser.isSet(QStringLiteral("class")))
        edit.deviceClass = parser.value(QStringLiteral("class"));
    if (parser.isSet(QStringLiteral("count"))) {
        bool number = false;
        const qlonglong count = parser.value(QStringLiteral("count")).toLongLong(&number);
        if (!number || count < 1)
            return usageError(
                QStringLiteral("--count needs a whole number of at least 1, not \"%1\"")
                    .arg(parser.value(QStringLiteral("count"))));
        edit.count = count;
    }
    edit.all = parser.isSet(QStringLiteral("all"));
    if (edit.all && edit.count)
        return usageError(QStringLiteral("--all and --count exclude each other"));
    if (parser.isSet(QStringLiteral("selector"))) {
        QStringList selectors = parser.values(QStringLiteral("selector"));
        selectors.removeAll(QString());
        edit.selectors = selectors;
    }
    if (!edit.deviceClass && !edit.count && !edit.all && !edit.selectors)
        return usageError(
            QStringLiteral("set: say what to change (--class, --count, --all, --selector)"));
    return set(
        parser.positionalArguments().front(), edit, parser.isSet(QStringLiteral("in-place")));
}

const CommandRegistration templateRegistration({ .path = "template",
    .summary = "Show, edit or check claim templates as the editor's form and check do",
    .order = 56 });
const CommandRegistration templateFieldsRegistration({ .path = "template fields",
    .summary = "its requests, constraints and config, as the form shows them (-o text|json)",
    .run = runTemplateFields,
    .order = 10,
    .synopsis = "FILE" });
const CommandRegistration templateSetRegistration({ .path = "template set",
    .summary = "edit one request as the form does (comments kept) and print the YAML or write it "
               "(-i)",
    .run = runTemplateSet,
    .order = 20,
    .synopsis = "FILE" });
const CommandRegistration templateCheckRegistration({ .path = "template check",
    .summary = "the template editor's check: matching devices per request, then whether copies "
               "can be allocated",
    .run = runTemplateCheck,
    .order = 30,
    .synopsis = "FILE..." });

} // namespace

} // namespace dra::cli
