// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <string>

#include <QObject>
#include <QString>

#include "core/common/result.h"

namespace dra::kube {

class RestClient;

// Which cluster a context reaches: the UID of its kube-system namespace (what tools commonly
// take for a cluster's identity: it is made once, when the cluster is created, and survives
// upgrades and etcd restores) and the API server's address. Either may be empty when unknown.
struct ClusterIdentity
{
    std::string uid;
    std::string server;

    bool operator==(const ClusterIdentity &) const = default;
};

// How the cluster a context reaches now compares with the one the cache recorded for it.
enum class IdentityVerdict {
    Unrecorded, // the cache holds no identity for it yet: this one is recorded
    Same, // the same cluster (or nothing says otherwise)
    Replaced, // another cluster: its cached objects are replaced, its history kept apart
};

// Compares by UID when both are known; when either is not, a different server address is taken
// for another cluster (listing afresh costs a list; missing changes would cost the truth).
IdentityVerdict compareIdentity(const ClusterIdentity &recorded, const ClusterIdentity &now);

// The name the earlier cluster's change log is kept under when `cluster` reaches another one:
// "demo@1b4e28ba" (the first eight characters of its UID), "demo@earlier" when it had none.
std::string archivedClusterName(const std::string &cluster, const ClusterIdentity &earlier);

// Reads the identity of the cluster `client` reaches: GET /api/v1/namespaces/kube-system. A
// user who may not read that namespace gets an identity with the server address only; only a
// failure to reach the server at all is an error. Thread of `client`.
void readClusterIdentity(RestClient &client, QObject *context,
    std::function<void(const Result<ClusterIdentity> &)> done);

} // namespace dra::kube
