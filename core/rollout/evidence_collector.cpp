// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/evidence_collector.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include <QUrlQuery>

#include "core/alloc/diagnosis.h"
#include "core/alloc/simulation_cluster.h"
#include "core/common/json_text.h"
#include "core/inventory/snapshot_builder.h"
#include "core/model/kubelet_plugin.h"
#include "core/model/record_codec.h"
#include "core/rollout/deployment_readiness.h"
#include "core/rollout/mutation_manifests.h"
#include "core/rollout/rollout_machine.h"
#include "core/topology/node_topology.h"
#include "core/topology/topology_render.h"

namespace dra::rollout {

using model::Kind;
using nlohmann::json;

namespace {

std::vector<model::Object> decodeAll(const std::vector<json> &items)
{
    // A bad object from the server is skipped, never fatal: the gate then misses it and says so.
    std::vector<model::Object> objects;
    for (const json &item : items)
        if (Result<model::Object> object = model::decodeObject(item))
            objects.push_back(std::move(*object));
    return objects;
}

std::string podIpOf(const model::Object &pod)
{
    if (!pod.raw || !pod.raw->contains("status"))
        return {};
    return (*pod.raw)["status"].value("podIP", std::string());
}

// One gate over several pods: every pod's checks, each named after its pod.
GateResult combinedPodGate(GateKind kind, const std::vector<GateResult> &perPod, int64_t now)
{
    std::vector<Check> checks;
    for (const GateResult &result : perPod)
        checks.insert(checks.end(), result.checks.begin(), result.checks.end());
    if (perPod.empty())
        checks.push_back(
            Check { "canary pods", Verdict::Inconclusive, "no pod of the canary exists yet" });
    return gateResult(kind, std::move(checks), now);
}

// Claims the variant left behind: those owned by a canary pod, and the negative control.
std::vector<std::string> variantClaims(
    const RolloutPlan &plan, const std::vector<json> &claims, const std::string &negativeControl)
{
    std::vector<std::string> remaining;
    const std::string podPrefix = plan.variant.deployment + "-";
    for (const json &claim : claims) {
        const json &meta = claim.value("metadata", json::object());
        const std::string name = meta.value("name", std::string());
        bool ours = name == negativeControl;
        if (meta.contains("ownerReferences") && meta["ownerReferences"].is_array())
            for (const json &owner : meta["ownerReferences"])
                if (owner.value("kind", std::string()) == "Pod"
                    && owner.value("name", std::string()).starts_with(podPrefix))
                    ours = true;
        if (ours)
            remaining.push_back(meta.value("namespace", std::string()) + "/" + name);
    }
    return remaining;
}

// The topology of each node a canary pod runs on, as SVG, with what the claims hold drawn on it:
// the node gate's evidence in a picture.
std::map<std::string, std::string> canaryTopologyPictures(const std::vector<model::Object> &pods,
    const std::vector<model::Object> &slices, const std::vector<model::Object> &claims)
{
    std::vector<model::Object> inventory = slices;
    inventory.insert(inventory.end(), claims.begin(), claims.end());
    std::map<std::string, std::string> pictures;
    for (const model::Object &pod : pods) {
        const model::Pod *p = pod.as<model::Pod>();
        if (!p || p->nodeName.empty() || pictures.contains("node " + p->nodeName))
            continue;
        const topology::NodeTopology graph
            = topology::buildNodeTopology(common::qs(p->nodeName), inventory);
        if (!graph.gpus.empty())
            pictures["node " + p->nodeName] = topology::toSvg(graph).toStdString();
    }
    return pictures;
}

// The Pending diagnosis of `claim` among `objects` (the cluster's objects, by kind), under the
// scheduler rules of the release the cluster reported; nullopt when the claim is not there.
std::optional<alloc::Diagnosis> diagnoseInCluster(const model::Object &claim,
    std::initializer_list<std::vector<model::Object>> objects, const std::string &kubernetesVersion)
{
    inventory::SnapshotSource source;
    source.cluster = "rollout";
    source.kubernetesVersion = kubernetesVersion;
    for (const std::vector<model::Object> &part : objects)
        for (const model::Object &object : part)
            source.objects.push_back(model::toRecord(object));
    const inventory::SnapshotPtr snapshot = inventory::buildSnapshot(std::move(source));
    Result<alloc::SimulationCluster> cluster = alloc::simulationCluster(*snapshot);
    if (!cluster)
        return std::nullopt;
    Result<alloc::Diagnosis> diagnosed
        = alloc::diagnoseClaim(*cluster->cluster, cluster->release, claim.meta.ns, claim.meta.name);
    if (!diagnosed)
        return std::nullopt;
    return std::move(*diagnosed);
}

} // namespace

struct EvidenceCollector::Gathering
{
    Stage stage = Stage::Baseline;
    int rollbackReplicas = 0; // what the rollback must restore: the baseline's replicas at start
    int rollbackStep = -1; // the rollback's step (rollout_machine.h) while RollingBack
    std::function<void(Result<StageEvidence>)> done;
    std::deque<std::function<void(std::function<void()>)>> tasks;
    std::optional<common::Error> error;

