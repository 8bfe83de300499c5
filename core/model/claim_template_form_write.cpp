// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Writing the form into its document: the parsed tree is edited in place, a field only when its
// value differs, so an untouched form writes back the same document and an edit changes only
// what it touched. New keys go after the existing ones of their mapping, in API order.
#include "core/model/claim_template_form.h"

#include <string>
#include <vector>

#include "core/common/json_text.h"
#include "core/model/claim_template_form_document.h"
#include "core/model/yaml_codec.h"
#include "core/model/yaml_comments.h"

namespace dra::model {

// Named, not anonymous: the unity build shares one scope with the other model files.
namespace form_write {

using ojson = nlohmann::ordered_json;
using form_detail::fieldPath;
using form_detail::indexPath;

// Sets `key` to `value` unless it already holds it; an empty value removes the key (the API
// treats an absent and an empty string alike for every string the form edits).
void putString(ojson &object, const char *key, const std::string &value)
{
    if (value.empty()) {
        object.erase(key);
        return;
    }
    const auto it = object.find(key);
    if (it == object.end() || *it != value)
        object[key] = value;
}

void putInteger(ojson &object, const char *key, std::optional<int64_t> value)
{
    if (!value) {
        object.erase(key);
        return;
    }
    const auto it = object.find(key);
    if (it == object.end() || *it != *value)
        object[key] = *value;
}

// An empty list or mapping removes the key.
void putValue(ojson &object, const char *key, ojson value)
{
    if (value.empty()) {
        object.erase(key);
        return;
    }
    const auto it = object.find(key);
    if (it == object.end() || *it != value)
        object[key] = std::move(value);
}

// The element `source` of `list` when there is one and it is a mapping, else a new mapping.
ojson startFrom(const ojson *list, int source)
{
    if (list && list->is_array() && source >= 0 && std::size_t(source) < list->size()
        && (*list)[std::size_t(source)].is_object())
        return (*list)[std::size_t(source)];
    return ojson::object();
}

const ojson *member(const ojson &object, const char *key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

ojson writeToleration(ojson toleration, const FormToleration &form)
{
    putString(toleration, "key", form.key);
    putString(toleration, "operator", form.op);
    putString(toleration, "value", form.value);
    putString(toleration, "effect", form.effect);
    putInteger(toleration, "tolerationSeconds", form.tolerationSeconds);
    return toleration;
}

// Writes `form` into `spec`, an `exactly` object or a subrequest (`subrequest` says which).
void writeDeviceSpec(ojson &spec, const FormDeviceSpec &form, bool subrequest)
{
    if (subrequest) {
        if (!spec.contains("name") && !form.name.empty()) {
            // A spec moved from `exactly` gets its name first, where authors and kubectl put it.
            ojson named = { { "name", form.name } };
            for (auto &[key, value] : spec.items())
                named[key] = std::move(value);
            spec = std::move(named);
        }
        putString(spec, "name", form.name);
        spec.erase("adminAccess"); // subrequests have none
    } else {
        spec.erase("name");
    }
    putString(spec, "deviceClassName", form.deviceClassName);

    const ojson *oldSelectors = member(spec, "selectors");
    ojson selectors = ojson::array();
    for (std::size_t i = 0; i < form.selectors.size(); ++i) {
        ojson selector = startFrom(oldSelectors, int(i));
        if (!selector.contains("cel") || !selector["cel"].is_object())
            selector["cel"] = ojson::object();
        putString(selector["cel"], "expression", form.selectors[i]);
        selectors.push_back(std::move(selector));
    }
    putValue(spec, "selectors", std::move(selectors));
    putString(spec, "allocationMode", form.allocationMode);
    putInteger(spec, "count", form.count);
    if (!subrequest) {
        const bool had = spec.contains("adminAccess") && spec["adminAccess"].is_boolean()
            && spec["adminAccess"].get<bool>();
        if (had != form.adminAccess) {
            if (form.adminAccess)
                spec["adminAccess"] = true;
            else
                spec.erase("adminAccess");
        }
    }

    const ojson *oldTolerations = member(spec, "tolerations");
    ojson tolerations = ojson::array();
    for (const FormToleration &toleration : form.tolerations)
        tolerations.push_back(
            writeToleration(startFrom(oldTolerations, toleration.source), toleration));
    putValue(spec, "tolerations", std::move(tolerations));

    ojson capacity = spec.contains("capacity") && spec["capacity"].is_object() ? spec["capacity"]
                                                                               : ojson::object();
    ojson requests = ojson::object();
    for (const auto &[name, quantity] : form.capacityRequests)
        requests[name] = quantity;
    putValue(capacity, "requests", std::move(requests));
    putValue(spec, "capacity", std::move(capacity));
}

// The fields of a v1beta1 request that make up its exact spec: all but its name and
// firstAvailable.
ojson specFieldsOf(const ojson &request)
{
    ojson spec = request;
    spec.erase("name");
    spec.erase("firstAvailable");
    return spec;
}

// The document's object a spec was read from, in the request it was read from.
ojson specOrigin(const ojson &oldRequest, const SpecSource &source, bool specOnRequest)
{
    switch (source.from) {
    case SpecSource::From::New:
        break;
    case SpecSource::From::Exactly:
        if (specOnRequest)
            return specFieldsOf(oldRequest);
        if (const ojson *exactly = member(oldRequest, "exactly"); exactly && exactly->is_object())
            return *exactly;
        break;
    case SpecSource::From::Subrequest:
        return startFrom(member(oldRequest, "firstAvailable"), source.index);
    }
    return ojson::object();
}

// Makes the v1beta1 request's own spec fields those of `spec`: fields it no longer has go,
// changed ones are set in place, new ones follow.
void putSpecOnRequest(ojson &request, const ojson &spec)
{
    std::vector<std::string> gone;
    for (const auto &[key, value] : request.items())
        if (key != "name" && key != "firstAvailable" && !spec.contains(key))
            gone.push_back(key);
    for (const std::string &key : gone)
        request.erase(key);
    for (const auto &[key, value] : spec.items())
        if (!request.contains(key) || request[key] != value)
            request[key] = value;
}

ojson writeRequest(ojson request, const FormRequest &form, bool specOnRequest)
{
    const ojson old = request;
    putString(request, "name", form.name);
    if (!form.firstAvailable) {
        ojson exactly = specOrigin(old, form.exactly.source, specOnRequest);
        writeDeviceSpec(exactly, form.exactly, false);
        request.erase("firstAvailable");
        if (specOnRequest)
            putSpecOnRequest(request, exactly);
        else
            request["exactly"]
                = std::move(exactly); // kept even when empty: it says which kind the request is
    } else {
        ojson alternatives = ojson::array();
        for (const FormDeviceSpec &alternative : form.alternatives) {
            ojson spec = specOrigin(old, alternative.source, specOnRequest);
            writeDeviceSpec(spec, alternative, true);
            alternatives.push_back(std::move(spec));
        }
        request["firstAvailable"] = std::move(alternatives);
        if (specOnRequest)
            putSpecOnRequest(request, ojson::object());
        else
            request.erase("exactly");
    }
    return request;
}

ojson writeConstraint(ojson constraint, const FormConstraint &form)
{
    putValue(constraint, "requests", ojson(form.requests));
    putString(constraint, "matchAttribute", form.matchAttribute);
    putString(constraint, "distinctAttribute", form.distinctAttribute);
    return constraint;
}

Result<ojson> writeConfig(
    ojson config, const FormConfig &form, const std::string &path, const QString &origin)
{
    putValue(config, "requests", ojson(form.requests));
    ojson opaque = config.contains("opaque") && config["opaque"].is_object() ? config["opaque"]
                                                                             : ojson::object();
    putString(opaque, "driver", form.driver);
    if (form.parameters.find_first_not_of(" \t\r\n") == std::string::npos) {
        opaque.erase("parameters");
    } else {
        ojson parameters = ojson::parse(form.parameters, nullptr, /*allow_exceptions=*/false);
        if (parameters.is_discarded())
            return fail(common::Error::Code::Invalid,
                origin + QStringLiteral(": ") + common::qs(path)
                    + QStringLiteral(".opaque.parameters: not valid JSON"));
        if (!opaque.contains("parameters") || opaque["parameters"] != parameters)
            opaque["parameters"] = std::move(parameters);
    }
    putValue(config, "opaque", std::move(opaque));
    return config;
}

} // namespace form_write

Result<std::string> writeClaimTemplateForm(
    std::string_view text, const ClaimTemplateForm &form, const QString &origin)
{
    using namespace form_write;
    Result<form_detail::FormDocument> document = form_detail::parseFormDocument(text, origin);
    if (!document)
        return fail(document.error());
    // A document the form cannot read (a field of the wrong shape) is not written over.
    if (Result<ClaimTemplateForm> readable = form_detail::readFormDocument(*document, origin);
        !readable)
        return fail(readable.error());
    ojson &root = document->root;
    ojson metadata = root.contains("metadata") && root["metadata"].is_object() ? root["metadata"]
                                                                               : ojson::object();
    putString(metadata, "name", form.name);
    putString(metadata, "namespace", form.ns);
    putValue(root, "metadata", std::move(metadata));

    const bool hadDevices = document->devices(false) != nullptr;
    const bool anything
        = !form.requests.empty() || !form.constraints.empty() || !form.config.empty();
    if (hadDevices || anything) {
        ojson &devices = *document->devices(true);
        const ojson oldDevices = devices;
        const std::string path = form.devicesPath();

        ojson requests = ojson::array();
        for (const FormRequest &request : form.requests)
            requests.push_back(
                writeRequest(startFrom(member(oldDevices, "requests"), request.source), request,
                    document->specOnRequest));
        putValue(devices, "requests", std::move(requests));

        ojson constraints = ojson::array();
        for (const FormConstraint &constraint : form.constraints)
            constraints.push_back(writeConstraint(
                startFrom(member(oldDevices, "constraints"), constraint.source), constraint));
        putValue(devices, "constraints", std::move(constraints));

        ojson configs = ojson::array();
        for (std::size_t i = 0; i < form.config.size(); ++i) {
            Result<ojson> config
                = writeConfig(startFrom(member(oldDevices, "config"), form.config[i].source),
                    form.config[i], indexPath(fieldPath(path, "config"), i), origin);
            if (!config)
                return fail(config.error());
            configs.push_back(std::move(*config));
        }
        putValue(devices, "config", std::move(configs));
    }
    try {
        return carryComments(text, jsonToYaml(root));
    } catch (const std::exception &e) {
        return fail(
            common::Error::Code::Invalid, origin + QStringLiteral(": ") + common::qs(e.what()));
    }
}

} // namespace dra::model
