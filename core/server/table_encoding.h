// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/server/object_source.h"

namespace dra::server {

// What a request asked the response to look like, from its Accept header and includeObject.
struct Rendering
{
    bool table = false; // Accept named as=Table;g=meta.k8s.io
    std::string includeObject = "Metadata"; // None | Metadata | Object
};

// The media type of Table responses.
inline constexpr std::string_view kTableContentType
    = "application/json;as=Table;v=v1;g=meta.k8s.io";

// True when an Accept header asks for a meta.k8s.io Table (v1 or v1beta1).
bool acceptsTable(std::string_view accept);

// A meta.k8s.io/v1 Table of `items` with kube-apiserver's columns for `kind` (inventory's
// tableColumns); `withColumns` false leaves columnDefinitions empty (watch events after the first).
nlohmann::json makeTable(const model::KindInfo &kind,
    const std::vector<const ServedObject *> &items, const Rendering &rendering, bool withColumns);

} // namespace dra::server