    std::vector<std::string> versions;
    std::string kubernetesVersion; // empty when /version did not answer
    std::optional<json> baseline, canary, route, negativeControl;
    std::vector<json> pods, claims, slices, events, nodes, deviceClasses, daemonSets;
    std::string daemonSetsError; // only recorded: no DaemonSet list is not a failed pre-flight
    std::vector<model::Object> podObjects;
    std::vector<ProbeResult> probes;
    std::optional<TrafficMetrics> baselineMetrics, canaryMetrics;
    std::map<std::string, ContainerCommand> commands; // by pod name: the node gate's command
    std::optional<DriverPods> driver; // pods still in driverPods until evaluated
    std::vector<json> driverPods;
};

Result<std::optional<double>> prometheusScalar(const QByteArray &body)
{
    Result<json> parsed = common::parseJson(std::string_view(body.constData(), size_t(body.size())),
        QStringLiteral("Prometheus answer"));
    if (!parsed)
        return fail(parsed.error());
    try {
        if (parsed->value("status", std::string()) != "success")
            return fail(common::Error::Code::Invalid,
                QStringLiteral("Prometheus: %1")
                    .arg(common::qs(parsed->value("error", std::string("query failed")))));
        const json &result = parsed->at("data").at("result");
        if (!result.is_array() || result.empty())
            return std::optional<double>();
        const json &value = result.front().at("value").at(1);
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        const double number = std::stod(text);
        // NaN is Prometheus' 0/0: no requests in the window, which is no data, not a rate.
        if (std::isnan(number))
            return std::optional<double>();
        return std::optional<double>(number);
    } catch (const std::exception &e) {
        return fail(common::Error::Code::Parse,
            QStringLiteral("Prometheus answer is not an instant vector: %1")
                .arg(QString::fromUtf8(e.what())));
    }
}

EvidenceCollector::EvidenceCollector(const RolloutPlan &plan, ClusterPort &cluster,
    common::Clock &clock, int httpTimeoutMs, QObject *parent)
    : QObject(parent)
    , m_plan(plan)
    , m_cluster(cluster)
    , m_clock(clock)
    , m_httpTimeoutMs(httpTimeoutMs)
{
}

void EvidenceCollector::collect(
    const RolloutState &state, std::function<void(Result<StageEvidence>)> done)
{
    auto g = std::make_shared<Gathering>();
    g->stage = state.effectiveStage();
    g->rollbackReplicas = state.baselineReplicas;
    if (state.stage == Stage::RollingBack)
        g->rollbackStep = state.step;
    g->done = std::move(done);
    const std::string &ns = m_plan.baseline.ns;
    const bool running
        = g->stage == Stage::Canary || g->stage == Stage::Shadow || g->stage == Stage::Cutover;
    const bool rollingBack = g->stage == Stage::RollingBack;
    if (!running && !rollingBack && g->stage != Stage::Baseline)
        return g->done(StageEvidence {});

    // Each task fills a part of the gathering and calls `then`; the first error ends it all.
    const auto getInto = [this, g](Kind kind, std::string ns, std::string name,
                             std::optional<json> Gathering::*into) {
        g->tasks.push_back([this, g, kind, ns, name, into](std::function<void()> then) {
            m_cluster.get(kind, ns, name, this, [g, into, then](Result<std::optional<json>> got) {
                if (!got)
                    g->error = got.error();
                else
                    (*g).*into = std::move(*got);
                then();
            });
        });
    };
    const auto listInto = [this, g](Kind kind, std::string ns, std::string selector,
                              std::vector<json> Gathering::*into) {
        g->tasks.push_back([this, g, kind, ns, selector, into](std::function<void()> then) {
            m_cluster.list(
                kind, ns, selector, this, [g, into, then](Result<std::vector<json>> got) {
                    if (!got)
                        g->error = got.error();
                    else
                        (*g).*into = std::move(*got);
                    then();
                });
        });
    };

    getInto(Kind::Deployment, ns, m_plan.baseline.deployment, &Gathering::baseline);
    if (g->stage == Stage::Baseline) {
        g->tasks.push_back([this, g](std::function<void()> then) {
            m_cluster.servedResourceVersions(
                this, [g, then](Result<std::vector<std::string>> versions) {
                    if (!versions)
                        g->error = versions.error();
                    else
                        g->versions = std::move(*versions);
                    then();
                });
        });
        listInto(Kind::Node, "", "", &Gathering::nodes);
        listInto(Kind::ResourceSlice, "", "", &Gathering::slices);
        gatherBaselineFacts(g);
        next(g);
        return;
    }
    getInto(Kind::Deployment, ns, m_plan.variant.deployment, &Gathering::canary);
    listInto(Kind::Pod, ns, canaryPodSelector(m_plan), &Gathering::pods);
    listInto(Kind::ResourceClaim, ns, "", &Gathering::claims);
    if (m_plan.traffic.mode == TrafficMode::HttpRoute)
        getInto(Kind::HTTPRoute, ns, m_plan.traffic.route, &Gathering::route);
    if (running) {
        listInto(Kind::ResourceSlice, "", "", &Gathering::slices);
        listInto(Kind::Event, ns, "", &Gathering::events);
        if (g->stage == Stage::Canary && m_plan.negativeControl.enabled) {
            getInto(Kind::ResourceClaim, ns, m_plan.name + "-negative-control",
                &Gathering::negativeControl);
            // A claim no pod uses gets no scheduler Event: the allocation simulation explains it,
            // under the rules of the cluster's release.
            listInto(Kind::DeviceClass, "", "", &Gathering::deviceClasses);
            listInto(Kind::Node, "", "", &Gathering::nodes);
            g->tasks.push_back([this, g](std::function<void()> then) {
                m_cluster.serverVersion(this, [g, then](Result<std::string> version) {
                    // Not known: the simulation says it used the newest release instead.
                    if (version)
                        g->kubernetesVersion = std::move(*version);
                    then();
                });
            });
        }
        gatherDriverPods(g);
        if (!m_plan.node.command.empty())
            g->tasks.push_back([this, g](std::function<void()> then) { look(g, 0, then); });
        if (!m_plan.application.probePath.empty())
            g->tasks.push_back([this, g](std::function<void()> then) {
                g->podObjects = decodeAll(g->pods);
                probe(g, 0, then);
            });
        if (!m_plan.application.prometheusUrl.empty())
            g->tasks.push_back([this, g](std::function<void()> then) {
                queryMetrics(m_plan.variant.deployment,
                    [this, g, then](std::optional<TrafficMetrics> canary) {
                        g->canaryMetrics = canary;
                        queryMetrics(m_plan.baseline.deployment,
                            [g, then](std::optional<TrafficMetrics> baseline) {
                                g->baselineMetrics = baseline;
                                then();
                            });
                    });
            });
    }
    next(g);
}

void EvidenceCollector::next(std::shared_ptr<Gathering> g)
{
    if (g->error) {
        auto done = std::move(g->done);
        g->tasks.clear();
        return done(fail(*g->error));
    }
    if (g->tasks.empty())
        return evaluate(g);
    auto task = std::move(g->tasks.front());
    g->tasks.pop_front();
    task([this, g]() { next(g); });
}

void EvidenceCollector::look(std::shared_ptr<Gathering> g, size_t index, std::function<void()> then)
{
    // A few canaries tell whether the node gives containers their own devices; a large canary
    // is not exec'd into pod by pod on every evaluation.
    constexpr size_t kLookedInto = 4;
    if (index >= g->pods.size() || index >= kLookedInto)
        return then();
    const json &pod = g->pods[index];
    const std::string name = pod["metadata"].value("name", "");
    // Only a running container can run a command.
    if (pod.value("/status/phase"_json_pointer, std::string()) != "Running")
        return look(g, index + 1, then);
    m_cluster.exec(m_plan.baseline.ns, name, m_plan.node.container, m_plan.node.command,
        m_httpTimeoutMs, this, [this, g, index, then, name](Result<ExecAnswer> ran) {
            ContainerCommand &command = g->commands[name];
            if (!ran)
                command.error = ran.error().message.toStdString();
            else
                command = { std::move(ran->out), std::move(ran->err), ran->exitCode, {} };
            look(g, index + 1, then);
        });
}

void EvidenceCollector::probe(
    std::shared_ptr<Gathering> g, size_t index, std::function<void()> then)
{
    if (index >= g->podObjects.size())
        return then();
    const model::Object &pod = g->podObjects[index];
    // Only Ready pods are probed, as only they get traffic: a pod still starting is the
    // readiness check's business, not a failed probe.
    const auto *podStatus = pod.as<model::Pod>();
    const std::string ip = podIpOf(pod);
    if (ip.empty() || !podStatus || !podStatus->ready())
        return probe(g, index + 1, then);
    const ApplicationGateConfig &app = m_plan.application;
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(common::qs(ip));
    url.setPort(app.probePort);
    url.setPath(common::qs(app.probePath.starts_with('/') ? app.probePath : "/" + app.probePath));
    m_cluster.fetch(url, m_httpTimeoutMs, this,
        [this, g, index, url, then, name = pod.meta.name](Result<HttpAnswer> answer) {
            if (!answer)
                g->probes.push_back(
                    ProbeResult { false, 0, 0, answer.error().message.toStdString() });
            else
                g->probes.push_back(ProbeResult { answer->status >= 200 && answer->status < 300,
                    answer->status, answer->latencyMs,
                    answer->status >= 200 && answer->status < 300
                        ? std::string()
                        : "Pod " + name + ": GET " + url.toString().toStdString() + " answered "
                            + std::to_string(answer->status) });
            probe(g, index + 1, then);
        });
}

void EvidenceCollector::gatherBaselineFacts(std::shared_ptr<Gathering> g)
{
    // Facts for the evidence bundle, not checks: what cannot be read is said, never a failure.
    g->tasks.push_back([this, g](std::function<void()> then) {
        m_cluster.serverVersion(this, [g, then](Result<std::string> version) {
            if (version)
                g->kubernetesVersion = std::move(*version);
            then();
        });
    });
    g->tasks.push_back([this, g](std::function<void()> then) {
        m_cluster.list(Kind::DaemonSet, "", "", this, [g, then](Result<std::vector<json>> got) {
            if (got)
                g->daemonSets = std::move(*got);
            else
                g->daemonSetsError = got.error().message.toStdString();
            then();
        });
    });
    if (m_plan.application.prometheusUrl.empty())
        return;
    g->tasks.push_back([this, g](std::function<void()> then) {
        queryMetrics(m_plan.baseline.deployment, [g, then](std::optional<TrafficMetrics> metrics) {
            g->baselineMetrics = metrics;
            then();
        });
    });
}

void EvidenceCollector::gatherDriverPods(std::shared_ptr<Gathering> g)
{
    g->tasks.push_back([this, g](std::function<void()> then) {
        m_cluster.list(
            Kind::DaemonSet, "", "", this, [this, g, then](Result<std::vector<json>> got) {
                const std::string &named = m_plan.node.driverDaemonSet;
                if (!got) {
                    // Not known is said, never passed: the check is Inconclusive.
                    g->driver = DriverPods { { named.empty() ? "?" : named }, {},
                        "DaemonSets: " + got.error().message.toStdString() };
                    return then();
                }
                DriverPods driver;
                std::vector<std::string> namespaces;
                for (const json &daemonSet : *got) {
                    const std::string ns = daemonSet["metadata"].value("namespace", "");
                    const std::string name = daemonSet["metadata"].value("name", "");
                    const bool wanted = named.empty() ? model::isKubeletPluginName(name)
                                                      : ns + "/" + name == named;
                    if (!wanted)
                        continue;
                    driver.daemonSets.push_back(ns + "/" + name);
                    if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end())
                        namespaces.push_back(ns);
                }
                // A named DaemonSet that does not exist has no pod on any node: the check fails.
                if (driver.daemonSets.empty() && !named.empty())
                    driver.daemonSets.push_back(named);
                if (driver.daemonSets.empty())
                    return then(); // no driver DaemonSet known: not checked
                g->driver = std::move(driver);
                listDriverPods(g, std::move(namespaces), then);
            });
    });
}

