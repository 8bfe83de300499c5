// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/selector_sweep.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

#include "core/cel/device_table.h"
#include "core/cel/dra_selector.h"
#include "core/cel/parser.h"
#include "core/cel/selector_evaluator.h"
#include "core/cel/selector_lint.h"
#include "core/inventory/cluster_release.h"

namespace dra::inventory {
namespace {

// Levenshtein distance, for "did you mean": names are short, so the quadratic table is cheap.
size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        previous[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t substitute
                = previous[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
            current[j] = std::min({ previous[j] + 1, current[j - 1] + 1, substitute });
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

// The closest of `candidates` to `name`, when it is close enough to be what the user meant.
std::string nearest(std::string_view name, const std::set<std::string> &candidates)
{
    std::string best;
    size_t bestDistance = std::max<size_t>(3, name.size() / 3) + 1;
    for (const std::string &candidate : candidates) {
        const size_t distance = editDistance(name, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    return best;
}

// Published names per domain, for attributes or for capacities.
struct Names
{
    std::set<std::string> drivers, attributeDomains, capacityDomains;
    std::map<std::string, std::set<std::string>> attributes, capacities; // domain -> names
};

Names publishedNames(const Snapshot &snapshot)
{
    Names names;
    for (const Device *device : snapshot.devices()) {
        names.drivers.insert(device->key.driver);
        for (const auto &domain : device->view.attributeDomains()) {
            names.attributeDomains.insert(domain.name);
            auto &set = names.attributes[domain.name];
            for (const auto &entry : domain.entries)
                set.insert(entry.name);
        }
        for (const auto &domain : device->view.capacityDomains()) {
            names.capacityDomains.insert(domain.name);
            auto &set = names.capacities[domain.name];
            for (const auto &entry : domain.entries)
                set.insert(entry.name);
        }
    }
    return names;
}

void warn(std::vector<cel::Diagnostic> &out, const cel::SourceInfo &source,
    std::string_view expression, size_t offset, std::string message)
{
    cel::Diagnostic diagnostic;
    diagnostic.severity = cel::Diagnostic::Severity::Warning;
    source.locate(int32_t(std::min(offset, expression.size())), diagnostic.line, diagnostic.column);
    diagnostic.message = std::move(message);
    out.push_back(std::move(diagnostic));
}

std::string suggestion(std::string_view name, const std::set<std::string> &candidates)
{
    const std::string best = nearest(name, candidates);
    return best.empty() ? std::string() : "; did you mean \"" + best + "\"?";
}

// The values the snapshot's devices publish per attribute, gathered when the linter asks.
class SnapshotAttributeValues final : public cel::PublishedAttributeValues
{
public:
    explicit SnapshotAttributeValues(const Snapshot &snapshot)
        : m_snapshot(snapshot)
    {
    }

    const std::vector<cel::Value> *values(
        std::string_view domain, std::string_view name) const override
    {
        const std::string key = std::string(domain) + "/" + std::string(name);
        auto [it, inserted] = m_values.try_emplace(key);
        if (inserted)
            it->second = gather(domain, name);
        return it->second ? &*it->second : nullptr;
    }

    bool publishedAsList(std::string_view domain, std::string_view name) const override
    {
        const std::string key = std::string(domain) + "/" + std::string(name);
        const auto [it, inserted] = m_lists.try_emplace(key, false);
        if (inserted) {
            cel::DeviceLookupHint hint;
            for (const Device *device : m_snapshot.devices()) {
                const cel::DeviceAttributeValue *value
                    = device->view.findAttribute(domain, name, hint);
                if (value && value->isList()) {
                    it->second = true;
                    break;
                }
            }
        }
        return it->second;
    }

private:
    std::optional<std::vector<cel::Value>> gather(
        std::string_view domain, std::string_view name) const
    {
        std::set<std::string> strings;
        std::set<int64_t> ints;
        std::set<bool> bools;
        cel::DeviceLookupHint hint;
        for (const Device *device : m_snapshot.devices()) {
            const cel::DeviceAttributeValue *value = device->view.findAttribute(domain, name, hint);
            if (!value)
                continue;
            switch (value->type) {
            case cel::DeviceAttributeValue::Type::String:
                strings.insert(value->stringValue);
                break;
            case cel::DeviceAttributeValue::Type::Int:
                ints.insert(value->intValue);
                break;
            case cel::DeviceAttributeValue::Type::Bool:
                bools.insert(value->boolValue);
                break;
            case cel::DeviceAttributeValue::Type::Version:
                return std::nullopt; // compared as semver
            default:
                // A list never equals a scalar literal, yet the literal may be one of its
                // values: which comparisons can hold is not a question of published values.
                return std::nullopt;
            }
        }
        if (strings.empty() && ints.empty() && bools.empty())
            return std::nullopt;
        std::vector<cel::Value> out;
        for (const std::string &s : strings)
            out.push_back(cel::Value::string(s));
        for (int64_t i : ints)
            out.push_back(cel::Value::integer(i));
        for (bool b : bools)
            out.push_back(cel::Value::boolean(b));
        return out;
    }

    const Snapshot &m_snapshot;
    mutable std::map<std::string, std::optional<std::vector<cel::Value>>> m_values;
    mutable std::map<std::string, bool> m_lists;
};

} // namespace

std::vector<cel::Diagnostic> inventoryWarnings(
    const Snapshot &snapshot, std::string_view expression)
{
    std::vector<cel::Diagnostic> warnings;
    if (snapshot.devices().empty())
        return warnings; // nothing to compare against: an empty cache is not a typo
    const Names names = publishedNames(snapshot);
    const cel::SourceInfo source(expression);
    const std::string text(expression);

    // device.driver == "name" (either operand order is rare enough to skip).
    static const std::regex driverPattern(R"(device\s*\.\s*driver\s*==\s*["']([^"']*)["'])");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), driverPattern);
         it != std::sregex_iterator(); ++it) {
        const std::string driver = (*it)[1];
        if (!names.drivers.contains(driver))
            warn(warnings, source, expression, size_t((*it).position(1)),
                "no device in the inventory has driver \"" + driver + "\""
                    + suggestion(driver, names.drivers));
    }

