// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/rollout_report.h"

#include <QDateTime>

#include "core/common/html_text.h"
#include "core/rollout/rollout_plan.h"
#include "core/rollout/rollout_status.h"

namespace dra::rollout {

namespace {

using common::escapeHtml;
using nlohmann::json;

std::string reportTime(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate).toStdString();
}

std::string jsonText(const json &value, const char *key)
{
    if (!value.is_object() || !value.contains(key))
        return {};
    const json &field = value[key];
    return field.is_string() ? field.get<std::string>() : field.dump();
}

std::string verdictClass(std::string_view verdict)
{
    if (verdict == "Passed")
        return "pass";
    if (verdict == "Failed")
        return "fail";
    return "wait";
}

std::string stageLabelOf(const RolloutPlan *plan, Stage stage, int step)
{
    std::string label = stageName(stage);
    if (stage == Stage::Cutover && plan && step >= 0 && step < int(plan->cutover.size()))
        label += " " + std::to_string(plan->cutover[size_t(step)].percent) + "%";
    return label;
}

// An SVG document without its XML declaration, to stand inside HTML.
std::string svgBody(const std::string &svg)
{
    const size_t start = svg.find("<svg");
    return start == std::string::npos ? std::string() : svg.substr(start);
}

void appendGateHtml(std::string &html, const json &gate)
{
    const std::string verdict = jsonText(gate, "verdict");
    html += "<div class=\"gate\"><h4><span class=\"badge " + verdictClass(verdict) + "\">"
        + escapeHtml(verdict) + "</span> " + escapeHtml(jsonText(gate, "gate")) + " gate";
    if (gate.contains("at") && gate["at"].is_number_integer())
        html += " <small>" + reportTime(gate["at"].get<int64_t>()) + "</small>";
    html += "</h4><table><tr><th>check</th><th>verdict</th><th>evidence</th></tr>";
    if (gate.contains("checks") && gate["checks"].is_array())
        for (const json &check : gate["checks"]) {
            const std::string v = jsonText(check, "verdict");
            html += "<tr><td>" + escapeHtml(jsonText(check, "name")) + "</td><td class=\""
                + verdictClass(v) + "\">" + escapeHtml(v) + "</td><td>"
                + escapeHtml(jsonText(check, "evidence")) + "</td></tr>";
        }
    html += "</table>";
    // The pictures are SVG documents our own renderer wrote; inlined so the report stays one file.
    if (gate.contains("pictures") && gate["pictures"].is_object())
        for (const auto &[title, svg] : gate["pictures"].items())
            if (svg.is_string())
                html += "<figure class=\"picture\">" + svgBody(svg.get<std::string>())
                    + "<figcaption>" + escapeHtml(title) + "</figcaption></figure>";
    html += "</div>\n";
}

std::string joinedText(const json &list)
{
    std::string text;
    if (list.is_array())
        for (const json &item : list)
            text += (text.empty() ? "" : ", ")
                + (item.is_string() ? item.get<std::string>() : item.dump());
    return text;
}

// The cluster before the rollout: versions, the baseline, GPUs per node and their managers,
// the device UUIDs, DaemonSets.
void appendBaselineFactsHtml(std::string &html, const json &facts)
{
    html += "<h2>Baseline facts</h2>\n";
    if (!facts.is_object()) {
        html += "<p>No pre-flight with facts is recorded for this rollout.</p>\n";
        return;
    }
    const json &versions = facts.value("versions", json::object());
    const json &baseline = facts.value("baseline", json::object());
    std::string base = jsonText(baseline, "readyReplicas") + "/" + jsonText(baseline, "replicas")
        + " replicas Ready";
    if (baseline.contains("errorRate"))
        base += ", error rate " + jsonText(baseline, "errorRate") + ", p95 latency "
            + jsonText(baseline, "latencyP95Ms") + " ms";
    html += "<table class=\"summary\"><tr><td>Kubernetes</td><td>"
        + escapeHtml(jsonText(versions, "kubernetes").empty() ? std::string("unknown")
                                                              : jsonText(versions, "kubernetes"))
        + "</td></tr><tr><td>resource.k8s.io</td><td>"
        + escapeHtml(joinedText(versions.value("resource.k8s.io", json::array())))
        + "</td></tr><tr><td>baseline</td><td>" + escapeHtml(base) + "</td></tr></table>\n";
    html += "<table><tr><th>node</th><th>device-plugin GPUs</th><th>DRA drivers</th></tr>";
    for (const json &node : facts.value("nodes", json::array()))
        html += "<tr><td>" + escapeHtml(jsonText(node, "name")) + "</td><td>"
            + escapeHtml(jsonText(node, "devicePluginGpus")) + "</td><td>"
            + escapeHtml(joinedText(node.value("drivers", json::array()))) + "</td></tr>";
    html += "</table>\n<details><summary>"
        + std::to_string(facts.value("devices", json::array()).size()) + " devices"
        + (facts.value("devicesLeftOut", 0) > 0
                ? " (" + jsonText(facts, "devicesLeftOut") + " more not listed)"
                : std::string())
        + "</summary><table><tr><th>node</th><th>driver</th><th>pool</th><th>device</th><th>UUID</"
          "th></tr>";
    for (const json &device : facts.value("devices", json::array()))
        html += "<tr><td>" + escapeHtml(jsonText(device, "node")) + "</td><td>"
            + escapeHtml(jsonText(device, "driver")) + "</td><td>"
            + escapeHtml(jsonText(device, "pool")) + "</td><td>"
            + escapeHtml(jsonText(device, "name")) + "</td><td><code>"
            + escapeHtml(jsonText(device, "uuid")) + "</code></td></tr>";
    html += "</table></details>\n";
    if (facts.contains("daemonSetsUnknown")) {
        html += "<p>DaemonSets could not be listed: "
            + escapeHtml(jsonText(facts, "daemonSetsUnknown")) + "</p>\n";
        return;
    }
    html += "<table><tr><th>DaemonSet</th><th>Ready</th><th>images</th></tr>";
    for (const json &ds : facts.value("daemonSets", json::array()))
        html += "<tr><td>" + escapeHtml(jsonText(ds, "namespace") + "/" + jsonText(ds, "name"))
            + "</td><td>" + escapeHtml(jsonText(ds, "ready") + "/" + jsonText(ds, "desired"))
            + "</td><td>" + escapeHtml(joinedText(ds.value("images", json::array())))
            + "</td></tr>";
    html += "</table>\n";
}

constexpr std::string_view kReportStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#1d2330;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:2em;border-bottom:2px solid #e3e7ef;padding-bottom:.2em}
figure.picture{margin:.5em 0;overflow-x:auto}figure.picture svg{max-width:100%;height:auto}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #e3e7ef;vertical-align:top}
th{background:#f4f6fa;font-weight:600}small{color:#667085}
.badge{display:inline-block;padding:.05em .55em;border-radius:.8em;font-size:.85em;color:#fff;background:#667085}
.pass{color:#137333}.fail{color:#b3261e}.wait{color:#a05a00}
.badge.pass{background:#137333;color:#fff}.badge.fail{background:#b3261e;color:#fff}.badge.wait{background:#a05a00;color:#fff}
.timeline{list-style:none;padding-left:0;border-left:3px solid #c7cfdd;margin-left:.6em}
.timeline li{position:relative;padding:.3em 0 .6em 1.2em}.timeline li:before{content:"";position:absolute;left:-.55em;top:.65em;width:.8em;height:.8em;border-radius:50%;background:#3b6fd8}
pre{background:#f6f8fa;padding:.6em;overflow:auto;font-size:12px;max-height:24em}
.summary td:first-child{width:12em;color:#667085}.gate h4{margin:.9em 0 .2em}code{font-size:.92em}
)css";

} // namespace

json rolloutReportJson(const RolloutReportInput &input)
{
    const RolloutState &s = input.record.state;
    const PlanParse parsed = parsePlan(input.record.planYaml);
    const RolloutPlan *plan = parsed.plan ? &*parsed.plan : nullptr;
    json rollout { { "id", s.id }, { "workload", s.workload }, { "variant", s.variant },
        { "stage", stageName(s.stage) },
        { "stageLabel",
            stageLabelOf(
                plan, s.effectiveStage(), s.stage == Stage::Paused ? s.pausedStep : s.step) },
        { "step", s.step }, { "attempt", s.attempt }, { "baselineReplicas", s.baselineReplicas },
        { "createdAt", s.createdAt }, { "updatedAt", input.record.updatedAt } };
    if (s.stage == Stage::Paused) {
        rollout["pausedStage"] = stageName(s.pausedStage);
        rollout["pauseReason"] = s.pauseReason;
    }
    json timeline = json::array();
    for (const HistoryEntry &h : s.history)
        timeline.push_back({ { "at", h.at }, { "actor", h.actor }, { "verb", verbName(h.verb) },
            { "from", stageLabelOf(plan, h.from, h.fromStep) },
            { "to", stageLabelOf(plan, h.to, h.toStep) }, { "note", h.note } });
    json gates = json::array();
    for (const auto &[kind, result] : s.gates)
        gates.push_back(gateResultJson(result));
    json gateHistory = json::array(), mutations = json::array(), entries = json::array();
    json baselineFacts; // of the latest attempt's pre-flight
    for (const AuditEntry &entry : input.audit) {
        entries.push_back(auditEntryJson(entry));
        if (entry.action == "create" && entry.details.contains("preflight"))
            baselineFacts = entry.details["preflight"].value("facts", json());
        if (entry.action == "gate" && entry.details.contains("gate"))
            gateHistory.push_back(
                { { "at", entry.at }, { "stage", entry.details.value("stage", std::string()) },
                    { "gate", entry.details["gate"] } });
        if (entry.action == "mutate") {
            json m = entry.details;
            m["at"] = entry.at;
            m["actor"] = entry.actor;
            mutations.push_back(std::move(m));
        }
    }
    const json verification = auditVerificationJson(input.verification);
    return { { "apiVersion", std::string(kPlanApiVersion) }, { "kind", "RolloutReport" },
        { "generatedAt", input.generatedAt }, { "rollout", rollout },
        { "plan", plan ? planJson(*plan) : json() }, { "baselineFacts", baselineFacts },
        { "timeline", timeline }, { "gates", gates }, { "gateHistory", gateHistory },
        { "mutations", mutations },
        { "audit", { { "entries", entries }, { "verification", verification } } } };
}

std::string rolloutReportHtml(const RolloutReportInput &input)
{
    const json report = rolloutReportJson(input);
    const json &r = report["rollout"];
    std::string html
        = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Rollout "
        + escapeHtml(jsonText(r, "id")) + "</title>\n<style>" + std::string(kReportStyle)
        + "</style></head><body>\n";
    html += "<h1>Rollout " + escapeHtml(jsonText(r, "id")) + "</h1>\n<p>"
        + escapeHtml(jsonText(r, "workload")) + " from the device plugin to DRA variant <b>"
        + escapeHtml(jsonText(r, "variant")) + "</b>. Report generated "
        + reportTime(input.generatedAt) + ".</p>\n";
    html += "<table class=\"summary\">";
    const auto row = [&](const std::string &name, const std::string &value) {
        html += "<tr><td>" + escapeHtml(name) + "</td><td>" + escapeHtml(value) + "</td></tr>";
    };
    row("stage", jsonText(r, "stageLabel") + (r.contains("pausedStage") ? " (paused)" : ""));
    if (r.contains("pauseReason"))
        row("paused because", jsonText(r, "pauseReason"));
    row("attempt", jsonText(r, "attempt"));
    row("baseline replicas", jsonText(r, "baselineReplicas"));
    row("created", reportTime(input.record.state.createdAt));
    row("last change", reportTime(input.record.updatedAt));
    const json &verification = report["audit"]["verification"];
    row("audit log",
        verification["intact"].get<bool>() ? "intact, " + jsonText(verification, "entries")
                + " entries, head " + jsonText(verification, "headHash")
                                           : "BROKEN: " + jsonText(verification, "reason"));
    html += "</table>\n";
    appendBaselineFactsHtml(html, report["baselineFacts"]);

    html += "<h2>Timeline</h2>\n<ol class=\"timeline\">";
    for (const json &t : report["timeline"])
        html += "<li><b>" + escapeHtml(jsonText(t, "from")) + " &rarr; "
            + escapeHtml(jsonText(t, "to")) + "</b> <small>" + reportTime(t["at"].get<int64_t>())
            + " &middot; " + escapeHtml(jsonText(t, "verb")) + " by "
            + escapeHtml(jsonText(t, "actor")) + "</small>"
            + (jsonText(t, "note").empty() ? "" : "<br>" + escapeHtml(jsonText(t, "note")))
            + "</li>";
    html += "</ol>\n";

    html += "<h2>Gates of the current stage</h2>\n";
    if (report["gates"].empty())
        html += "<p>No gate evaluated in this stage.</p>\n";
    for (const json &gate : report["gates"])
        appendGateHtml(html, gate);

    html += "<h2>Gate history</h2>\n<p>Each change of a gate's verdict, with the evidence that "
            "decided it.</p>\n";
    for (const json &entry : report["gateHistory"]) {
        html += "<p><small>stage " + escapeHtml(jsonText(entry, "stage")) + "</small></p>";
        appendGateHtml(html, entry["gate"]);
    }

    html += "<h2>Mutations</h2>\n<table><tr><th>time</th><th>mutation</th><th>result</th><th>by</"
            "th></tr>";
    for (const json &m : report["mutations"]) {
        const std::string result = jsonText(m, "result");
        html += "<tr><td>" + reportTime(m.value("at", int64_t(0))) + "</td><td>"
            + escapeHtml(m.contains("mutation") ? jsonText(m["mutation"], "description") : "")
            + "</td><td class=\"" + (result == "failed" || result == "denied" ? "fail" : "pass")
            + "\">" + escapeHtml(result)
            + (jsonText(m, "error").empty() ? "" : ": " + escapeHtml(jsonText(m, "error")))
            + "</td><td>" + escapeHtml(jsonText(m, "actor")) + "</td></tr>";
        if (!jsonText(m, "diff").empty())
            html += "<tr><td></td><td colspan=\"3\"><details><summary>preview (server dry "
                    "run)</summary><pre>"
                + escapeHtml(jsonText(m, "diff")) + "</pre></details></td></tr>";
    }
    html += "</table>\n";

    html += "<h2>Audit "
            "log</h2>\n<table><tr><th>#</th><th>time</th><th>actor</th><th>action</th><th>result</"
            "th></tr>";
    for (const json &e : report["audit"]["entries"])
        html += "<tr><td>" + jsonText(e, "seq") + "</td><td>" + reportTime(e["at"].get<int64_t>())
            + "</td><td>" + escapeHtml(jsonText(e, "actor")) + "</td><td>"
            + escapeHtml(jsonText(e, "action")) + "</td><td>" + escapeHtml(jsonText(e, "result"))
            + "</td></tr>";
    html += "</table>\n<p><small>Each entry's hash covers the one before it; the chain was "
            "verified when this report "
            "was generated.</small></p>\n";

    html
        += "<h2>Plan</h2>\n<pre>" + escapeHtml(report["plan"].dump(2)) + "</pre>\n</body></html>\n";
    return html;
}

} // namespace dra::rollout
