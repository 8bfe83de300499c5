// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl bench cel: a selector evaluated over every device of a ResourceSliceList, as the
// template editor re-evaluates it on each keystroke. Prints one JSON line. `--binding plain`
// evaluates the same engine on plain CEL maps (versions as strings, capacities as integers in
// base units), the shape JavaScript peers are given, so the same text can be timed on both.
#include <algorithm>
#include <array>
#include <chrono>

#include <nlohmann/json.hpp>

#include "app/dractl/commands/bench_timing.h"
#include "app/dractl/cli.h"
#include "app/dractl/commands/cel_inventory.h"
#include "core/cel/dra_environment.h"
#include "core/cel/device_table.h"
#include "core/cel/dra_selector.h"
#include "core/cel/program.h"
#include "core/cel/selector_evaluator.h"

namespace dra::cli {

namespace {

using Clock = std::chrono::steady_clock;

double nanosSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

struct Pass
{
    int matches = 0;
    int errors = 0;
};

// Keys are borrowed from the device: maps keep them in shapes shared by every map built alike,
// as a JavaScript engine interns property names and shares hidden classes.
template <typename Map> cel::Value mapValue(const Map &entries)
{
    auto data = std::make_shared<cel::MapData>();
    data->reserve(entries.size());
    for (auto &[key, value] : entries)
        data->insert(cel::Value::borrowedString(key), value);
    return cel::Value::map(std::move(data));
}

// `device` as a plain CEL map: attributes and capacities by domain, versions as text and
// capacities as whole numbers of their base unit (rounded up, as Kubernetes' Value()).
cel::Value plainDevice(const inventory::Device &device)
{
    using Entries = std::vector<std::pair<std::string_view, cel::Value>>;
    Entries attributes, capacity;
    for (const auto &domain : device.view.attributeDomains()) {
        Entries entries;
        for (const auto &e : domain.entries) {
            using T = cel::DeviceAttributeValue::Type;
            switch (e.value.type) {
            case T::Int:
                entries.emplace_back(e.name, cel::Value::integer(e.value.intValue));
                break;
            case T::Bool:
                entries.emplace_back(e.name, cel::Value::boolean(e.value.boolValue));
                break;
            case T::String:
            case T::Version:
                entries.emplace_back(e.name, cel::Value::string(e.value.stringValue));
                break;
            case T::Ints:
            case T::Bools:
            case T::Strings: // borrowed: the device outlives the benchmark
                entries.emplace_back(e.name, cel::deviceAttributeValue(e.value));
                break;
            case T::Versions: {
                std::vector<cel::Value> texts;
                if (e.value.list)
                    for (const std::string &text : e.value.list->texts)
                        texts.push_back(cel::Value::string(text));
                entries.emplace_back(e.name, cel::Value::list(std::move(texts)));
                break;
            }
            }
        }
        attributes.emplace_back(domain.name, mapValue(entries));
    }
    for (const auto &domain : device.view.capacityDomains()) {
        Entries entries;
        for (const auto &e : domain.entries)
            entries.emplace_back(e.name, cel::Value::integer(e.value.value()));
        capacity.emplace_back(domain.name, mapValue(entries));
    }
    const Entries fields { { "driver", cel::Value::string(device.view.driver) },
        { "allowMultipleAllocations", cel::Value::boolean(device.view.allowMultipleAllocations) },
        { "attributes", mapValue(attributes) }, { "capacity", mapValue(capacity) } };
    return mapValue(fields);
}

const cel::Environment &plainEnvironment()
{
    static const cel::Environment env = [] {
        cel::Environment e = cel::Environment::standard(cel::LibrarySet::kubernetesSelectors());
        e.addVariable("device");
        return e;
    }();
    return env;
}

void count(Pass &pass, const cel::Value &v)
{
    if (v.kind() == cel::Kind::Bool)
        pass.matches += v.asBool() ? 1 : 0;
    else
        ++pass.errors;
}

} // namespace

int runBenchCel(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(celInventoryOption());
    parser.addOption({ QStringLiteral("expr"), QStringLiteral("The selector to evaluate."),
        QStringLiteral("expression") });
    parser.addOption(
        { QStringLiteral("runs"), QStringLiteral("Timed passes over every device (default 20)."),
            QStringLiteral("n"), QStringLiteral("20") });
    parser.addOption(
        { QStringLiteral("warmup"), QStringLiteral("Untimed passes first (default 3)."),
            QStringLiteral("n"), QStringLiteral("3") });
    parser.addOption({ QStringLiteral("binding"),
        QStringLiteral("k8s: Kubernetes' device (quantities, versions); plain: CEL "
                       "maps with versions as strings and capacities as integers."),
        QStringLiteral("k8s|plain"), QStringLiteral("k8s") });
    parser.addOption({ QStringLiteral("memo"),
        QStringLiteral("on: devices with equal values on what the selector reads share "
                       "one evaluation, as in the editor's sweep; off: evaluate each."),
        QStringLiteral("on|off"), QStringLiteral("on") });
    int exitCode = Ok;
    if (!parseOrExit(parser, arguments,
            QStringLiteral("Benchmark a CEL selector over every device of a "
                           "ResourceSliceList file; prints one JSON line."),
            &exitCode))
        return exitCode;
    if (!parser.isSet(QStringLiteral("inventory")) || !parser.isSet(QStringLiteral("expr"))) {
        err(QStringLiteral("dractl: bench cel needs --inventory FILE and --expr EXPRESSION\n"));
        return Usage;
    }
    const std::string expr = parser.value(QStringLiteral("expr")).toStdString();
    const bool plain = parser.value(QStringLiteral("binding")) == QLatin1String("plain");
    const int runs = std::max(1, parser.value(QStringLiteral("runs")).toInt());
    const int warmup = std::max(0, parser.value(QStringLiteral("warmup")).toInt());
    const auto memo = parser.value(QStringLiteral("memo")) == QLatin1String("off")
        ? cel::SelectorEvaluator::Memo::Off
        : cel::SelectorEvaluator::Memo::On;

    const Clock::time_point loadStart = Clock::now();
    Result<std::vector<inventory::Device>> devices
        = loadDevicesInFileOrder(parser.value(QStringLiteral("inventory")));
    if (!devices)
        return reportFailure(devices.error());
    const double loadMs = nanosSince(loadStart) / 1e6;

    // Compile repeatedly (there is no compile cache) and keep the median.
    std::vector<double> compileTimes;
    std::vector<cel::Diagnostic> diagnostics;
    cel::CompiledSelector selector;
    cel::Program program;
    for (int i = 0; i < 21; ++i) {
        diagnostics.clear();
        const Clock::time_point start = Clock::now();
        if (plain) {
            cel::CompileOptions options;
            Result<cel::Program> p = cel::compile(plainEnvironment(), expr, options, &diagnostics);
            if (!p)
                return reportFailure(p.error());
            program = std::move(*p);
        } else {
            Result<cel::CompiledSelector> s = cel::compileSelector(expr, &diagnostics);
            if (!s)
                return reportFailure(s.error());
            selector = std::move(*s);
        }
        compileTimes.push_back(nanosSince(start) / 1e3);
    }
    if (plain ? !program.isValid() : !selector.isValid()) {
        for (const cel::Diagnostic &d : diagnostics)
            err(QStringLiteral("dractl: %1:%2: %3\n")
                    .arg(d.line)
                    .arg(d.column)
                    .arg(QString::fromStdString(d.message)));
        return Usage;
    }

    // The inventory's column table is built once per snapshot, not per keystroke: timed apart.
    const Clock::time_point tableStart = Clock::now();
    std::vector<const cel::DeviceView *> views;
    views.reserve(devices->size());
    for (const inventory::Device &d : *devices)
        views.push_back(&d.view);
    const cel::DeviceTable table(views);
    const double tableMs = nanosSince(tableStart) / 1e6;

    std::vector<cel::Value> plainDevices;
    if (plain)
        for (const inventory::Device &d : *devices)
            plainDevices.push_back(plainDevice(d));

    const auto pass = [&] {
        Pass p;
        if (plain) {
            for (const cel::Value &device : plainDevices)
                count(p,
                    program.evaluate(
                        std::span<const cel::Value>(&device, 1), nullptr, cel::kSelectorMaxCost));
        } else {
            // A fresh evaluator per pass: each keystroke in the editor compiles a new selector,
            // so nothing is remembered from an earlier pass.
            cel::SelectorEvaluator evaluator(selector, memo);
            for (size_t i = 0; i < table.size(); ++i) {
                const cel::SelectorResult &r = evaluator.evaluate(table, i);
                p.matches += r.outcome == cel::SelectorResult::Outcome::Match ? 1 : 0;
                p.errors += r.outcome == cel::SelectorResult::Outcome::Error ? 1 : 0;
            }
        }
        return p;
    };
    for (int i = 0; i < warmup; ++i)
        pass();
    std::vector<double> perDevice;
    Pass last;
    for (int i = 0; i < runs; ++i) {
        const Clock::time_point start = Clock::now();
        last = pass();
        const double ns = nanosSince(start);
        perDevice.push_back(devices->empty() ? 0 : ns / static_cast<double>(devices->size()));
    }
    const double nsPerDevice = medianOf(perDevice);
    const nlohmann::json line { { "expr", expr }, { "binding", plain ? "plain" : "k8s" },
        { "memo", memo == cel::SelectorEvaluator::Memo::On && !plain },
        { "devices", devices->size() }, { "matches", last.matches }, { "errors", last.errors },
        { "runs", runs }, { "ns_per_device", nsPerDevice },
        { "pass_ms", nsPerDevice * static_cast<double>(devices->size()) / 1e6 },
        { "compile_us", medianOf(compileTimes) },
        { "cost_max", plain ? nlohmann::json(nullptr) : nlohmann::json(selector.cost().max) },
        { "load_ms", loadMs }, { "table_ms", tableMs } };
    out(line.dump() + "\n");
    return Ok;
}

namespace {
const CommandRegistration benchCelRegistration({ .path = "bench cel",
    .summary = "a CEL selector over every device of an inventory file",
    .run = runBenchCel,
    .order = 60 });
} // namespace

} // namespace dra::cli