    // device.attributes["domain"].name and device.capacity["domain"].name
    static const std::regex memberPattern(
        R"(device\s*\.\s*(attributes|capacity)\s*\[\s*["']([^"']*)["']\s*\](?:\s*\.\s*([A-Za-z_][A-Za-z0-9_]*))?)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), memberPattern);
         it != std::sregex_iterator(); ++it) {
        const bool attributes = (*it)[1] == "attributes";
        const std::string domain = (*it)[2];
        const auto &domains = attributes ? names.attributeDomains : names.capacityDomains;
        const auto &byDomain = attributes ? names.attributes : names.capacities;
        const char *what = attributes ? "attribute" : "capacity";
        if (!domains.contains(domain)) {
            warn(warnings, source, expression, size_t((*it).position(2)),
                std::string("no device publishes ") + what + "s in domain \"" + domain + "\""
                    + suggestion(domain, domains));
            continue;
        }
        if ((*it)[3].matched) {
            const std::string name = (*it)[3];
            const auto &published = byDomain.at(domain);
            if (!published.contains(name))
                warn(warnings, source, expression, size_t((*it).position(3)),
                    std::string("no device publishes the ") + what + " \"" + domain + "/" + name
                        + "\"" + suggestion(name, published));
        }
    }
    // Comparisons with attribute values no device publishes (`productName == "H200"`).
    if (const std::optional<cel::ParsedExpr> parsed
        = cel::parse(expression, cel::ParseOptions {}, nullptr))
        cel::lintSelectorValues(*parsed, SnapshotAttributeValues(snapshot), &warnings);
    return warnings;
}

SelectorSweep sweepSelector(
    const Snapshot &snapshot, std::string_view expression, const std::atomic<bool> *cancel)
{
    SelectorSweep sweep;
    // A selector being written for the cluster: its release, the rules of a new expression.
    Result<cel::CompiledSelector> compiled
        = cel::compileSelector(expression, newSelectorOptions(snapshot), &sweep.diagnostics);
    if (!compiled) {
        cel::Diagnostic fault;
        fault.message = compiled.error().message.toStdString();
        sweep.diagnostics.push_back(std::move(fault));
        return sweep;
    }
    std::vector<cel::Diagnostic> warnings = inventoryWarnings(snapshot, expression);
    sweep.diagnostics.insert(sweep.diagnostics.end(), warnings.begin(), warnings.end());
    sweep.valid = compiled->isValid();
    if (!sweep.valid)
        return sweep;
    // The sweep reads the devices by column; devices with the same values on what the
    // selector reads share one evaluation.
    cel::SelectorEvaluator evaluator(*compiled);
    const cel::DeviceTable &table = snapshot.deviceTable();
    const std::vector<const Device *> &devices = snapshot.devices();
    for (size_t index = 0; index < devices.size(); ++index) {
        const Device *device = devices[index];
        if (cancel && (sweep.evaluated & 255) == 0 && cancel->load(std::memory_order_relaxed)) {
            sweep.cancelled = true;
            return sweep;
        }
        ++sweep.evaluated;
        const cel::SelectorResult &result = evaluator.evaluate(table, index);
        if (result.outcome == cel::SelectorResult::Outcome::Match) {
            sweep.matches.push_back(device);
            ++sweep.matchesByNode[device->node];
        } else if (result.outcome == cel::SelectorResult::Outcome::Error) {
            if (sweep.runtimeErrors++ == 0)
                sweep.firstRuntimeError = device->key.display() + ": " + result.error;
        }
    }
    return sweep;
}

std::vector<std::string> selectorVocabulary(const Snapshot &snapshot)
{
    std::set<std::string> words {
        "device.driver",
        "device.attributes",
        "device.capacity",
        "device.allowMultipleAllocations",
        "quantity(",
        "semver(",
        "isQuantity(",
        "isSemver(",
        "compareTo(",
        "isGreaterThan(",
        "isLessThan(",
        "matches(",
        "startsWith(",
        "endsWith(",
        "contains(",
        "lowerAscii(",
        "exists(",
        "all(",
        "size(",
        "includes(",
    };
    const Names names = publishedNames(snapshot);
    for (const std::string &driver : names.drivers)
        words.insert(driver);
    for (const auto &[domain, set] : names.attributes) {
        words.insert(domain);
        for (const std::string &name : set) {
            words.insert(name);
            words.insert("device.attributes[\"" + domain + "\"]." + name);
        }
    }
    for (const auto &[domain, set] : names.capacities) {
        words.insert(domain);
        for (const std::string &name : set) {
            words.insert(name);
            words.insert("device.capacity[\"" + domain + "\"]." + name);
        }
    }
    // String values users compare against: product names, profiles, types.
    for (const Device *device : snapshot.devices())
        for (const auto &domain : device->view.attributeDomains())
            for (const auto &entry : domain.entries)
                if (entry.value.type == cel::DeviceAttributeValue::Type::String
                    && entry.value.stringValue.size() < 64)
                    words.insert(entry.value.stringValue);
                else if (entry.value.type == cel::DeviceAttributeValue::Type::Strings
                    && entry.value.list)
                    for (const std::string &element : entry.value.list->texts) // for includes()
                        if (element.size() < 64)
                            words.insert(element);
    return { words.begin(), words.end() };
}

} // namespace dra::inventory