void EvidenceCollector::listDriverPods(
    std::shared_ptr<Gathering> g, std::vector<std::string> namespaces, std::function<void()> then)
{
    if (namespaces.empty())
        return then();
    const std::string ns = namespaces.back();
    namespaces.pop_back();
    m_cluster.list(Kind::Pod, ns, "", this,
        [this, g, ns, namespaces = std::move(namespaces), then](Result<std::vector<json>> got) {
            if (!got) {
                g->driver->error = "Pods in " + ns + ": " + got.error().message.toStdString();
                return then();
            }
            for (json &pod : *got)
                g->driverPods.push_back(std::move(pod));
            listDriverPods(g, namespaces, then);
        });
}

void EvidenceCollector::queryMetrics(
    const std::string &deployment, std::function<void(std::optional<TrafficMetrics>)> then)
{
    const ApplicationGateConfig &app = m_plan.application;
    query(app.errorRateQuery, deployment, [this, deployment, then](std::optional<double> rate) {
        query(m_plan.application.latencyQuery, deployment,
            [then, rate](std::optional<double> latency) {
                // No error rate is no data: the latency alone compares nothing.
                then(rate ? std::optional<TrafficMetrics>(
                         TrafficMetrics { *rate, latency.value_or(0) * 1000, 0 })
                          : std::nullopt);
            });
    });
}

