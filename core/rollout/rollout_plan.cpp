// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_plan.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <set>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <yaml-cpp/yaml.h>

#include "core/common/duration.h"
#include "core/common/utf8.h"
#include "core/rollout/governance.h"
#include "core/model/object.h"
#include "core/model/yaml_codec.h"

namespace dra::rollout {

namespace {

bool isDnsLabel(std::string_view name)
{
    if (name.empty() || name.size() > 63)
        return false;
    const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!alnum(name.front()) || !alnum(name.back()))
        return false;
    return std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '-'; });
}

// Walks the YAML tree with field paths, collecting every problem instead of stopping.
class Reader final
{
public:
    std::vector<PlanError> errors;

    void error(const YAML::Node &at, const std::string &path, std::string reason)
    {
        PlanError e { path, 0, 0, std::move(reason) };
        if (at.IsDefined() && at.Mark().line >= 0) {
            e.line = at.Mark().line + 1;
            e.column = at.Mark().column + 1;
        }
        errors.push_back(std::move(e));
    }

    // True when `node` is a map; reports keys outside `known`.
    bool map(const YAML::Node &node, const std::string &path,
        std::initializer_list<std::string_view> known)
    {
        if (!node.IsMap()) {
            error(node, path, "must be a mapping");
            return false;
        }
        for (const auto &entry : node) {
            const std::string key = entry.first.Scalar();
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                std::string list;
                for (std::string_view k : known)
                    list += (list.empty() ? "" : ", ") + std::string(k);
                error(entry.first, join(path, key), "unknown field (known: " + list + ")");
            }
        }
        return true;
    }

    static std::string join(const std::string &path, std::string_view key)
    {
        return path.empty() ? std::string(key) : path + "." + std::string(key);
    }

    std::optional<std::string> string(
        const YAML::Node &parent, const std::string &path, const char *key, bool required)
    {
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull()) {
            if (required)
                error(parent, join(path, key), "is required");
            return std::nullopt;
        }
        if (!node.IsScalar()) {
            error(node, join(path, key), "must be a string");
            return std::nullopt;
        }
        return node.Scalar();
    }

    std::optional<std::string> name(
        const YAML::Node &parent, const std::string &path, const char *key, bool required)
    {
        std::optional<std::string> value = string(parent, path, key, required);
        if (value && !isDnsLabel(*value)) {
            error(parent[key], join(path, key),
                "\"" + *value
                    + "\" is not a valid name (lower-case letters, digits and '-', at most 63)");
            return std::nullopt;
        }
        return value;
    }

    std::optional<int64_t> integer(const YAML::Node &parent, const std::string &path,
        const char *key, int64_t min, int64_t max)
    {
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull())
            return std::nullopt;
        int64_t value = 0;
        if (!node.IsScalar() || !YAML::convert<int64_t>::decode(node, value)) {
            error(node, join(path, key), "must be an integer");
            return std::nullopt;
        }
        if (value < min || value > max) {
            error(node, join(path, key),
                "must be between " + std::to_string(min) + " and " + std::to_string(max) + " (is "
                    + std::to_string(value) + ")");
            return std::nullopt;
        }
        return value;
    }

    std::optional<double> number(
        const YAML::Node &parent, const std::string &path, const char *key, double min, double max)
    {
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull())
            return std::nullopt;
        double value = 0;
        if (!node.IsScalar() || !YAML::convert<double>::decode(node, value)) {
            error(node, join(path, key), "must be a number");
            return std::nullopt;
        }
        if (!(value >= min && value <= max)) {
            error(node, join(path, key), "must be between " + trim(min) + " and " + trim(max));
            return std::nullopt;
        }
        return value;
    }

    std::optional<bool> boolean(const YAML::Node &parent, const std::string &path, const char *key)
    {
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull())
            return std::nullopt;
        bool value = false;
        if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
            error(node, join(path, key), "must be true or false");
            return std::nullopt;
        }
        return value;
    }

    // A positive duration ("10m").
    std::optional<int64_t> duration(
        const YAML::Node &parent, const std::string &path, const char *key)
    {
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull())
            return std::nullopt;
        const std::optional<int64_t> ms
            = node.IsScalar() ? common::parseDuration(node.Scalar()) : std::nullopt;
        if (!ms) {
            error(node, join(path, key), "must be a duration such as 30s, 10m or 1h30m");
            return std::nullopt;
        }
        if (*ms <= 0) {
            error(node, join(path, key), "must be longer than 0s");
            return std::nullopt;
        }
        return ms;
    }

    std::vector<std::string> strings(
        const YAML::Node &parent, const std::string &path, const char *key)
    {
        std::vector<std::string> values;
        const YAML::Node node = parent[key];
        if (!node.IsDefined() || node.IsNull())
            return values;
        if (!node.IsSequence()) {
            error(node, join(path, key), "must be a list of strings");
            return values;
        }
        for (size_t i = 0; i < node.size(); ++i) {
            if (!node[i].IsScalar() || node[i].Scalar().empty())
                error(node[i], join(path, key) + "[" + std::to_string(i) + "]",
                    "must be a non-empty string");
            else
                values.push_back(node[i].Scalar());
        }
        return values;
    }

