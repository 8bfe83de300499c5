// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string_view>

#include <QByteArrayView>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::server {

// kubectl sends core objects through its typed clients in Kubernetes' protobuf encoding
// (`kubectl create namespace`, `kubectl delete namespace`), whatever the server prefers.
inline constexpr std::string_view kProtobufType = "application/vnd.kubernetes.protobuf";

// The JSON of a protobuf-encoded request body (the "k8s\0" envelope around a runtime.Unknown)
// for the kinds a client sends us that way: Namespace (metadata, spec.finalizers),
// DeleteOptions and the access reviews of `kubectl auth can-i`. Other kinds are Unsupported
// (415), a malformed body Parse (400). Pure.
[[nodiscard]] Result<nlohmann::json> decodeProtobufBody(QByteArrayView body);

} // namespace dra::server
