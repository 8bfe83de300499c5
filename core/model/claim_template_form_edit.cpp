// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The form's structural edits and text conversions, and its JSON for dractl.
#include "core/model/claim_template_form.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace dra::model {

// Named, not anonymous: the unity build shares one scope with the other model files.
namespace form_edit {

std::string_view trimmed(std::string_view text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// A DNS label taken from the class name's first label ("gpu" for gpu.nvidia.com), else `fallback`.
std::string labelOfClass(const std::string &deviceClassName, const std::string &fallback)
{
    std::string label;
    for (char c : deviceClassName.substr(0, deviceClassName.find('.'))) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
            label += c;
        else if (c >= 'A' && c <= 'Z')
            label += char(c - 'A' + 'a');
    }
    while (!label.empty() && label.front() == '-')
        label.erase(0, 1);
    while (!label.empty() && label.back() == '-')
        label.pop_back();
    return label.empty() ? fallback : label.substr(0, 40);
}

// `base`, or `base-2`, `base-3`... whichever `taken` does not hold yet.
template <typename Taken> std::string uniqueName(const std::string &base, Taken taken)
{
    if (!taken(base))
        return base;
    for (int i = 2;; ++i) {
        std::string name = base + "-" + std::to_string(i);
        if (!taken(name))
            return name;
    }
}

nlohmann::json deviceSpecJson(const FormDeviceSpec &spec, bool subrequest)
{
    nlohmann::json out = nlohmann::json::object();
    if (subrequest)
        out["name"] = spec.name;
    out["deviceClassName"] = spec.deviceClassName;
    out["selectors"] = spec.selectors;
    out["allocationMode"] = spec.allocationMode.empty() ? "ExactCount" : spec.allocationMode;
    if (!spec.isAll())
        out["count"] = spec.effectiveCount();
    if (!subrequest)
        out["adminAccess"] = spec.adminAccess;
    nlohmann::json tolerations = nlohmann::json::array();
    for (const FormToleration &t : spec.tolerations) {
        nlohmann::json toleration
            = { { "key", t.key }, { "operator", t.op.empty() ? "Equal" : t.op },
                  { "value", t.value }, { "effect", t.effect } };
        if (t.tolerationSeconds)
            toleration["tolerationSeconds"] = *t.tolerationSeconds;
        tolerations.push_back(std::move(toleration));
    }
    out["tolerations"] = std::move(tolerations);
    nlohmann::json capacity = nlohmann::json::object();
    for (const auto &[name, quantity] : spec.capacityRequests)
        capacity[name] = quantity;
    out["capacityRequests"] = std::move(capacity);
    return out;
}

} // namespace form_edit

FormRequest &addRequest(ClaimTemplateForm &form, const std::string &deviceClassName)
{
    using namespace form_edit;
    FormRequest request;
    request.name
        = uniqueName(labelOfClass(deviceClassName, "request"), [&](const std::string &name) {
              return std::ranges::any_of(
                  form.requests, [&](const FormRequest &r) { return r.name == name; });
          });
    request.exactly.deviceClassName = deviceClassName;
    form.requests.push_back(std::move(request));
    return form.requests.back();
}

void setFirstAvailable(FormRequest &request, bool firstAvailable)
{
    using namespace form_edit;
    if (request.firstAvailable == firstAvailable)
        return;
    request.firstAvailable = firstAvailable;
    if (firstAvailable) {
        if (request.alternatives.empty()) {
            FormDeviceSpec spec = request.exactly;
            spec.name = labelOfClass(spec.deviceClassName, "first");
            spec.adminAccess = false;
            request.alternatives.push_back(std::move(spec));
        }
        return;
    }
    if (!request.alternatives.empty()) {
        FormDeviceSpec spec = request.alternatives.front();
        spec.name.clear();
        request.exactly = std::move(spec);
        request.alternatives.clear();
    }
}

FormDeviceSpec &addAlternative(FormRequest &request, const std::string &deviceClassName)
{
    using namespace form_edit;
    FormDeviceSpec spec;
    spec.deviceClassName = deviceClassName;
    spec.name
        = uniqueName(labelOfClass(deviceClassName, "alternative"), [&](const std::string &name) {
              return std::ranges::any_of(
                  request.alternatives, [&](const FormDeviceSpec &s) { return s.name == name; });
          });
    request.alternatives.push_back(std::move(spec));
    return request.alternatives.back();
}

std::string capacityRequestsText(const FormDeviceSpec &spec)
{
    using namespace form_edit;
    std::string text;
    for (const auto &[name, quantity] : spec.capacityRequests)
        text += (text.empty() ? "" : ", ") + name + "=" + quantity;
    return text;
}

void setCapacityRequestsText(FormDeviceSpec &spec, std::string_view text)
{
    using namespace form_edit;
    spec.capacityRequests.clear();
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view entry = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const std::size_t equals = entry.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view name = trimmed(entry.substr(0, equals));
        const std::string_view quantity = trimmed(entry.substr(equals + 1));
        if (!name.empty() && !quantity.empty())
            spec.capacityRequests.emplace_back(std::string(name), std::string(quantity));
    }
}

std::string requestListText(const std::vector<std::string> &requests)
{
    using namespace form_edit;
    std::string text;
    for (const std::string &request : requests)
        text += (text.empty() ? "" : ", ") + request;
    return text;
}

std::vector<std::string> parseRequestList(std::string_view text)
{
    using namespace form_edit;
    std::vector<std::string> out;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view entry = trimmed(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (!entry.empty())
            out.emplace_back(entry);
    }
    return out;
}

nlohmann::json claimTemplateFormJson(const ClaimTemplateForm &form)
{
    using namespace form_edit;
    nlohmann::json requests = nlohmann::json::array();
    for (const FormRequest &request : form.requests) {
        nlohmann::json out = { { "name", request.name },
            { "mode", request.firstAvailable ? "firstAvailable" : "exactly" } };
        if (request.firstAvailable) {
            nlohmann::json alternatives = nlohmann::json::array();
            for (const FormDeviceSpec &spec : request.alternatives)
                alternatives.push_back(deviceSpecJson(spec, true));
            out["firstAvailable"] = std::move(alternatives);
        } else {
            out["exactly"] = deviceSpecJson(request.exactly, false);
        }
        requests.push_back(std::move(out));
    }
    nlohmann::json constraints = nlohmann::json::array();
    for (const FormConstraint &c : form.constraints)
        constraints.push_back({ { "requests", c.requests }, { "matchAttribute", c.matchAttribute },
            { "distinctAttribute", c.distinctAttribute } });
    nlohmann::json config = nlohmann::json::array();
    for (const FormConfig &c : form.config) {
        nlohmann::json entry = { { "requests", c.requests }, { "driver", c.driver } };
        entry["parameters"] = c.parameters.empty()
            ? nlohmann::json(nullptr)
            : nlohmann::json::parse(c.parameters, nullptr, false);
        config.push_back(std::move(entry));
    }
    return { { "apiVersion", form.apiVersion }, { "kind", form.kind }, { "name", form.name },
        { "namespace", form.ns }, { "requests", std::move(requests) },
        { "constraints", std::move(constraints) }, { "config", std::move(config) } };
}

} // namespace dra::model
