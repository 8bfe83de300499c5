// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Reading the form from a document: every modelled field, type-checked, with the path of the
// first field of the wrong shape in the error.
#include "core/model/claim_template_form.h"

#include <span>

#include "core/common/json_text.h"
#include "core/model/claim_template_form_document.h"
#include "core/model/yaml_codec.h"

namespace dra::model {

namespace form_detail {

using ojson = nlohmann::ordered_json;

namespace {

// The keys from the root to `devices`.
std::span<const char *const> devicesKeys(bool isTemplate)
{
    static constexpr const char *kTemplate[] = { "spec", "spec", "devices" };
    static constexpr const char *kClaim[] = { "spec", "devices" };
    return isTemplate ? std::span<const char *const>(kTemplate)
                      : std::span<const char *const>(kClaim);
}

} // namespace

ojson *FormDocument::devices(bool create)
{
    ojson *spec = &root;
    for (const char *key : devicesKeys(isTemplate)) {
        if (!spec->contains(key)) {
            if (!create)
                return nullptr;
            (*spec)[key] = ojson::object();
        }
        spec = &(*spec)[key];
    }
    return spec;
}

const ojson *FormDocument::devices() const
{
    const ojson *spec = &root;
    for (const char *key : devicesKeys(isTemplate)) {
        const auto it = spec->find(key);
        if (it == spec->end())
            return nullptr;
        spec = &*it;
    }
    return spec;
}

Result<FormDocument> parseFormDocument(std::string_view text, const QString &origin)
{
    Result<ojson> parsed = parseYamlOrdered(text, origin);
    if (!parsed)
        return fail(parsed.error());
    const auto invalid = [&](const std::string &reason) {
        return fail(
            common::Error::Code::Invalid, origin + QStringLiteral(": ") + common::qs(reason));
    };
    if (parsed->is_null())
        return invalid("the text holds no object yet");
    if (!parsed->is_object())
        return invalid("expected a ResourceClaimTemplate mapping, not a list or a scalar");
    const ojson &root = *parsed;
    const std::string kind
        = root.value("kind", ojson()).is_string() ? root["kind"].get<std::string>() : "";
    const std::string apiVersion = root.value("apiVersion", ojson()).is_string()
        ? root["apiVersion"].get<std::string>()
        : "";
    if (kind != "ResourceClaimTemplate" && kind != "ResourceClaim")
        return invalid("expected a ResourceClaimTemplate or a ResourceClaim, not "
            + (kind.empty() ? std::string("an object without kind") : "a " + kind));
    if (apiVersion != "resource.k8s.io/v1" && apiVersion != "resource.k8s.io/v1beta2"
        && apiVersion != "resource.k8s.io/v1beta1")
        return invalid("apiVersion: expected resource.k8s.io/v1, v1beta2 or v1beta1, not \""
            + apiVersion + "\"");
    FormDocument document { std::move(*parsed), kind == "ResourceClaimTemplate",
        apiVersion == "resource.k8s.io/v1beta1" };
    // Every object on the way to `devices` must be a mapping (or absent), or a write would
    // replace what the author wrote.
    const ojson *node = &document.root;
    std::string path;
    for (const char *key : devicesKeys(document.isTemplate)) {
        path = fieldPath(path, key);
        if (!node->contains(key))
            break;
        node = &(*node)[key];
        if (!node->is_object())
            return invalid(path + ": expected a mapping");
    }
    return document;
}

namespace {

// Reads typed fields, remembering the first one of the wrong shape.
class FieldReader final
{
public:
    std::string error;

