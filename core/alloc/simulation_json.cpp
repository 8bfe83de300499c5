// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/simulation_json.h"

#include <algorithm>

namespace dra::alloc {

namespace {

using nlohmann::json;

std::string int128Text(Nano value)
{
    if (value == 0)
        return "0";
    const bool negative = value < 0;
    std::string digits;
    while (value != 0) {
        const int digit = int(value % 10);
        digits.push_back(char('0' + (negative ? -digit : digit)));
        value /= 10;
    }
    if (negative)
        digits.push_back('-');
    std::reverse(digits.begin(), digits.end());
    return digits;
}

} // namespace

std::string formatQuantity(Nano amount, model::Quantity::Format format)
{
    constexpr Nano kNano = 1'000'000'000;
    std::string text;
    if (amount % kNano == 0) {
        Nano whole = amount / kNano;
        text = int128Text(whole);
        if (format == model::Quantity::Format::BinarySI && whole != 0) {
            static const char *suffixes[] = { "Ei", "Pi", "Ti", "Gi", "Mi", "Ki" };
            for (int i = 0; i < 6; ++i) {
                const int shift = 60 - 10 * i;
                const Nano unit = Nano(1) << shift;
                if (whole % unit == 0) {
                    text = int128Text(whole / unit) + suffixes[i];
                    break;
                }
            }
        }
    } else {
        text = int128Text(amount) + "n";
    }
    Result<model::Quantity> q = model::Quantity::parse(text);
    return q ? q->toString() : text;
}

json deviceResultJson(const Cluster &cluster, const DeviceResult &result)
{
    json out = { { "request", result.request }, { "driver", result.driver },
        { "pool", result.pool }, { "device", result.name }, { "adminAccess", result.adminAccess } };
    if (!result.shareID.empty()) {
        out["shareID"] = result.shareID;
        json consumed = json::object();
        const model::Device &device = *cluster.devices()[size_t(result.device)].spec;
        for (const auto &[name, amount] : result.consumedCapacity) {
            const model::DeviceCapacity *capacity = device.capacityOf(name);
            consumed[name] = formatQuantity(
                amount, capacity ? capacity->value.format() : model::Quantity::Format::DecimalSI);
        }
        if (!consumed.empty())
            out["consumedCapacity"] = consumed;
    }
    if (!result.tolerations.is_null())
        out["tolerations"] = result.tolerations;
    if (!result.bindingConditions.empty())
        out["bindingConditions"] = result.bindingConditions;
    if (!result.bindingFailureConditions.empty())
        out["bindingFailureConditions"] = result.bindingFailureConditions;
    return out;
}

json claimResultJson(const Cluster &cluster, const ClaimToAllocate &claim,
    const ClaimResult &result, const std::string &node)
{
    json results = json::array();
    for (const DeviceResult &device : result.devices)
        results.push_back(deviceResultJson(cluster, device));
    json out = { { "name", claim.name }, { "node", node }, { "results", results } };
    if (!claim.ns.empty())
        out["namespace"] = claim.ns;
    out["nodeSelector"] = result.nodeSelector;
    return out;
}

json explanationJson(const NodeExplanation &e)
{
    json out = { { "node", e.node }, { "failedAt", funnelStepName(e.failedAt) },
        { "reason", e.reason } };
    if (!e.claim.empty())
        out["claim"] = e.claim;
    if (!e.request.empty()) {
        out["request"] = e.request;
        out["devices"] = { { "visible", e.visible }, { "ofClass", e.ofClass },
            { "matchingSelectors", e.matching }, { "free", e.free }, { "needed", e.needed } };
        json blocked = json::object();
        if (e.allocated)
            blocked["allocated"] = e.allocated;
        if (e.tainted)
            blocked["tainted"] = e.tainted;
        if (e.noCounters)
            blocked["noCounters"] = e.noCounters;
        if (e.noCapacity)
            blocked["noCapacity"] = e.noCapacity;
        if (!blocked.empty())
            out["notFree"] = blocked;
        if (!e.holders.empty())
            out["heldBy"] = e.holders;
    }
    if (!e.clauses.empty()) {
        json clauses = json::array();
        for (const ClauseBlame &c : e.clauses)
            clauses.push_back(
                { { "from", c.source }, { "clause", c.clause }, { "eliminated", c.eliminated } });
        out["eliminatedBy"] = clauses;
    }
    return out;
}

} // namespace dra::alloc