private:
    static std::string trim(double value)
    {
        std::string text = std::to_string(value);
        while (text.size() > 1 && text.back() == '0')
            text.pop_back();
        if (!text.empty() && text.back() == '.')
            text.pop_back();
        return text;
    }
};

struct Context
{
    Reader &r;
    QString baseDir;
};

void readBaseline(Context &c, const YAML::Node &node, RolloutPlan &plan)
{
    const std::string path = "spec.baseline";
    if (!node.IsDefined()) {
        c.r.error(node, path, "is required");
        return;
    }
    if (!c.r.map(node, path, { "namespace", "deployment" }))
        return;
    plan.baseline.ns = c.r.name(node, path, "namespace", true).value_or("");
    plan.baseline.deployment = c.r.name(node, path, "deployment", true).value_or("");
}

// The inline `spec:` or the `file:` manifest as a validated ResourceClaimTemplate.
void readTemplate(Context &c, const YAML::Node &node, const std::string &path, RolloutPlan &plan)
{
    if (!node.IsDefined()) {
        c.r.error(node, path, "is required");
        return;
    }
    if (!c.r.map(node, path, { "name", "spec", "file" }))
        return;
    const std::optional<std::string> name = c.r.name(node, path, "name", false);
    const YAML::Node spec = node["spec"];
    const std::optional<std::string> file = c.r.string(node, path, "file", false);
    if (spec.IsDefined() == file.has_value()) {
        c.r.error(node, path,
            "give the template either inline as `spec` or as `file`, not both or neither");
        return;
    }
    nlohmann::json manifest;
    const std::string origin = file ? path + ".file" : path + ".spec";
    const YAML::Node at = file ? node["file"] : spec;
    if (file) {
        plan.variant.templateFile = *file;
        if (c.baseDir.isEmpty()) {
            c.r.error(at, origin, "a template file needs the plan to be read from a file");
            return;
        }
        const QString resolved = QDir(c.baseDir).filePath(QString::fromStdString(*file));
        QFile input(resolved);
        if (!input.open(QIODevice::ReadOnly)) {
            c.r.error(at, origin,
                "cannot read " + resolved.toStdString() + ": " + input.errorString().toStdString());
            return;
        }
        const QByteArray text = input.readAll();
        Result<nlohmann::json> parsed
            = model::parseYaml(std::string_view(text.constData(), size_t(text.size())), resolved);
        if (!parsed) {
            c.r.error(at, origin, parsed.error().message.toStdString());
            return;
        }
        manifest = std::move(*parsed);
        if (!manifest.is_object() || manifest.value("kind", "") != "ResourceClaimTemplate") {
            c.r.error(at, origin, "the file must hold one ResourceClaimTemplate");
            return;
        }
    } else {
        YAML::Node document;
        document["apiVersion"] = "resource.k8s.io/v1";
        document["kind"] = "ResourceClaimTemplate";
        document["metadata"]["name"] = name.value_or("template");
        document["spec"] = spec;
        YAML::Emitter emitter;
        emitter << document;
        Result<nlohmann::json> parsed
            = model::parseYaml(emitter.c_str(), QString::fromStdString(origin));
        if (!parsed) {
            c.r.error(at, origin, parsed.error().message.toStdString());
            return;
        }
        manifest = std::move(*parsed);
    }
    // The template lives beside the workload and carries the name the plan gives it.
    nlohmann::json &metadata = manifest["metadata"];
    if (!metadata.is_object())
        metadata = nlohmann::json::object();
    if (name)
        metadata["name"] = *name;
    if (!metadata.contains("name") || !metadata["name"].is_string()) {
        c.r.error(
            node, path + ".name", "is required (or give the file's template a metadata.name)");
        return;
    }
    if (!plan.baseline.ns.empty())
        metadata["namespace"] = plan.baseline.ns;
    Result<model::Object> decoded = model::decodeObject(manifest);
    if (!decoded) {
        c.r.error(at, origin, decoded.error().message.toStdString());
        return;
    }
    const auto *rct = decoded->as<model::ResourceClaimTemplate>();
    if (!rct || rct->spec.requests.empty()) {
        c.r.error(
            at, origin, "the template requests no devices (spec.spec.devices.requests is empty)");
        return;
    }
    plan.variant.templateName = metadata["name"].get<std::string>();
    plan.variant.templateManifest = std::move(manifest);
}

