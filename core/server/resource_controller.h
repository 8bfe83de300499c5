// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>

#include "core/common/result.h"
#include "core/server/http_message.h"
#include "core/server/object_source.h"
#include "core/server/selectors.h"
#include "core/server/table_encoding.h"

namespace dra::server {

// The query parameters of a list or watch, validated.
struct ListOptions
{
    LabelSelector labels;
    FieldSelector fields;
    Rendering rendering;
    int64_t limit = 0; // 0: no paging
    std::string continueToken; // as sent (opaque)
};

// Parses labelSelector, fieldSelector, limit, continue, includeObject and the Accept header;
// errors are Invalid with a message fit for a 400 Status.
[[nodiscard]] Result<ListOptions> parseListOptions(const Request &request);

// Read-only list and get of one kind over an ObjectSource: JSON lists and objects, Tables,
// limit/continue paging and selectors. Thread of its ObjectSource.
class ResourceController final
{
public:
    explicit ResourceController(ObjectSource &source);

    // GET of a collection; `ns` empty for cluster-scoped kinds and all-namespaces lists.
    Response list(const Request &request, const model::KindInfo &kind, const std::string &ns);
    // GET of one object; 404 NotFound worded as kube-apiserver words it.
    Response get(const Request &request, const model::KindInfo &kind, const std::string &ns,
        const std::string &name);

private:
    ObjectSource &m_source;
};

} // namespace dra::server
