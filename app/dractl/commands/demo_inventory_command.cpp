// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl demo-inventory`: prints a generated demo cluster as one v1 List.

#include <QCommandLineParser>

#include "app/dractl/cli.h"
#include "app/dractl/commands/output.h"
#include "core/common/json_text.h"
#include "core/sandbox/presets.h"

namespace dra::cli {

namespace {

QString presetHelp()
{
    QString text
        = QStringLiteral("Generate a demo cluster inventory (resource.k8s.io/v1 and core v1 "
                         "objects) as one List.\n\nPresets:");
    for (const auto &[name, description] : sandbox::presetNames())
        text
            += QStringLiteral("\n  %1  %2").arg(common::qs(name), -10).arg(common::qs(description));
    return text;
}

} // namespace

// Exit Usage for bad arguments, Failed if the generator refuses the options, Ok otherwise.
int runDemoInventory(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Preset to generate."),
        QStringLiteral("name"), QStringLiteral("mixed"));
    const QCommandLineOption nodes(QStringLiteral("nodes"),
        QStringLiteral("Number of nodes (default: the preset's)."), QStringLiteral("n"),
        QStringLiteral("0"));
    const QCommandLineOption seed(QStringLiteral("seed"),
        QStringLiteral("Seed for uids, GPU UUIDs and placement (default 1)."), QStringLiteral("s"),
        QStringLiteral("1"));
    const QCommandLineOption output = outputOption(QStringLiteral("json"));
    parser.addOptions({ preset, nodes, seed, output });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments, presetHelp(), &exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty()) {
        err(QStringLiteral("dractl: demo-inventory takes no positional arguments\n"));
        return Usage;
    }

    bool nodesOk = false;
    const int nodeCount = parser.value(nodes).toInt(&nodesOk);
    bool seedOk = false;
    const qulonglong seedValue = parser.value(seed).toULongLong(&seedOk);
    if (!nodesOk || nodeCount < 0) {
        err(QStringLiteral("dractl: --nodes wants a whole number >= 0, not \"%1\"\n")
                .arg(parser.value(nodes)));
        return Usage;
    }
    if (!seedOk) {
        err(QStringLiteral("dractl: --seed wants a whole number, not \"%1\"\n")
                .arg(parser.value(seed)));
        return Usage;
    }
    const QString format = parser.value(output);
    if (!isStructured(format)) {
        err(QStringLiteral("dractl: unknown output format \"%1\" (json, yaml)\n").arg(format));
        return Usage;
    }

    const auto inventory = sandbox::generateInventory(
        { parser.value(preset).toStdString(), nodeCount, static_cast<uint64_t>(seedValue) });
    if (!inventory)
        return reportFailure(inventory.error());
    format == QLatin1String("json") ? printJson(*inventory) : printYaml(*inventory);
    return Ok;
}

namespace {
const CommandRegistration demoInventoryRegistration({ "demo-inventory",
    "Generate a demo cluster inventory (NVIDIA-like GPUs)", runDemoInventory, 40 });
} // namespace

} // namespace dra::cli