void readVariant(Context &c, const YAML::Node &node, RolloutPlan &plan)
{
    const std::string path = "spec.variant";
    if (!node.IsDefined()) {
        c.r.error(node, path, "is required");
        return;
    }
    if (!c.r.map(node, path, { "name", "deployment", "resourceClaimTemplate", "podTemplate" }))
        return;
    readTemplate(c, node["resourceClaimTemplate"], path + ".resourceClaimTemplate", plan);
    plan.variant.name = c.r.name(node, path, "name", false).value_or(plan.variant.templateName);
    plan.variant.deployment = c.r.name(node, path, "deployment", false).value_or("");
    if (plan.variant.deployment.empty() && !plan.baseline.deployment.empty())
        plan.variant.deployment
            = plan.baseline.deployment.size() <= 59 ? plan.baseline.deployment + "-dra" : "";
    if (plan.variant.deployment.empty() && !plan.baseline.deployment.empty())
        c.r.error(node, path + ".deployment",
            "is required when the baseline's name is too long for \"-dra\"");
    if (!plan.variant.deployment.empty() && plan.variant.deployment == plan.baseline.deployment)
        c.r.error(
            node["deployment"], path + ".deployment", "must differ from the baseline Deployment");

    const YAML::Node pod = node["podTemplate"];
    const std::string podPath = path + ".podTemplate";
    if (!pod.IsDefined())
        return; // the defaults: drop nvidia.com/gpu, add claim "gpu" to every container
    if (!c.r.map(pod, podPath, { "removeResources", "claimName", "containers", "nodeSelector" }))
        return;
    if (pod["removeResources"].IsDefined())
        plan.variant.podTemplate.removeResources = c.r.strings(pod, podPath, "removeResources");
    plan.variant.podTemplate.claimName = c.r.name(pod, podPath, "claimName", false).value_or("gpu");
    plan.variant.podTemplate.containers = c.r.strings(pod, podPath, "containers");
    const YAML::Node selector = pod["nodeSelector"];
    if (selector.IsDefined() && !selector.IsMap()) {
        c.r.error(selector, podPath + ".nodeSelector", "must be a mapping of label to value");
    } else if (selector.IsDefined()) {
        for (const auto &entry : selector) {
            if (!entry.second.IsScalar())
                c.r.error(entry.second, podPath + ".nodeSelector." + entry.first.Scalar(),
                    "must be a string");
            else
                plan.variant.podTemplate.nodeSelector.emplace_back(
                    entry.first.Scalar(), entry.second.Scalar());
        }
    }
}

void readTraffic(Context &c, const YAML::Node &node, RolloutPlan &plan)
{
    const std::string path = "spec.traffic";
    if (!node.IsDefined()) {
        c.r.error(node, path, "is required (mode HTTPRoute or ReplicaRatio)");
        return;
    }
    if (!c.r.map(node, path, { "mode", "httpRoute", "service", "mirrorPercent" }))
        return;
    const std::optional<std::string> mode = c.r.string(node, path, "mode", true);
    if (!mode)
        return;
    if (*mode == "HTTPRoute") {
        plan.traffic.mode = TrafficMode::HttpRoute;
        const YAML::Node route = node["httpRoute"];
        const std::string routePath = path + ".httpRoute";
        if (!route.IsDefined()) {
            c.r.error(node, routePath, "is required with mode HTTPRoute");
        } else if (c.r.map(route, routePath, { "name", "baselineBackend", "canaryBackend" })) {
            plan.traffic.route = c.r.name(route, routePath, "name", true).value_or("");
            plan.traffic.baselineService
                = c.r.name(route, routePath, "baselineBackend", true).value_or("");
            plan.traffic.canaryService
                = c.r.name(route, routePath, "canaryBackend", true).value_or("");
            if (!plan.traffic.baselineService.empty()
                && plan.traffic.baselineService == plan.traffic.canaryService)
                c.r.error(route["canaryBackend"], routePath + ".canaryBackend",
                    "must differ from baselineBackend, or weights cannot separate them");
        }
        if (node["service"].IsDefined())
            c.r.error(node["service"], path + ".service",
                "is for mode ReplicaRatio; HTTPRoute uses httpRoute");
        plan.traffic.mirrorPercent
            = int(c.r.integer(node, path, "mirrorPercent", 1, 100).value_or(100));
    } else if (*mode == "ReplicaRatio") {
        plan.traffic.mode = TrafficMode::ReplicaRatio;
        plan.traffic.service = c.r.name(node, path, "service", true).value_or("");
        if (node["httpRoute"].IsDefined())
            c.r.error(node["httpRoute"], path + ".httpRoute", "is for mode HTTPRoute");
        if (node["mirrorPercent"].IsDefined())
            c.r.error(node["mirrorPercent"], path + ".mirrorPercent",
                "mirroring needs mode HTTPRoute (a RequestMirror filter)");
    } else {
        c.r.error(node["mode"], path + ".mode",
            "must be HTTPRoute or ReplicaRatio (is \"" + *mode + "\")");
    }
}

