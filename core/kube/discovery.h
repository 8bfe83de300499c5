// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <string>

#include <QObject>
#include <QString>
#include <QStringList>

#include "core/common/result.h"
#include "core/model/kind.h"

namespace dra::kube {

class RestClient;

// What a cluster serves, as far as the mirror cares.
struct ApiDiscovery
{
    QString gitVersion; // /version: "v1.34.2"
    QStringList resourceVersions; // served resource.k8s.io versions, newest first
    // The apiVersion each mirrored kind is read in ("resource.k8s.io/v1beta2", "v1"); a kind the
    // cluster does not serve is absent.
    std::map<model::Kind, std::string> apiVersions;

    // The apiVersion of `kind`, or "" when the cluster does not serve it.
    std::string apiVersionOf(model::Kind kind) const;
    // The collection path of `kind` in namespace `ns` ("" for every namespace or a
    // cluster-scoped kind): "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims".
    QString collectionPath(const model::KindInfo &kind, const std::string &ns) const;
};

// resource.k8s.io versions the mirror can read, newest first. v1alpha3 only ever for
// DeviceTaintRule, which stayed alpha longest.
const QStringList &knownResourceVersions();

// Asks the server for /version and the resource.k8s.io group (legacy discovery, which every
// server and our own mirror serve), then each served version's resources. `done` is not called
// once `context` is gone. Thread of the client.
void discover(
    RestClient &client, QObject *context, std::function<void(const Result<ApiDiscovery> &)> done);

} // namespace dra::kube