void EvidenceCollector::query(const std::string &queryText, const std::string &deployment,
    std::function<void(std::optional<double>)> then)
{
    if (queryText.empty())
        return then(std::nullopt);
    std::string promql = queryText;
    for (size_t at = promql.find("$deployment"); at != std::string::npos;
         at = promql.find("$deployment", at))
        promql.replace(at, 11, deployment), at += deployment.size();
    QUrl url(common::qs(m_plan.application.prometheusUrl));
    url.setPath(url.path() + QStringLiteral("/api/v1/query"));
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("query"), common::qs(promql));
    url.setQuery(query);
    m_cluster.fetch(url, m_httpTimeoutMs, this, [then](Result<HttpAnswer> answer) {
        // No answer is no data: the gate is then Inconclusive, never passed by assumption.
        if (!answer || answer->status != 200)
            return then(std::nullopt);
        Result<std::optional<double>> value = prometheusScalar(answer->body);
        then(value ? *value : std::nullopt);
    });
}

void EvidenceCollector::evaluate(std::shared_ptr<Gathering> g)
{
    Result<StageEvidence> evidence = StageEvidence {};
    try {
        evidence = evaluateGathered(*g);
    } catch (const std::exception &e) {
        // An object of an unexpected shape must not throw into the event loop: no evidence this
        // time.
        evidence = fail(common::Error::Code::Parse,
            QStringLiteral("evidence of rollout %1: %2")
                .arg(common::qs(m_plan.name), QString::fromUtf8(e.what())));
    }
    g->done(std::move(evidence));
}

