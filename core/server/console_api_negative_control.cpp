// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_negative_control.h"

#include <string>

#include "core/alloc/negative_control.h"
#include "core/model/manifest_reader.h"

namespace dra::server::console {

Answer negativeControlAnswer(const ConsoleState &state, const QueryParams &query,
    alloc::SimulationClusterCache &clusters, std::string_view body)
{
    if (body.empty())
        return errorAnswer(400,
            "the ResourceClaimTemplate or ResourceClaim to negate is the request's "
            "body (YAML or JSON)");
    const model::ManifestSet manifests
        = model::readManifestText(body, QStringLiteral("the request's body"));
    if (!manifests.problems.empty())
        return errorAnswer(400, manifests.problems.front().message().toStdString());
    if (manifests.documents.size() != 1)
        return errorAnswer(400,
            "the request's body holds " + std::to_string(manifests.documents.size())
                + " objects; give one ResourceClaimTemplate or ResourceClaim");
    // The release of the template check: the one the server reports unless the page asks.
    Result<release::ChosenRelease> chosen = release::chooseRelease(state.kubernetesVersion,
        { query.value("kubernetesVersion").value_or(""),
            query.value("featureGates").value_or("") });
    if (!chosen)
        return errorAnswer(400, chosen.error().message.toStdString());
    Result<alloc::SimulationCluster> cluster = clusters.of(state.snapshot, *chosen);
    if (!cluster)
        return errorAnswer(500, cluster.error().message.toStdString());
    Result<alloc::NegativeControl> control = alloc::negativeControl(
        *cluster->cluster, cluster->release, manifests.documents.front().object);
    if (!control)
        return errorAnswer(400,
            control.error().withContext(manifests.documents.front().origin).message.toStdString());
    return { 200, alloc::negativeControlJson(*control) };
}

} // namespace dra::server::console
