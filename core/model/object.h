// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "core/common/object_key.h"
#include "core/common/result.h"
#include "core/model/core_types.h"
#include "core/model/kind.h"
#include "core/model/object_meta.h"
#include "core/model/raw_json.h"
#include "core/model/resource_types.h"
#include "core/model/workload_types.h"

namespace dra::model {

using ObjectBody = std::variant<std::monostate, DeviceClass, ResourceSlice, ResourceClaim,
    ResourceClaimTemplate, DeviceTaintRule, Node, Pod, Namespace, Event, Deployment, ReplicaSet,
    DaemonSet, Service, HTTPRoute>;

// One Kubernetes object: typed fields in v1 shape plus the JSON exactly as received, so
// nothing the server sent is lost on the way back out. Immutable once decoded; cheap to copy
// (the raw JSON is shared).
struct Object
{
    Kind kind = Kind::Unknown;
    std::string apiVersion; // as received
    ObjectMeta meta;
    ObjectBody body;
    RawJson raw;

    template <typename T> const T *as() const { return std::get_if<T>(&body); }

    common::ObjectKey key() const;
    const KindInfo &info() const { return kindInfo(kind); }
    // "ResourceSlice node-1-gpu" / "ResourceClaim ml/train-0", for messages.
    std::string display() const { return key().display(); }
};

// Decodes an object of any served version (resource.k8s.io v1, v1beta2, v1beta1, v1alpha3,
// core v1). Errors name the object and the field: "ResourceSlice s1:
// spec.devices[2].capacity.memory.value: invalid quantity \"12QB\"".
[[nodiscard]] Result<Object> decodeObject(const nlohmann::json &json);
[[nodiscard]] Result<Object> decodeObject(nlohmann::json &&json);

// The object as JSON in `apiVersion` (empty: as received). Converting loses nothing where
// Kubernetes' conversion loses nothing; a field the target version cannot express is an error
// naming it.
[[nodiscard]] Result<nlohmann::json> encodeObject(
    const Object &object, std::string_view apiVersion = {});

} // namespace dra::model