StageEvidence EvidenceCollector::evaluateGathered(const Gathering &gathered)
{
    const Gathering *g = &gathered;
    const int64_t now = m_clock.nowMs();
    StageEvidence evidence;
    evidence.baselineReplicas = workloadStatusOf(g->baseline).replicas;
    if (!g->baseline)
        evidence.baselineReplicas = 0;
    if (g->stage == Stage::Baseline) {
        BaselineEvidence baseline { g->versions, workloadStatusOf(g->baseline), decodeAll(g->nodes),
            decodeAll(g->slices) };
        baseline.kubernetesVersion = g->kubernetesVersion;
        baseline.daemonSets = decodeAll(g->daemonSets);
        baseline.daemonSetsError = g->daemonSetsError;
        baseline.baselineMetrics = g->baselineMetrics;
        baseline.identityAttribute = m_plan.node.identityAttribute;
        evidence.gates.push_back(baselineGate(baseline, now));
        return evidence;
    }
    std::optional<int> routeBaselineWeight;
    if (g->route)
        routeBaselineWeight = baselineTrafficPercent(m_plan, *g->route);
    if (g->stage == Stage::RollingBack) {
        RollbackEvidence rollback;
        rollback.baseline = workloadStatusOf(g->baseline);
        rollback.canary = workloadStatusOf(g->canary);
        rollback.canaryPods = int(g->pods.size());
        rollback.remainingClaims = variantClaims(m_plan, g->claims,
            // The negative control goes with the template, in the rollback's last step:
            // before that only the canary's claims must be released.
            g->rollbackStep == kRollbackCleanedUp || g->rollbackStep < 0
                ? m_plan.name + "-negative-control"
                : std::string());
        if (m_plan.traffic.mode == TrafficMode::HttpRoute)
            rollback.routeBaselineWeight = routeBaselineWeight.value_or(0);
        rollback.expectedReplicas = g->rollbackReplicas;
        evidence.claimsRemain = !rollback.remainingClaims.empty();
        evidence.gates.push_back(rollbackGate(rollback, now));
        return evidence;
    }

    const std::vector<model::Object> pods = decodeAll(g->pods);
    const std::vector<model::Object> claims = decodeAll(g->claims);
    const std::vector<model::Object> slices = decodeAll(g->slices);
    const std::vector<model::Object> events = decodeAll(g->events);
    std::optional<DriverPods> driver = g->driver;
    if (driver)
        driver->pods = decodeAll(g->driverPods);
    std::vector<GateResult> api, node;
    for (const model::Object &pod : pods) {
        PodEvidence podEvidence { pod, claims, slices, events, std::nullopt };
        if (const auto ran = g->commands.find(pod.meta.name); ran != g->commands.end())
            podEvidence.command = ran->second;
        if (driver) {
            // Only the driver's pods on this pod's node matter to its gate.
            const auto *p = pod.as<model::Pod>();
            DriverPods &own
                = podEvidence.driver.emplace(DriverPods { driver->daemonSets, {}, driver->error });
            for (const model::Object &driverPod : driver->pods)
                if (const auto *d = driverPod.as<model::Pod>();
                    p && d && d->nodeName == p->nodeName)
                    own.pods.push_back(driverPod);
        }
        const GateResult apiResult = apiGate(podEvidence, now);
        if (apiResult.verdict == Verdict::Inconclusive)
            evidence.canaryPending = true;
        api.push_back(apiResult);
        node.push_back(nodeGate(podEvidence, m_plan.node, now));
        const model::Pod *p = pod.as<model::Pod>();
        if (p && p->phase == "Pending")
            evidence.canaryPending = true;
        if (p && p->phase == "Running" && !p->ready())
            evidence.readinessFailed = true;
    }
    if (pods.empty())
        evidence.canaryPending = true;
    evidence.gates.push_back(combinedPodGate(GateKind::Api, api, now));
    evidence.gates.push_back(combinedPodGate(GateKind::Node, node, now));
    evidence.gates.back().pictures = canaryTopologyPictures(pods, slices, claims);
    ApplicationEvidence application { pods, g->probes, g->baselineMetrics, g->canaryMetrics };
    if (m_plan.traffic.mode == TrafficMode::HttpRoute && g->route) {
        const auto [baselineWeight, canaryWeight] = routeWeights(m_plan, *g->route);
        application.canaryTakesTraffic
            = canaryWeight.value_or(0) > 0 || routeMirrorsToCanary(m_plan, *g->route);
        application.baselineTakesTraffic = baselineWeight.value_or(0) > 0;
    }
    evidence.gates.push_back(applicationGate(application, m_plan.application, now));
    if (g->canaryMetrics)
        evidence.canaryErrorRate = g->canaryMetrics->errorRate;
    if (g->stage == Stage::Canary && m_plan.negativeControl.enabled) {
        std::optional<model::Object> claim;
        if (g->negativeControl)
            if (Result<model::Object> decoded = model::decodeObject(*g->negativeControl))
                claim = std::move(*decoded);
        std::optional<alloc::Diagnosis> diagnosis;
        if (claim)
            diagnosis = diagnoseInCluster(*claim,
                { slices, claims, decodeAll(g->deviceClasses), decodeAll(g->nodes) },
                g->kubernetesVersion);
        evidence.gates.push_back(negativeControlGate(
            NegativeControlEvidence { claim, events, diagnosis ? &*diagnosis : nullptr }, now));
    }
    return evidence;
}

} // namespace dra::rollout
