// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <QString>

#include "core/model/kind.h"

namespace dra::kube {

// The REST path of `kind` served as `apiVersion` ("v1" is the core group, else "group/version"):
// the collection in namespace `ns` ("" for every namespace or a cluster-scoped kind), or the
// object `name` in it: "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/train-0".
QString resourcePath(std::string_view apiVersion, const model::KindInfo &kind,
    const std::string &ns, const std::string &name = {});

} // namespace dra::kube
