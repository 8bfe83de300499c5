// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/migration_rollout.h"

#include "core/common/json_text.h"
#include "core/model/yaml_codec.h"
#include "core/rollout/rollout_plan.h"

namespace dra::rollout {

namespace {

using common::Error;
using common::qs;
using nlohmann::json;

// The Service whose selector picks the workload's pods, and the HTTPRoute sending to it.
struct Routing
{
    std::string service, route;
};

Routing routingOf(const inventory::Snapshot &snapshot, const alloc::LegacyWorkload &workload)
{
    Routing routing;
    const json labels
        = workload.podTemplate.value("metadata", json::object()).value("labels", json::object());
    for (const auto &object : snapshot.objects(model::Kind::Service)) {
        const auto *service = object->as<model::Service>();
        if (object->meta.ns != workload.ns || !service || service->selector.empty())
            continue;
        bool selects = true;
        for (const auto &[key, value] : service->selector)
            selects = selects && labels.value(key, "\x01") == value;
        if (!selects)
            continue;
        routing.service = object->meta.name;
        break;
    }
    if (routing.service.empty())
        return routing;
    for (const auto &object : snapshot.objects(model::Kind::HTTPRoute)) {
        const auto *route = object->as<model::HTTPRoute>();
        if (object->meta.ns != workload.ns || !route)
            continue;
        for (const model::RouteRule &rule : route->rules)
            for (const model::RouteBackend &backend : rule.backends)
                if (backend.name == routing.service
                    && (backend.kind.empty() || backend.kind == "Service") && routing.route.empty())
                    routing.route = object->meta.name;
    }
    return routing;
}

} // namespace

Result<json> migrationRolloutPlan(const inventory::Snapshot &snapshot,
    const alloc::WorkloadMigration &migration, const std::string &name)
{
    const alloc::LegacyWorkload &workload = migration.workload;
    const QString which = qs(workload.kind + " " + workload.ns + "/" + workload.name);
    if (workload.kind != "Deployment")
        return fail(Error::Code::Invalid,
            QStringLiteral("%1: a RolloutPlan moves a Deployment (canary, shadow, cutover "
                           "beside the baseline); migrate this workload with the proposal's "
                           "manifests instead")
                .arg(which));
    const alloc::MigrationProposal *form
        = migration.proposal.form == alloc::MigrationForm::ClaimTemplate
        ? &migration.proposal
        : (migration.claimTemplate ? &*migration.claimTemplate : nullptr);
    if (!form || form->form != alloc::MigrationForm::ClaimTemplate)
        return fail(Error::Code::Invalid,
            QStringLiteral("%1 has no ResourceClaimTemplate form: %2")
                .arg(which, qs(form ? form->reason : migration.proposal.reason)));
    const Routing routing = routingOf(snapshot, workload);
    if (routing.service.empty())
        return fail(Error::Code::Invalid,
            QStringLiteral("%1: no Service in %2 selects its pods, so a rollout has no traffic "
                           "to split between the baseline and the canary")
                .arg(which, qs(workload.ns)));

    json rct;
    for (const json &object : form->objects)
        if (object.value("kind", "") == "ResourceClaimTemplate")
            rct = object;
    const json &change = form->podTemplateChange;
    json containers = json::array();
    for (const json &container : change.value("containers", json::array()))
        containers.push_back(container.value("name", ""));
    json nodeSelector = json::object();
    for (const auto &[key, value] : form->nodeSelector)
        nodeSelector[key] = value;

    json traffic;
    if (!routing.route.empty())
        traffic = { { "mode", "HTTPRoute" },
            { "httpRoute",
                { { "name", routing.route }, { "baselineBackend", routing.service },
                    { "canaryBackend", routing.service + "-dra" } } } };
    else
        traffic = { { "mode", "ReplicaRatio" }, { "service", routing.service } };
    json spec = { { "baseline", { { "namespace", workload.ns }, { "deployment", workload.name } } },
        { "variant",
            { { "name", form->templateName },
                { "resourceClaimTemplate",
                    { { "name", form->templateName }, { "spec", rct.value("spec", json()) } } },
                { "podTemplate",
                    { { "removeResources", change.value("removeResources", json::array()) },
                        { "claimName", form->claimName }, { "containers", containers },
                        { "nodeSelector", nodeSelector } } } } },
        { "traffic", traffic }, { "canary", { { "replicas", 1 } } },
        { "cutover", { { "steps", json::array({ 5, 25, 50, 100 }) } } },
        // Decided before the window, as the migration guides ask: unexplained Pending, the wrong
        // GPU, failing readiness and a claim that does not let go stop the rollout.
        { "stopConditions",
            json::array({ { { "type", "PendingTooLong" }, { "after", "10m" },
                              { "action", "Pause" } },
                { { "type", "WrongDeviceIdentity" }, { "action", "Rollback" } },
                { { "type", "ReadinessFailures" }, { "threshold", 3 }, { "action", "Pause" } },
                { { "type", "ClaimNotReleased" }, { "after", "5m" }, { "action", "Pause" } } }) } };
    if (routing.route.empty())
        spec["shadow"] = { { "enabled", false } };
    const json document = { { "apiVersion", kPlanApiVersion }, { "kind", kPlanKind },
        { "metadata",
            { { "name", name },
                { "description",
                    "Move " + workload.ns + "/" + workload.name
                        + " from the device plugin to DRA (dractl migrate plan)" } } },
        { "spec", std::move(spec) } };

    const PlanParse parsed = parsePlan(model::jsonToYaml(document));
    if (!parsed.plan)
        return fail(Error::Code::Invalid,
            QStringLiteral("the RolloutPlan for %1 does not validate:\n%2")
                .arg(which, parsed.errorText(QStringLiteral("plan"))));
    return planJson(*parsed.plan);
}

} // namespace dra::rollout