void readStages(Context &c, const YAML::Node &spec, RolloutPlan &plan)
{
    if (const YAML::Node canary = spec["canary"];
        canary.IsDefined() && c.r.map(canary, "spec.canary", { "replicas", "observation" })) {
        plan.canary.replicas
            = int(c.r.integer(canary, "spec.canary", "replicas", 1, 1000).value_or(1));
        plan.canary.observationMs = c.r.duration(canary, "spec.canary", "observation")
                                        .value_or(plan.canary.observationMs);
    }
    if (const YAML::Node shadow = spec["shadow"];
        shadow.IsDefined() && c.r.map(shadow, "spec.shadow", { "enabled", "observation" })) {
        plan.shadow.enabled = c.r.boolean(shadow, "spec.shadow", "enabled").value_or(true);
        plan.shadow.observationMs = c.r.duration(shadow, "spec.shadow", "observation")
                                        .value_or(plan.shadow.observationMs);
        if (plan.shadow.enabled && plan.traffic.mode == TrafficMode::ReplicaRatio)
            c.r.error(shadow, "spec.shadow.enabled",
                "shadow traffic needs traffic.mode HTTPRoute (RequestMirror); set enabled: false "
                "for ReplicaRatio");
    } else if (!spec["shadow"].IsDefined() && plan.traffic.mode == TrafficMode::ReplicaRatio) {
        plan.shadow.enabled = false; // nothing to mirror with; the stage is skipped
    }

    const YAML::Node cutover = spec["cutover"];
    const std::string path = "spec.cutover";
    if (!cutover.IsDefined()) {
        c.r.error(spec, path, "is required (steps such as [5, 25, 50, 100])");
        return;
    }
    if (!c.r.map(cutover, path, { "steps", "observation" }))
        return;
    const int64_t defaultWindow = c.r.duration(cutover, path, "observation").value_or(15 * 60'000);
    const YAML::Node steps = cutover["steps"];
    if (!steps.IsDefined() || !steps.IsSequence() || steps.size() == 0) {
        c.r.error(steps.IsDefined() ? steps : cutover, path + ".steps",
            "must be a non-empty list of percents ending at 100");
        return;
    }
    int previous = 0;
    bool stepsValid = true;
    for (size_t i = 0; i < steps.size(); ++i) {
        const std::string stepPath = path + ".steps[" + std::to_string(i) + "]";
        const YAML::Node step = steps[i];
        CutoverStep parsed { 0, defaultWindow };
        std::optional<int64_t> percent;
        if (step.IsMap()) {
            if (!c.r.map(step, stepPath, { "percent", "observation" })) {
                stepsValid = false;
                continue;
            }
            percent = c.r.integer(step, stepPath, "percent", 1, 100);
            if (!step["percent"].IsDefined())
                c.r.error(step, stepPath + ".percent", "is required");
            parsed.observationMs
                = c.r.duration(step, stepPath, "observation").value_or(defaultWindow);
        } else {
            int64_t value = 0;
            if (!step.IsScalar() || !YAML::convert<int64_t>::decode(step, value))
                c.r.error(step, stepPath, "must be a percent (1 to 100) or {percent, observation}");
            else if (value < 1 || value > 100)
                c.r.error(
                    step, stepPath, "must be between 1 and 100 (is " + std::to_string(value) + ")");
            else
                percent = value;
        }
        if (!percent) {
            stepsValid = false;
            continue;
        }
        if (*percent <= previous) {
            c.r.error(step, stepPath,
                "steps must increase (" + std::to_string(*percent) + " after "
                    + std::to_string(previous) + ")");
            stepsValid = false;
        }
        previous = std::max(previous, int(*percent));
        parsed.percent = int(*percent);
        plan.cutover.push_back(parsed);
    }
    if (stepsValid && previous != 100)
        c.r.error(steps, path + ".steps",
            "the last step must be 100 (is " + std::to_string(previous) + ")");
}

void readGates(Context &c, const YAML::Node &node, RolloutPlan &plan)
{
    const std::string path = "spec.gates";
    if (!node.IsDefined() || !c.r.map(node, path, { "application", "node", "negativeControl" }))
        return;
    if (const YAML::Node app = node["application"]; app.IsDefined()) {
        const std::string p = path + ".application";
        if (c.r.map(app, p,
                { "probe", "prometheus", "minProbeSuccess", "maxErrorRate", "maxErrorRateIncrease",
                    "maxLatencyRatio" })) {
            ApplicationGateConfig &a = plan.application;
            if (const YAML::Node probe = app["probe"];
                probe.IsDefined() && c.r.map(probe, p + ".probe", { "path", "port" })) {
                a.probePath = c.r.string(probe, p + ".probe", "path", true).value_or("");
                if (!a.probePath.empty() && a.probePath.front() != '/')
                    c.r.error(probe["path"], p + ".probe.path", "must start with '/'");
                a.probePort = int(c.r.integer(probe, p + ".probe", "port", 1, 65535).value_or(0));
                if (!probe["port"].IsDefined())
                    c.r.error(probe, p + ".probe.port", "is required");
            }
            if (const YAML::Node prom = app["prometheus"]; prom.IsDefined()
                && c.r.map(prom, p + ".prometheus", { "url", "errorRateQuery", "latencyQuery" })) {
                a.prometheusUrl = c.r.string(prom, p + ".prometheus", "url", true).value_or("");
                // A path goes through the API server (a Service's proxy), with the user's
                // credentials.
                if (!a.prometheusUrl.empty() && !a.prometheusUrl.starts_with("http://")
                    && !a.prometheusUrl.starts_with("https://")
                    && !a.prometheusUrl.starts_with("/"))
                    c.r.error(prom["url"], p + ".prometheus.url",
                        "must be an http:// or https:// URL, or an API server path such as "
                        "/api/v1/namespaces/monitoring/services/prometheus:9090/proxy");
                a.errorRateQuery
                    = c.r.string(prom, p + ".prometheus", "errorRateQuery", false).value_or("");
                a.latencyQuery
                    = c.r.string(prom, p + ".prometheus", "latencyQuery", false).value_or("");
            }
            a.minProbeSuccess = c.r.number(app, p, "minProbeSuccess", 0, 1).value_or(1.0);
            a.maxErrorRate = c.r.number(app, p, "maxErrorRate", 0, 1);
            a.maxErrorRateIncrease = c.r.number(app, p, "maxErrorRateIncrease", 0, 1);
            a.maxLatencyRatio = c.r.number(app, p, "maxLatencyRatio", 1, 1000);
            if ((a.maxErrorRate || a.maxErrorRateIncrease) && a.errorRateQuery.empty())
                c.r.error(app, p + ".prometheus.errorRateQuery",
                    "is required to enforce an error-rate threshold");
            if (a.maxLatencyRatio && a.latencyQuery.empty())
                c.r.error(
                    app, p + ".prometheus.latencyQuery", "is required to enforce maxLatencyRatio");
        }
    }
    if (const YAML::Node n = node["node"]; n.IsDefined()
        && c.r.map(n, path + ".node",
            { "identityAttribute", "identityField", "command", "container", "driverDaemonSet" })) {
        plan.node.identityAttribute
            = c.r.string(n, path + ".node", "identityAttribute", false).value_or("uuid");
        plan.node.identityField
            = c.r.string(n, path + ".node", "identityField", false).value_or("uuid");
        // `command: []` turns the look inside the container off.
        if (n["command"].IsDefined())
            plan.node.command = c.r.strings(n, path + ".node", "command");
        plan.node.container = c.r.string(n, path + ".node", "container", false).value_or("");
        plan.node.driverDaemonSet
            = c.r.string(n, path + ".node", "driverDaemonSet", false).value_or("");
        if (const std::string &ds = plan.node.driverDaemonSet; !ds.empty()
            && (ds.find('/') == std::string::npos || ds.front() == '/' || ds.back() == '/'
                || ds.find('/') != ds.rfind('/')))
            c.r.error(n["driverDaemonSet"], path + ".node.driverDaemonSet",
                "must be NAMESPACE/NAME, got \"" + ds + "\"");
    }
    if (const YAML::Node n = node["negativeControl"]; n.IsDefined()
        && c.r.map(n, path + ".negativeControl", { "enabled", "selector", "deviceClassName" })) {
        plan.negativeControl.enabled
            = c.r.boolean(n, path + ".negativeControl", "enabled").value_or(true);
        plan.negativeControl.selector
            = c.r.string(n, path + ".negativeControl", "selector", false).value_or("");
        plan.negativeControl.deviceClassName
            = c.r.string(n, path + ".negativeControl", "deviceClassName", false).value_or("");
    }
}

void readStopConditions(Context &c, const YAML::Node &node, RolloutPlan &plan)
{
    const std::string path = "spec.stopConditions";
    if (!node.IsDefined())
        return;
    if (!node.IsSequence()) {
        c.r.error(node, path, "must be a list");
        return;
    }
    std::set<StopCondition::Type> seen;
    for (size_t i = 0; i < node.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        const YAML::Node item = node[i];
        if (!c.r.map(item, p, { "type", "action", "after", "threshold", "rate" }))
            continue;
        const std::optional<std::string> type = c.r.string(item, p, "type", true);
        if (!type)
            continue;
        StopCondition condition;
        using T = StopCondition::Type;
        static const std::pair<const char *, T> kTypes[] = { { "PendingTooLong",
                                                                 T::PendingTooLong },
            { "WrongDeviceIdentity", T::WrongDeviceIdentity },
            { "ReadinessFailures", T::ReadinessFailures }, { "ErrorRateAbove", T::ErrorRateAbove },
            { "ClaimNotReleased", T::ClaimNotReleased } };
        const auto found = std::find_if(std::begin(kTypes), std::end(kTypes),
            [&](const auto &entry) { return *type == entry.first; });
        if (found == std::end(kTypes)) {
            c.r.error(item["type"], p + ".type",
                "unknown stop condition \"" + *type
                    + "\" (PendingTooLong, WrongDeviceIdentity, ReadinessFailures, ErrorRateAbove, "
                      "ClaimNotReleased)");
            continue;
        }
        condition.type = found->second;
        if (!seen.insert(condition.type).second)
            c.r.error(item["type"], p + ".type", *type + " is listed twice");
        const std::string action
            = c.r.string(item, p, "action", false)
                  .value_or(condition.type == T::WrongDeviceIdentity ? "Rollback" : "Pause");
        if (action == "Pause")
            condition.action = StopAction::Pause;
        else if (action == "Rollback")
            condition.action = StopAction::Rollback;
        else
            c.r.error(
                item["action"], p + ".action", "must be Pause or Rollback (is \"" + action + "\")");
        const bool needsAfter
            = condition.type == T::PendingTooLong || condition.type == T::ClaimNotReleased;
        const bool needsThreshold = condition.type == T::ReadinessFailures;
        const bool needsRate = condition.type == T::ErrorRateAbove;
        condition.afterMs = c.r.duration(item, p, "after").value_or(0);
        condition.threshold = int(c.r.integer(item, p, "threshold", 1, 1000).value_or(0));
        condition.rate = c.r.number(item, p, "rate", 0, 1).value_or(-1);
        const auto requireOnly = [&](const char *key, bool needed) {
            if (needed && !item[key].IsDefined())
                c.r.error(item, p + "." + key, "is required for " + *type);
            else if (!needed && item[key].IsDefined())
                c.r.error(item[key], p + "." + key, "does not apply to " + *type);
        };
        requireOnly("after", needsAfter);
        requireOnly("threshold", needsThreshold);
        requireOnly("rate", needsRate);
        if (needsRate && plan.application.errorRateQuery.empty())
            c.r.error(
                item, p, "ErrorRateAbove needs spec.gates.application.prometheus.errorRateQuery");
        plan.stopConditions.push_back(condition);
    }
}

// spec.owner, spec.approvals and spec.maintenanceWindow: who answers for the rollout, whether a
// second person approves, and when it may move forward.
void readGovernance(Context &c, const YAML::Node &spec, RolloutPlan &plan)
{
    plan.owner = c.r.string(spec, "spec", "owner", false).value_or("");
    plan.approvals = int(c.r.integer(spec, "spec", "approvals", 1, 2).value_or(1));
    const YAML::Node node = spec["maintenanceWindow"];
    const std::string path = "spec.maintenanceWindow";
    if (!node.IsDefined() || !c.r.map(node, path, { "days", "start", "duration", "timeZone" }))
        return;
    MaintenanceWindow window;
    const std::vector<std::string> days = c.r.strings(node, path, "days");
    for (size_t i = 0; i < days.size(); ++i) {
        if (const std::optional<int> day = weekdayFromName(days[i]))
            window.days.push_back(*day);
        else
            c.r.error(node["days"][i], path + ".days[" + std::to_string(i) + "]",
                "\"" + days[i] + "\" is not a weekday (Mon..Sun or Monday..Sunday)");
    }
    std::sort(window.days.begin(), window.days.end());
    window.days.erase(std::unique(window.days.begin(), window.days.end()), window.days.end());
    if (const std::optional<std::string> start = c.r.string(node, path, "start", true)) {
        if (const std::optional<int> minute = minuteOfDayFromText(*start))
            window.startMinute = *minute;
        else
            c.r.error(node["start"], path + ".start",
                "must be a local time as HH:MM, 00:00 to 23:59 (is \"" + *start + "\")");
    }
    if (!node["duration"].IsDefined())
        c.r.error(node, path + ".duration", "is required");
    window.durationMs = c.r.duration(node, path, "duration").value_or(0);
    if (window.durationMs > 7 * 24 * 3'600'000LL) {
        c.r.error(node["duration"], path + ".duration", "must be at most 7 days (168h)");
        window.durationMs = 0;
    }
    window.timeZone = c.r.string(node, path, "timeZone", false).value_or("UTC");
    if (!isKnownTimeZone(window.timeZone))
        c.r.error(node["timeZone"], path + ".timeZone",
            "\"" + window.timeZone
                + "\" is not an IANA time zone this machine knows (such as Europe/Berlin or UTC)");
    plan.maintenanceWindow = std::move(window);
}

} // namespace

