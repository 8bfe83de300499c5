// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/allocation_warnings.h"

#include <memory>
#include <optional>

#include "core/cel/dra_selector.h"
#include "core/common/json_text.h"
#include "core/model/quantity.h"

namespace dra::server {

namespace {

using nlohmann::json;

// A list-typed attribute ({"ints": [1, 2]}, ...) of a device row into `attribute`; false for
// any other type or a malformed list.
bool readList(const std::string &type, const json &value, cel::DeviceAttributeValue &attribute)
{
    if (!value.is_array())
        return false;
    std::vector<int64_t> ints;
    std::vector<bool> bools;
    std::vector<std::string> texts;
    for (const json &element : value) {
        if (type == "ints" && element.is_number_integer())
            ints.push_back(element.get<int64_t>());
        else if (type == "bools" && element.is_boolean())
            bools.push_back(element.get<bool>());
        else if ((type == "strings" || type == "versions") && element.is_string())
            texts.push_back(element.get<std::string>());
        else
            return false;
    }
    if (type == "ints")
        attribute = cel::DeviceAttributeValue::ints(std::move(ints));
    else if (type == "bools")
        attribute = cel::DeviceAttributeValue::bools(std::move(bools));
    else if (type == "strings")
        attribute = cel::DeviceAttributeValue::strings(std::move(texts));
    else if (type == "versions")
        attribute = cel::DeviceAttributeValue::versions(std::move(texts));
    else
        return false;
    return true;
}

// The devices of the cluster as selectors see them, read once per write that needs them.
class DeviceCatalog
{
public:
    DeviceCatalog(store::CacheDb &cache, const std::string &cluster)
        : m_cache(cache)
        , m_cluster(cluster)
    {
    }

    const std::vector<cel::DeviceView> &devices()
    {
        if (m_views)
            return *m_views;
        m_views.emplace();
        Result<std::vector<store::SliceDevice>> rows = m_cache.devices(m_cluster);
        if (!rows)
            return *m_views;
        m_views->reserve(rows->size());
        for (const store::SliceDevice &row : *rows)
            m_views->push_back(view(row.device));
        return *m_views;
    }

private:
    // A device row's attributes ({"domain/name": {"int": 1}}) and capacities
    // ({"domain/name": "80Gi"}), as the cache stores them.
    static cel::DeviceView view(const model::DeviceRow &row)
    {
        cel::DeviceView view;
        view.driver = row.driver;
        const json attributes = json::parse(row.attributesJson, nullptr, false);
        if (attributes.is_object()) {
            for (const auto &[name, typed] : attributes.items()) {
                if (!typed.is_object() || typed.empty())
                    continue;
                const auto first = typed.begin();
                const std::string &type = first.key();
                const json &value = first.value();
                cel::DeviceAttributeValue attribute;
                if (type == "int" && value.is_number_integer()) {
                    attribute.type = cel::DeviceAttributeValue::Type::Int;
                    attribute.intValue = value.get<int64_t>();
                } else if (type == "bool" && value.is_boolean()) {
                    attribute.type = cel::DeviceAttributeValue::Type::Bool;
                    attribute.boolValue = value.get<bool>();
                } else if ((type == "string" || type == "version") && value.is_string()) {
                    attribute.type = type == "string" ? cel::DeviceAttributeValue::Type::String
                                                      : cel::DeviceAttributeValue::Type::Version;
                    attribute.stringValue = value.get<std::string>();
                } else if (!readList(type, value, attribute)) {
                    continue;
                }
                view.addAttribute(name, std::move(attribute));
            }
        }
        const json capacity = json::parse(row.capacityJson, nullptr, false);
        if (capacity.is_object()) {
            for (const auto &[name, value] : capacity.items()) {
                if (!value.is_string())
                    continue;
                if (Result<model::Quantity> quantity
                    = model::Quantity::parse(value.get<std::string>()))
                    view.addCapacity(name, *quantity);
            }
        }
        return view;
    }

