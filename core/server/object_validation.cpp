// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Validation of the objects the server accepts, after kube-apiserver's (pkg/apis/resource/
// validation and apimachinery's name and label rules): the limits, the checks and the words.
#include "core/server/object_validation.h"

#include <cctype>
#include <set>

#include "core/cel/dra_selector.h"
#include "core/server/device_attribute_validation.h"

namespace dra::server {

namespace {

using nlohmann::json;

// Limits of resource.k8s.io/v1.
constexpr size_t kRequestsMax = 32; // DeviceRequestsMaxSize
constexpr size_t kSelectorsMax = 32; // DeviceSelectorsMaxSize
constexpr size_t kConstraintsMax = 32; // DeviceConstraintsMaxSize
constexpr size_t kConfigMax = 32; // DeviceConfigMaxSize
constexpr size_t kFirstAvailableMax = 8; // FirstAvailableDeviceRequestMaxSize
constexpr size_t kCelMaxLength = 10 * 1024; // CELSelectorExpressionMaxLength
constexpr size_t kSliceDevicesMax = 128; // ResourceSliceMaxDevices
constexpr size_t kTolerationsMax = 16; // DeviceTolerationsMaxLength

const char *const kLabelFormat
    = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
      "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
      "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const char *const kSubdomainFormat
    = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
      "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const char *const kQualifiedNameFormat
    = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
      "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
      "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const char *const kLabelValueFormat
    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
      "'my_value',  or '12345', regex used for validation is "
      "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

bool lowerAlnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool alnum(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool isLabel(std::string_view text)
{
    if (text.empty() || !lowerAlnum(text.front()) || !lowerAlnum(text.back()))
        return false;
    for (char c : text) {
        if (!lowerAlnum(c) && c != '-')
            return false;
    }
    return true;
}

bool isSubdomain(std::string_view text)
{
    size_t start = 0;
    while (true) {
        const size_t dot = text.find('.', start);
        if (!isLabel(text.substr(start, dot == std::string_view::npos ? dot : dot - start)))
            return false;
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

// "name" or "prefix/name" with a DNS subdomain prefix, as label and annotation keys are.
std::vector<std::string> qualifiedNameProblems(const std::string &text)
{
    std::string name = text;
    std::vector<std::string> problems;
    if (const size_t slash = text.find('/'); slash != std::string::npos) {
        const std::string prefix = text.substr(0, slash);
        name = text.substr(slash + 1);
        if (prefix.empty())
            problems.emplace_back("prefix part must be non-empty");
        else if (!isSubdomain(prefix))
            problems.push_back(std::string("prefix part ") + kSubdomainFormat);
    }
    if (name.empty()) {
        problems.emplace_back("name part must be non-empty");
        return problems;
    }
    if (name.size() > 63)
        problems.emplace_back("name part must be no more than 63 characters");
    bool ok = alnum(name.front()) && alnum(name.back());
    for (char c : name)
        ok = ok && (alnum(c) || c == '-' || c == '_' || c == '.');
    if (!ok)
        problems.emplace_back(kQualifiedNameFormat);
    return problems;
}

std::vector<std::string> labelValueProblems(const std::string &value)
{
    std::vector<std::string> problems;
    if (value.size() > 63)
        problems.emplace_back("must be no more than 63 characters");
    if (value.empty())
        return problems;
    bool ok = alnum(value.front()) && alnum(value.back());
    for (char c : value)
        ok = ok && (alnum(c) || c == '-' || c == '_' || c == '.');
    if (!ok)
        problems.emplace_back(kLabelValueFormat);
    return problems;
}

std::string index(const std::string &field, size_t i)
{
    return field + "[" + std::to_string(i) + "]";
}

const json &member(const json &object, const char *key)
{
    static const json none;
    if (!object.is_object())
        return none;
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}

std::string text(const json &value)
{
    return value.is_string() ? value.get<std::string>() : std::string();
}

// Validation of one object, accumulating errors with their field paths.
class Validator
{
public:
    Validator(bool compileCel, release::KubernetesRelease release)
        : m_compileCel(compileCel)
        , m_release(std::move(release))
    {
    }

    FieldErrors take() { return std::move(m_errors); }

    void metadata(const json &meta, bool namespaced, bool nameIsLabel)
    {
        const std::string name = text(member(meta, "name"));
        if (name.empty()) {
            if (text(member(meta, "generateName")).empty())
                m_errors.push_back(required("metadata.name", "name or generateName is required"));
        } else {
            for (const std::string &problem :
                nameIsLabel ? dnsLabelProblems(name) : dnsSubdomainProblems(name))
                m_errors.push_back(invalid("metadata.name", name, problem));
        }
        if (namespaced && text(member(meta, "namespace")).empty())
            m_errors.push_back(required("metadata.namespace"));
        if (const json &labels = member(meta, "labels"); labels.is_object()) {
            for (const auto &[key, value] : labels.items()) {
                for (const std::string &problem : qualifiedNameProblems(key))
                    m_errors.push_back(invalid("metadata.labels", key, problem));
                for (const std::string &problem : labelValueProblems(text(value)))
                    m_errors.push_back(invalid("metadata.labels", text(value), problem));
            }
        }
        if (const json &annotations = member(meta, "annotations"); annotations.is_object()) {
            for (const auto &[key, value] : annotations.items()) {
                for (const std::string &problem : qualifiedNameProblems(key))
                    m_errors.push_back(invalid("metadata.annotations", key, problem));
            }
        }
    }

    void claimSpec(const json &spec, const std::string &path)
    {
        const json &devices = member(spec, "devices");
        const std::string devicesPath = path + ".devices";
        const json &requests = member(devices, "requests");
        std::set<std::string> names; // "req" and "req/sub"
        if (requests.is_array()) {
            if (requests.size() > kRequestsMax)
                m_errors.push_back(tooMany(
                    devicesPath + ".requests", int64_t(requests.size()), int64_t(kRequestsMax)));
            std::set<std::string> seen;
            for (size_t i = 0; i < requests.size(); ++i) {
                const std::string name = text(member(requests[i], "name"));
                if (!name.empty() && !seen.insert(name).second)
                    m_errors.push_back(
                        duplicate(index(devicesPath + ".requests", i) + ".name", name));
                names.insert(name);
                for (const json &sub : member(requests[i], "firstAvailable"))
                    names.insert(name + "/" + text(member(sub, "name")));
                request(requests[i], index(devicesPath + ".requests", i));
            }
        }
        const json &constraints = member(devices, "constraints");
        if (constraints.is_array()) {
            if (constraints.size() > kConstraintsMax)
                m_errors.push_back(tooMany(devicesPath + ".constraints",
                    int64_t(constraints.size()), int64_t(kConstraintsMax)));
            for (size_t i = 0; i < constraints.size(); ++i)
                constraint(constraints[i], index(devicesPath + ".constraints", i), names);
        }
        const json &config = member(devices, "config");
        if (config.is_array()) {
            if (config.size() > kConfigMax)
                m_errors.push_back(
                    tooMany(devicesPath + ".config", int64_t(config.size()), int64_t(kConfigMax)));
            for (size_t i = 0; i < config.size(); ++i) {
                const std::string at = index(devicesPath + ".config", i);
                requestRefs(member(config[i], "requests"), at + ".requests", names);
                opaque(member(config[i], "opaque"), at + ".opaque");
            }
        }
    }

    void classSpec(const json &spec)
    {
        selectors(member(spec, "selectors"), "spec.selectors");
        const json &config = member(spec, "config");
        if (config.is_array()) {
            if (config.size() > kConfigMax)
                m_errors.push_back(
                    tooMany("spec.config", int64_t(config.size()), int64_t(kConfigMax)));
            for (size_t i = 0; i < config.size(); ++i)
                opaque(member(config[i], "opaque"), index("spec.config", i) + ".opaque");
        }
    }

    void sliceSpec(const json &spec)
    {
        driverName(member(spec, "driver"), "spec.driver");
        const json &pool = member(spec, "pool");
        if (text(member(pool, "name")).empty())
            m_errors.push_back(required("spec.pool.name"));
        int placements = 0;
        for (const char *field :
            { "nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection" }) {
            const json &value = member(spec, field);
            if ((value.is_string() && !value.get<std::string>().empty()) || value.is_object()
                || (value.is_boolean() && value.get<bool>()))
                ++placements;
        }
        if (placements == 0)
            m_errors.push_back(required("spec",
                "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                "`perDeviceNodeSelection` is required"));
        else if (placements > 1)
            m_errors.push_back(invalid("spec", json(json::value_t::discarded),
                "{`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`}: only one "
                "of these fields may be set"));
        const json &devices = member(spec, "devices");
        if (devices.is_array()) {
            if (devices.size() > kSliceDevicesMax)
                m_errors.push_back(
                    tooMany("spec.devices", int64_t(devices.size()), int64_t(kSliceDevicesMax)));
            std::set<std::string> seen;
            for (size_t i = 0; i < devices.size(); ++i) {
                const std::string at = index("spec.devices", i) + ".name";
                const std::string name = text(member(devices[i], "name"));
                if (name.empty()) {
                    m_errors.push_back(required(at));
                    continue;
                }
                for (const std::string &problem : dnsLabelProblems(name))
                    m_errors.push_back(invalid(at, name, problem));
                if (!seen.insert(name).second)
                    m_errors.push_back(duplicate(at, name));
            }
            for (size_t i = 0; i < devices.size(); ++i)
                validateDeviceAttributes(devices[i], index("spec.devices", i), m_errors);
        }
    }

private:
    void request(const json &request, const std::string &path)
    {
        requestName(member(request, "name"), path + ".name");
        const json &exactly = member(request, "exactly");
        const json &firstAvailable = member(request, "firstAvailable");
        const bool hasExactly = exactly.is_object();
        const bool hasFirst = firstAvailable.is_array() && !firstAvailable.empty();
        if (!hasExactly && !hasFirst) {
            m_errors.push_back(
                required(path, "exactly one of `exactly` or `firstAvailable` is required"));
            return;
        }
        if (hasExactly && hasFirst) {
            m_errors.push_back(invalid(path, nullptr,
                "exactly one of `exactly` or `firstAvailable` is required, but multiple fields "
                "are set"));
            return;
        }
        if (hasExactly) {
            exact(exactly, path + ".exactly");
            return;
        }
        const std::string subPath = path + ".firstAvailable";
        if (firstAvailable.size() > kFirstAvailableMax)
            m_errors.push_back(
                tooMany(subPath, int64_t(firstAvailable.size()), int64_t(kFirstAvailableMax)));
        std::set<std::string> seen;
        for (size_t i = 0; i < firstAvailable.size(); ++i) {
            const std::string at = index(subPath, i);
            const std::string name = text(member(firstAvailable[i], "name"));
            requestName(member(firstAvailable[i], "name"), at + ".name");
            if (!name.empty() && !seen.insert(name).second)
                m_errors.push_back(duplicate(at + ".name", name));
            exact(firstAvailable[i], at);
        }
    }

    void exact(const json &request, const std::string &path)
    {
        const std::string className = text(member(request, "deviceClassName"));
        if (className.empty())
            m_errors.push_back(required(path + ".deviceClassName"));
        else
            for (const std::string &problem : dnsSubdomainProblems(className))
                m_errors.push_back(invalid(path + ".deviceClassName", className, problem));
        selectors(member(request, "selectors"), path + ".selectors");
        const json &mode = member(request, "allocationMode");
        const json &count = member(request, "count");
        const std::string modeText = text(mode);
        const int64_t countValue = count.is_number_integer() ? count.get<int64_t>() : 0;
        if (modeText == "All") {
            if (!count.is_null() && countValue != 0)
                m_errors.push_back(invalid(path + ".count", countValue,
                    "must not be specified when allocationMode is 'All'"));
        } else if (modeText == "ExactCount") {
            if (countValue <= 0)
                m_errors.push_back(invalid(path + ".count", count.is_null() ? json(0) : count,
                    "must be greater than zero"));
        } else {
            m_errors.push_back(notSupported(path + ".allocationMode",
                mode.is_null() ? json("") : mode, { "All", "ExactCount" }));
        }
        const json &tolerations = member(request, "tolerations");
        if (tolerations.is_array()) {
            if (tolerations.size() > kTolerationsMax)
                m_errors.push_back(tooMany(
                    path + ".tolerations", int64_t(tolerations.size()), int64_t(kTolerationsMax)));
            for (size_t i = 0; i < tolerations.size(); ++i)
                toleration(tolerations[i], index(path + ".tolerations", i));
        }
    }

    void toleration(const json &toleration, const std::string &path)
    {
        const json &op = member(toleration, "operator");
        if (!op.is_null() && text(op) != "Exists" && text(op) != "Equal")
            m_errors.push_back(notSupported(path + ".operator", op, { "Equal", "Exists" }));
        if (text(op) == "Exists" && !text(member(toleration, "value")).empty())
            m_errors.push_back(
                invalid(path + ".operator", op, "value must be empty when `operator` is 'Exists'"));
        const json &effect = member(toleration, "effect");
        if (!effect.is_null() && !text(effect).empty() && text(effect) != "NoSchedule"
            && text(effect) != "NoExecute" && text(effect) != "None")
            m_errors.push_back(
                notSupported(path + ".effect", effect, { "NoExecute", "NoSchedule", "None" }));
    }

    void selectors(const json &selectors, const std::string &path)
    {
        if (!selectors.is_array())
            return;
        if (selectors.size() > kSelectorsMax)
            m_errors.push_back(tooMany(path, int64_t(selectors.size()), int64_t(kSelectorsMax)));
        for (size_t i = 0; i < selectors.size(); ++i) {
            const json &cel = member(selectors[i], "cel");
            const std::string at = index(path, i) + ".cel";
            if (!cel.is_object()) {
                m_errors.push_back(required(at));
                continue;
            }
            celExpression(member(cel, "expression"), at + ".expression");
        }
    }

    void celExpression(const json &value, const std::string &path)
    {
        const std::string expression = text(value);
        if (expression.empty()) {
            m_errors.push_back(required(path));
            return;
        }
        if (!m_compileCel)
            return;
        if (expression.size() > kCelMaxLength) {
            m_errors.push_back(tooLong(path, int64_t(kCelMaxLength)));
            return;
        }
        std::vector<cel::Diagnostic> diagnostics;
        Result<cel::CompiledSelector> compiled = cel::compileSelector(
            expression, cel::SelectorOptions { m_release, /*stored=*/false }, &diagnostics);
        if (!compiled) {
            m_errors.push_back(invalid(
                path, expression, "compilation failed: " + compiled.error().message.toStdString()));
            return;
        }
        std::string message;
        for (const cel::Diagnostic &diagnostic : diagnostics) {
            if (diagnostic.severity != cel::Diagnostic::Severity::Error)
                continue;
            // Kubernetes reports a non-bool selector on its own, not as a compilation failure.
            if (diagnostic.message.starts_with("must evaluate to bool")) {
                m_errors.push_back(invalid(path, expression, diagnostic.message));
                return;
            }
            message += (message.empty() ? "" : "\n") + std::string("ERROR: <input>:")
                + std::to_string(diagnostic.line) + ":" + std::to_string(diagnostic.column) + ": "
                + diagnostic.message;
        }
        if (!message.empty() || !compiled->isValid()) {
            m_errors.push_back(invalid(path, expression,
                "compilation failed: " + (message.empty() ? "invalid expression" : message)));
            return;
        }
    }

    void constraint(
        const json &constraint, const std::string &path, const std::set<std::string> &names)
    {
        requestRefs(member(constraint, "requests"), path + ".requests", names);
        const json &match = member(constraint, "matchAttribute");
        const json &distinct = member(constraint, "distinctAttribute");
        if (match.is_null() && distinct.is_null()) {
            m_errors.push_back(required(path + ".matchAttribute"));
            return;
        }
        const std::string field = match.is_null() ? ".distinctAttribute" : ".matchAttribute";
        const std::string name = text(match.is_null() ? distinct : match);
        const size_t slash = name.find('/');
        if (slash == std::string::npos || slash == 0 || slash + 1 == name.size()
            || !isSubdomain(name.substr(0, slash)))
            m_errors.push_back(invalid(path + field, name,
                "a fully qualified name must be a domain and a name separated by a slash"));
    }

    void requestRefs(const json &refs, const std::string &path, const std::set<std::string> &names)
    {
        if (!refs.is_array())
            return;
        std::set<std::string> seen;
        for (size_t i = 0; i < refs.size(); ++i) {
            const std::string name = text(refs[i]);
            const std::string at = index(path, i);
            if (!seen.insert(name).second)
                m_errors.push_back(duplicate(at, name));
            else if (!names.contains(name))
                m_errors.push_back(invalid(at, name,
                    "must be the name of a request in the claim or the name of a request and a "
                    "subrequest separated by '/'"));
        }
    }

    void opaque(const json &opaque, const std::string &path)
    {
        if (!opaque.is_object()) {
            m_errors.push_back(required(path));
            return;
        }
        driverName(member(opaque, "driver"), path + ".driver");
        if (member(opaque, "parameters").is_null())
            m_errors.push_back(required(path + ".parameters"));
    }

    void requestName(const json &value, const std::string &path)
    {
        const std::string name = text(value);
        if (name.empty()) {
            m_errors.push_back(required(path));
            return;
        }
        for (const std::string &problem : dnsLabelProblems(name))
            m_errors.push_back(invalid(path, name, problem));
    }

    void driverName(const json &value, const std::string &path)
    {
        const std::string name = text(value);
        if (name.empty()) {
            m_errors.push_back(required(path));
            return;
        }
        for (const std::string &problem : dnsSubdomainProblems(name))
            m_errors.push_back(invalid(path, name, problem));
    }

    bool m_compileCel;
    release::KubernetesRelease m_release; // the one whose CEL environment selectors compile in
    FieldErrors m_errors;
};

void validateBody(Validator &validator, const json &object, const model::KindInfo &kind)
{
    const json &spec = member(object, "spec");
    switch (kind.kind) {
    case model::Kind::ResourceClaim:
        validator.claimSpec(spec, "spec");
        break;
    case model::Kind::ResourceClaimTemplate:
        validator.claimSpec(member(spec, "spec"), "spec.spec");
        break;
    case model::Kind::DeviceClass:
        validator.classSpec(spec);
        break;
    case model::Kind::ResourceSlice:
        validator.sliceSpec(spec);
        break;
    default:
        break;
    }
}

void defaultExact(json &request)
{
    if (!request.is_object())
        return;
    if (!request.contains("allocationMode"))
        request["allocationMode"] = "ExactCount";
    if (request["allocationMode"] == "ExactCount" && !request.contains("count"))
        request["count"] = 1;
}

void defaultClaimSpec(json &spec)
{
    if (!spec.is_object() || !spec.contains("devices") || !spec["devices"].is_object())
        return;
    json &requests = spec["devices"]["requests"];
    if (!requests.is_array())
        return;
    for (json &request : requests) {
        if (!request.is_object())
            continue;
        if (request.contains("exactly"))
            defaultExact(request["exactly"]);
        if (request.contains("firstAvailable") && request["firstAvailable"].is_array()) {
            for (json &sub : request["firstAvailable"])
                defaultExact(sub);
        }
    }
}

} // namespace

std::vector<std::string> dnsLabelProblems(const std::string &text)
{
    std::vector<std::string> problems;
    if (text.size() > 63)
        problems.emplace_back("must be no more than 63 characters");
    if (!isLabel(text))
        problems.emplace_back(kLabelFormat);
    return problems;
}

std::vector<std::string> dnsSubdomainProblems(const std::string &text)
{
    std::vector<std::string> problems;
    if (text.size() > 253)
        problems.emplace_back("must be no more than 253 characters");
    if (!isSubdomain(text))
        problems.emplace_back(kSubdomainFormat);
    return problems;
}

void applyDefaults(json &object, const model::KindInfo &kind)
{
    if (!object.is_object() || !object.contains("spec"))
        return;
    if (kind.kind == model::Kind::ResourceClaim)
        defaultClaimSpec(object["spec"]);
    else if (kind.kind == model::Kind::ResourceClaimTemplate && object["spec"].is_object()
        && object["spec"].contains("spec"))
        defaultClaimSpec(object["spec"]["spec"]);
}

FieldErrors validateCreate(
    const json &object, const model::KindInfo &kind, const release::KubernetesRelease &release)
{
    Validator validator(true, release);
    validator.metadata(
        member(object, "metadata"), kind.namespaced, kind.kind == model::Kind::Namespace);
    validateBody(validator, object, kind);
    return validator.take();
}

FieldErrors validateUpdate(const json &object, const json &old, const model::KindInfo &kind,
    const release::KubernetesRelease &release)
{
    // Stored expressions were valid when stored: only new ones are compiled.
    const bool specChanged = member(object, "spec") != member(old, "spec");
    Validator validator(specChanged, release);
    validator.metadata(
        member(object, "metadata"), kind.namespaced, kind.kind == model::Kind::Namespace);
    FieldErrors errors;
    if ((kind.kind == model::Kind::ResourceClaim || kind.kind == model::Kind::ResourceClaimTemplate)
        && specChanged) {
        FieldErrors meta = validator.take();
        meta.push_back(invalid("spec", json(json::value_t::discarded), "field is immutable"));
        return meta;
    }
    validateBody(validator, object, kind);
    return validator.take();
}

} // namespace dra::server
