// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/template_check.h"

namespace dra::alloc {

using nlohmann::json;

json toJson(const TemplateCheck &check)
{
    json out = json::object();
    if (!check.error.empty()) {
        out["error"] = check.error;
        return out;
    }
    out["kind"] = check.kind;
    out["namespace"] = check.ns;
    out["name"] = check.name;
    json requests = json::array();
    for (const TemplateCheck::Request &request : check.requests)
        requests.push_back({ { "name", request.name }, { "deviceClass", request.deviceClass },
            { "classExists", request.classExists }, { "devicesOfClass", request.ofClass },
            { "matching", request.matching }, { "nodes", request.nodes },
            { "selectorErrors", request.selectorErrors } });
    out["requests"] = std::move(requests);
    out["overQuota"] = check.overQuota;
    if (!check.release.empty()) {
        out["kubernetesVersion"] = "1." + std::to_string(check.kubernetesMinor);
        out["release"] = check.release;
    }
    if (check.simulated) {
        json allocation = { { "copiesThatFit", check.copiesThatFit },
            { "nodesWhereOneFits", check.nodesWhereOneFits },
            { "explanation", check.explanation } };
        if (check.capped)
            allocation["capped"] = true;
        if (!check.firstPlacementNode.empty())
            allocation["firstNode"] = check.firstPlacementNode;
        if (!check.blocked.empty())
            allocation[check.copiesThatFit == 0 ? "reason" : "nextCopy"] = check.blocked;
        out["allocation"] = std::move(allocation);
    }
    out["findings"] = check.findings();
    return out;
}

} // namespace dra::alloc