    store::CacheDb &m_cache;
    const std::string &m_cluster;
    std::optional<std::vector<cel::DeviceView>> m_views;
};

void collectExpressions(const json &selectors, std::vector<std::string> &out)
{
    if (!selectors.is_array())
        return;
    for (const json &selector : selectors) {
        if (selector.is_object() && selector.contains("cel") && selector["cel"].is_object()) {
            const json &expression = selector["cel"].value("expression", json());
            if (expression.is_string())
                out.push_back(expression.get<std::string>());
        }
    }
}

// The warning for one exact request (or subrequest) at `path`, if any.
std::optional<std::string> checkRequest(const json &request, const std::string &path,
    store::CacheDb &cache, const std::string &cluster, DeviceCatalog &catalog,
    const release::KubernetesRelease &release)
{
    const std::string className = request.value("deviceClassName", "");
    if (className.empty())
        return std::nullopt;
    Result<std::optional<model::ObjectRecord>> deviceClass = cache.object(
        cluster, { std::string(model::kResourceGroup), "DeviceClass", "", className });
    if (!deviceClass)
        return std::nullopt;
    if (!*deviceClass)
        return path + ".deviceClassName: DeviceClass \"" + className
            + "\" does not exist; the request cannot be allocated until it is created";

    // The class is in the cluster already: its selectors are stored expressions.
    std::vector<std::string> classExpressions, requestExpressions;
    const json classJson = json::parse((*deviceClass)->json, nullptr, false);
    if (classJson.is_object() && classJson.contains("spec") && classJson["spec"].is_object())
        collectExpressions(classJson["spec"].value("selectors", json()), classExpressions);
    collectExpressions(request.value("selectors", json()), requestExpressions);
    std::vector<cel::CompiledSelector> compiled;
    for (const auto &[expressions, stored] :
        { std::pair { &classExpressions, true }, std::pair { &requestExpressions, false } }) {
        for (const std::string &expression : *expressions) {
            std::vector<cel::Diagnostic> diagnostics;
            Result<cel::CompiledSelector> selector = cel::compileSelector(
                expression, cel::SelectorOptions { release, stored }, &diagnostics);
            if (!selector || !selector->isValid())
                return std::nullopt; // validation reports it
            compiled.push_back(std::move(*selector));
        }
    }
    for (const cel::DeviceView &device : catalog.devices()) {
        bool all = true;
        for (const cel::CompiledSelector &selector : compiled) {
            if (cel::evaluate(selector, device).outcome != cel::SelectorResult::Outcome::Match) {
                all = false;
                break;
            }
        }
        if (all)
            return std::nullopt;
    }
    return path + ": no device published in the cluster matches DeviceClass \"" + className + "\""
        + (request.contains("selectors") ? " and the request's selectors" : "")
        + "; the claim cannot be allocated until such a device exists";
}

} // namespace

std::vector<std::string> allocationWarnings(const json &object, const model::KindInfo &kind,
    store::CacheDb &cache, const std::string &cluster, const release::KubernetesRelease &release)
{
    std::vector<std::string> warnings;
    const json *spec = nullptr;
    std::string path;
    if (kind.kind == model::Kind::ResourceClaim && object.contains("spec")) {
        spec = &object["spec"];
        path = "spec";
    } else if (kind.kind == model::Kind::ResourceClaimTemplate && object.contains("spec")
        && object["spec"].is_object() && object["spec"].contains("spec")) {
        spec = &object["spec"]["spec"];
        path = "spec.spec";
    }
    if (!spec || !spec->is_object() || !spec->contains("devices")
        || !(*spec)["devices"].is_object())
        return warnings;
    const json &requests = (*spec)["devices"].value("requests", json());
    if (!requests.is_array())
        return warnings;
    DeviceCatalog catalog(cache, cluster);
    for (size_t i = 0; i < requests.size(); ++i) {
        const json &request = requests[i];
        if (!request.is_object())
            continue;
        const std::string at = path + ".devices.requests[" + std::to_string(i) + "]";
        if (request.contains("exactly") && request["exactly"].is_object()) {
            if (auto warning = checkRequest(
                    request["exactly"], at + ".exactly", cache, cluster, catalog, release))
                warnings.push_back(std::move(*warning));
        }
        const json &alternatives = request.value("firstAvailable", json());
        if (!alternatives.is_array())
            continue;
        // A prioritized list can work as long as one alternative can.
        std::vector<std::string> unusable;
        for (size_t j = 0; j < alternatives.size(); ++j) {
            if (auto warning
                = checkRequest(alternatives[j], at + ".firstAvailable[" + std::to_string(j) + "]",
                    cache, cluster, catalog, release))
                unusable.push_back(std::move(*warning));
        }
        if (unusable.size() == alternatives.size())
            warnings.insert(warnings.end(), unusable.begin(), unusable.end());
    }
    return warnings;
}

} // namespace dra::server