    const ojson *object(const ojson &parent, std::string_view key, const std::string &path)
    {
        const ojson *value = find(parent, key);
        if (value && !value->is_object()) {
            failAt(fieldPath(path, key), "expected a mapping");
            return nullptr;
        }
        return value;
    }
    const ojson *array(const ojson &parent, std::string_view key, const std::string &path)
    {
        const ojson *value = find(parent, key);
        if (value && !value->is_array()) {
            failAt(fieldPath(path, key), "expected a list");
            return nullptr;
        }
        return value;
    }
    std::string string(const ojson &parent, std::string_view key, const std::string &path)
    {
        const ojson *value = find(parent, key);
        if (!value)
            return {};
        if (!value->is_string()) {
            failAt(fieldPath(path, key), "expected a string");
            return {};
        }
        return value->get<std::string>();
    }
    std::optional<int64_t> integer(
        const ojson &parent, std::string_view key, const std::string &path)
    {
        const ojson *value = find(parent, key);
        if (!value)
            return std::nullopt;
        if (!value->is_number_integer()) {
            failAt(fieldPath(path, key), "expected an integer");
            return std::nullopt;
        }
        return value->get<int64_t>();
    }
    bool boolean(const ojson &parent, std::string_view key, const std::string &path)
    {
        const ojson *value = find(parent, key);
        if (value && !value->is_boolean()) {
            failAt(fieldPath(path, key), "expected true or false");
            return false;
        }
        return value && value->get<bool>();
    }
    std::vector<std::string> strings(
        const ojson &parent, std::string_view key, const std::string &path)
    {
        std::vector<std::string> out;
        if (const ojson *list = array(parent, key, path)) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                if ((*list)[i].is_string())
                    out.push_back((*list)[i].get<std::string>());
                else
                    failAt(indexPath(fieldPath(path, key), i), "expected a string");
            }
        }
        return out;
    }
    // Each element of a list of mappings, with its path.
    template <typename Visit>
    void eachObject(const ojson &parent, std::string_view key, const std::string &path, Visit visit)
    {
        const ojson *list = array(parent, key, path);
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            const std::string at = indexPath(fieldPath(path, key), i);
            if ((*list)[i].is_object())
                visit((*list)[i], at, int(i));
            else
                failAt(at, "expected a mapping");
        }
    }
    void failAt(const std::string &path, const std::string &reason)
    {
        if (error.empty())
            error = path + ": " + reason;
    }

private:
    // Absent and null read the same: as Kubernetes omits a null field.
    static const ojson *find(const ojson &parent, std::string_view key)
    {
        const auto it = parent.find(std::string(key));
        return it == parent.end() || it->is_null() ? nullptr : &*it;
    }
};

FormDeviceSpec readDeviceSpec(
    FieldReader &reader, const ojson &spec, const std::string &path, SpecSource source)
{
    FormDeviceSpec out;
    out.source = source;
    if (source.from == SpecSource::From::Subrequest)
        out.name = reader.string(spec, "name", path);
    out.deviceClassName = reader.string(spec, "deviceClassName", path);
    reader.eachObject(
        spec, "selectors", path, [&](const ojson &selector, const std::string &at, int) {
            const ojson *cel = reader.object(selector, "cel", at);
            out.selectors.push_back(
                cel ? reader.string(*cel, "expression", fieldPath(at, "cel")) : std::string());
        });
    out.allocationMode = reader.string(spec, "allocationMode", path);
    out.count = reader.integer(spec, "count", path);
    if (source.from != SpecSource::From::Subrequest)
        out.adminAccess = reader.boolean(spec, "adminAccess", path);
    reader.eachObject(
        spec, "tolerations", path, [&](const ojson &toleration, const std::string &at, int index) {
            FormToleration t;
            t.key = reader.string(toleration, "key", at);
            t.op = reader.string(toleration, "operator", at);
            t.value = reader.string(toleration, "value", at);
            t.effect = reader.string(toleration, "effect", at);
            t.tolerationSeconds = reader.integer(toleration, "tolerationSeconds", at);
            t.source = index;
            out.tolerations.push_back(std::move(t));
        });
    if (const ojson *capacity = reader.object(spec, "capacity", path)) {
        const std::string at = fieldPath(path, "capacity");
        if (const ojson *requests = reader.object(*capacity, "requests", at)) {
            for (const auto &[name, quantity] : requests->items()) {
                if (quantity.is_string())
                    out.capacityRequests.emplace_back(name, quantity.get<std::string>());
                else if (quantity.is_number())
                    out.capacityRequests.emplace_back(name, quantity.dump());
                else
                    reader.failAt(
                        fieldPath(fieldPath(at, "requests"), name), "expected a quantity");
            }
        }
    }
    return out;
}