const StopCondition *RolloutPlan::stopCondition(StopCondition::Type type) const
{
    for (const StopCondition &condition : stopConditions)
        if (condition.type == type)
            return &condition;
    return nullptr;
}

QString PlanError::message(const QString &file) const
{
    QString text = file;
    if (line > 0)
        text += QStringLiteral(":%1:%2").arg(line).arg(column);
    if (!path.empty())
        text += QStringLiteral(": ") + QString::fromStdString(path);
    return text + QStringLiteral(": ") + QString::fromStdString(reason);
}

QString PlanParse::errorText(const QString &file) const
{
    QString text;
    for (const PlanError &error : errors)
        text += error.message(file) + QLatin1Char('\n');
    return text;
}

namespace {

// A plan is text: the first place it is not UTF-8, as one error, since every later position
// would be a guess. Bytes are checked before parsing; strings again after, because yaml-cpp
// decodes some escapes (\N, next line) to single bytes that are not UTF-8.
std::optional<PlanError> nonUtf8Error(std::string_view text)
{
    const std::optional<common::Utf8Break> at = common::firstUtf8Break(text);
    if (!at)
        return std::nullopt;
    char byte[16];
    std::snprintf(byte, sizeof byte, "0x%02X", unsigned(at->byte));
    return PlanError { "", at->line, at->column,
        std::string("is not UTF-8 text (byte ") + byte + "); save the plan as UTF-8" };
}

std::optional<PlanError> nonUtf8Error(const YAML::Node &node)
{
    if (node.IsScalar()) {
        if (common::invalidUtf8At(node.Scalar()) == std::string_view::npos)
            return std::nullopt;
        return PlanError { "", node.Mark().line + 1, node.Mark().column + 1,
            "a string whose escapes decode to bytes that are not UTF-8 text (such as \\N)" };
    }
    if (node.IsMap()) {
        for (const auto &entry : node) {
            if (auto error = nonUtf8Error(entry.first))
                return error;
            if (auto error = nonUtf8Error(entry.second))
                return error;
        }
    } else if (node.IsSequence()) {
        for (const auto &item : node) {
            if (auto error = nonUtf8Error(item))
                return error;
        }
    }
    return std::nullopt;
}

} // namespace

