// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/cluster_identity.h"

#include <nlohmann/json.hpp>

#include "core/kube/rest_client.h"

namespace dra::kube {

IdentityVerdict compareIdentity(const ClusterIdentity &recorded, const ClusterIdentity &now)
{
    if (recorded.uid.empty() && recorded.server.empty())
        return IdentityVerdict::Unrecorded;
    if (!recorded.uid.empty() && !now.uid.empty())
        return recorded.uid == now.uid ? IdentityVerdict::Same : IdentityVerdict::Replaced;
    if (recorded.server.empty() || now.server.empty() || recorded.server == now.server)
        return recorded.uid.empty() ? IdentityVerdict::Unrecorded : IdentityVerdict::Same;
    return IdentityVerdict::Replaced;
}

std::string archivedClusterName(const std::string &cluster, const ClusterIdentity &earlier)
{
    return cluster + "@"
        + (earlier.uid.empty() ? std::string("earlier") : earlier.uid.substr(0, 8));
}

void readClusterIdentity(
    RestClient &client, QObject *context, std::function<void(const Result<ClusterIdentity> &)> done)
{
    const std::string server = client.config().server.toString(QUrl::RemoveUserInfo).toStdString();
    RestRequest request;
    request.path = QStringLiteral("/api/v1/namespaces/kube-system");
    request.timeoutMs = 30 * 1000;
    client.send(std::move(request), context,
        [server, done = std::move(done)](const Result<RestResponse> &response) {
            ClusterIdentity identity { {}, server };
            if (!response) {
                // Unreachable: nothing is known. Forbidden, not found or unreadable: the
                // address is all there is.
                if (response.error().code == common::Error::Code::Network
                    || response.error().code == common::Error::Code::Busy)
                    return done(std::unexpected(response.error()));
                return done(identity);
            }
            const nlohmann::json object = nlohmann::json::parse(
                response->body.begin(), response->body.end(), nullptr, false);
            if (object.is_object() && object.contains("metadata")
                && object["metadata"].is_object()) {
                const nlohmann::json &metadata = object["metadata"];
                if (const auto uid = metadata.find("uid");
                    uid != metadata.end() && uid->is_string())
                    identity.uid = uid->get<std::string>();
            }
            done(identity);
        });
}

} // namespace dra::kube