FormRequest readRequest(FieldReader &reader, const ojson &request, const std::string &path,
    int index, bool specOnRequest)
{
    FormRequest out;
    out.source = index;
    out.name = reader.string(request, "name", path);
    if (specOnRequest)
        out.exactly = readDeviceSpec(reader, request, path, { SpecSource::From::Exactly, 0 });
    else if (const ojson *exactly = reader.object(request, "exactly", path))
        out.exactly = readDeviceSpec(
            reader, *exactly, fieldPath(path, "exactly"), { SpecSource::From::Exactly, 0 });
    reader.eachObject(
        request, "firstAvailable", path, [&](const ojson &sub, const std::string &at, int i) {
            out.alternatives.push_back(
                readDeviceSpec(reader, sub, at, { SpecSource::From::Subrequest, i }));
        });
    // A request with neither is shown as an empty `exactly` one, which is what typing it starts.
    const bool exact
        = specOnRequest ? request.contains("deviceClassName") : request.contains("exactly");
    out.firstAvailable = !exact && !out.alternatives.empty();
    return out;
}

} // namespace

} // namespace form_detail

std::string ClaimTemplateForm::devicesPath() const
{
    return kind == "ResourceClaim" ? "spec.devices" : "spec.spec.devices";
}

Result<ClaimTemplateForm> readClaimTemplateForm(std::string_view text, const QString &origin)
{
    Result<form_detail::FormDocument> document = form_detail::parseFormDocument(text, origin);
    if (!document)
        return fail(document.error());
    return form_detail::readFormDocument(*document, origin);
}

Result<ClaimTemplateForm> form_detail::readFormDocument(
    const FormDocument &document, const QString &origin)
{
    using namespace form_detail;
    const ojson &root = document.root;
    FieldReader reader;
    ClaimTemplateForm form;
    form.apiVersion = root["apiVersion"].get<std::string>();
    form.kind = root["kind"].get<std::string>();
    if (const ojson *metadata = reader.object(root, "metadata", {})) {
        form.name = reader.string(*metadata, "name", "metadata");
        form.ns = reader.string(*metadata, "namespace", "metadata");
    }
    if (const ojson *devices = document.devices()) {
        const std::string path = form.devicesPath();
        reader.eachObject(
            *devices, "requests", path, [&](const ojson &request, const std::string &at, int i) {
                form.requests.push_back(
                    readRequest(reader, request, at, i, document.specOnRequest));
            });
        reader.eachObject(*devices, "constraints", path,
            [&](const ojson &constraint, const std::string &at, int i) {
                FormConstraint c;
                c.requests = reader.strings(constraint, "requests", at);
                c.matchAttribute = reader.string(constraint, "matchAttribute", at);
                c.distinctAttribute = reader.string(constraint, "distinctAttribute", at);
                c.source = i;
                form.constraints.push_back(std::move(c));
            });
        reader.eachObject(
            *devices, "config", path, [&](const ojson &config, const std::string &at, int i) {
                FormConfig c;
                c.requests = reader.strings(config, "requests", at);
                if (const ojson *opaque = reader.object(config, "opaque", at)) {
                    c.driver = reader.string(*opaque, "driver", fieldPath(at, "opaque"));
                    if (const auto it = opaque->find("parameters");
                        it != opaque->end() && !it->is_null())
                        c.parameters = it->dump(2);
                }
                c.source = i;
                form.config.push_back(std::move(c));
            });
    }
    if (!reader.error.empty())
        return fail(
            common::Error::Code::Invalid, origin + QStringLiteral(": ") + common::qs(reader.error));
    return form;
}

} // namespace dra::model