PlanParse parsePlan(std::string_view yaml, const QString &baseDir)
{
    PlanParse result;
    if (std::optional<PlanError> error = nonUtf8Error(yaml)) {
        result.errors.push_back(std::move(*error));
        return result;
    }
    YAML::Node root;
    try {
        root = YAML::Load(std::string(yaml));
    } catch (const YAML::Exception &e) {
        result.errors.push_back(PlanError { "", e.mark.line + 1, e.mark.column + 1, e.msg });
        return result;
    }
    if (std::optional<PlanError> error = nonUtf8Error(root)) {
        result.errors.push_back(std::move(*error));
        return result;
    }
    Reader reader;
    Context c { reader, baseDir };
    RolloutPlan plan;
    try {
        if (!reader.map(root, "", { "apiVersion", "kind", "metadata", "spec" })) {
            result.errors = std::move(reader.errors);
            return result;
        }
        const std::optional<std::string> apiVersion = reader.string(root, "", "apiVersion", true);
        if (apiVersion && *apiVersion != kPlanApiVersion)
            reader.error(root["apiVersion"], "apiVersion",
                "must be " + std::string(kPlanApiVersion) + " (is \"" + *apiVersion + "\")");
        const std::optional<std::string> kind = reader.string(root, "", "kind", true);
        if (kind && *kind != kPlanKind)
            reader.error(root["kind"], "kind", "must be RolloutPlan (is \"" + *kind + "\")");
        const YAML::Node metadata = root["metadata"];
        if (!metadata.IsDefined())
            reader.error(root, "metadata.name", "is required");
        else if (reader.map(metadata, "metadata", { "name", "description" })) {
            plan.name = reader.name(metadata, "metadata", "name", true).value_or("");
            plan.description
                = reader.string(metadata, "metadata", "description", false).value_or("");
        }
        const YAML::Node spec = root["spec"];
        if (!spec.IsDefined()) {
            reader.error(root, "spec", "is required");
        } else if (reader.map(spec, "spec",
                       { "baseline", "variant", "traffic", "canary", "shadow", "cutover", "gates",
                           "stopConditions", "rollback", "owner", "approvals",
                           "maintenanceWindow" })) {
            readBaseline(c, spec["baseline"], plan);
            readVariant(c, spec["variant"], plan);
            readTraffic(c, spec["traffic"], plan);
            readStages(c, spec, plan);
            readGates(c, spec["gates"], plan);
            readStopConditions(c, spec["stopConditions"], plan);
            readGovernance(c, spec, plan);
            if (const YAML::Node rollback = spec["rollback"];
                rollback.IsDefined() && c.r.map(rollback, "spec.rollback", { "drainWindow" }))
                plan.rollback.drainMs = c.r.duration(rollback, "spec.rollback", "drainWindow")
                                            .value_or(plan.rollback.drainMs);
        }
    } catch (const YAML::Exception &e) {
        reader.error(root, "", e.what());
    }
    if (plan.negativeControl.enabled && plan.negativeControl.deviceClassName.empty()
        && plan.variant.templateManifest.is_object()) {
        if (Result<model::Object> decoded = model::decodeObject(plan.variant.templateManifest)) {
            const auto *rct = decoded->as<model::ResourceClaimTemplate>();
            const model::DeviceRequest &request = rct->spec.requests.front();
            plan.negativeControl.deviceClassName = request.exactly
                ? request.exactly->deviceClassName
                : !request.firstAvailable.empty() ? request.firstAvailable.front().deviceClassName
                                                  : "";
        }
    }
    // No driver publishes devices under a reserved .invalid domain, so this never matches.
    if (plan.negativeControl.enabled && plan.negativeControl.selector.empty())
        plan.negativeControl.selector = "device.driver == \"negative-control.draconsole.invalid\"";
    std::stable_sort(
        reader.errors.begin(), reader.errors.end(), [](const PlanError &a, const PlanError &b) {
            return (a.line ? a.line : INT32_MAX) < (b.line ? b.line : INT32_MAX);
        });
    result.errors = std::move(reader.errors);
    if (result.errors.empty())
        result.plan = std::move(plan);
    return result;
}

PlanParse readPlanFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        PlanParse result;
        result.errors.push_back(
            PlanError { "", 0, 0, "cannot read the plan: " + file.errorString().toStdString() });
        return result;
    }
    const QByteArray text = file.readAll();
    return parsePlan(
        std::string_view(text.constData(), size_t(text.size())), QFileInfo(path).absolutePath());
}

const char *trafficModeName(TrafficMode mode)
{
    return mode == TrafficMode::HttpRoute ? "HTTPRoute" : "ReplicaRatio";
}

const char *stopActionName(StopAction action)
{
    return action == StopAction::Pause ? "Pause" : "Rollback";
}

const char *stopConditionName(StopCondition::Type type)
{
    switch (type) {
    case StopCondition::Type::PendingTooLong:
        return "PendingTooLong";
    case StopCondition::Type::WrongDeviceIdentity:
        return "WrongDeviceIdentity";
    case StopCondition::Type::ReadinessFailures:
        return "ReadinessFailures";
    case StopCondition::Type::ErrorRateAbove:
        return "ErrorRateAbove";
    case StopCondition::Type::ClaimNotReleased:
        return "ClaimNotReleased";
    }
    return "?";
}

} // namespace dra::rollout
