// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <algorithm>
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
    // Objects are served in `apiVersion`.
    Response list(const Request &request, const model::KindInfo &kind, const std::string &ns,
        const std::string &apiVersion);
    // GET of one object; 404 NotFound worded as kube-apiserver words it.
    Response get(const Request &request, const model::KindInfo &kind, const std::string &ns,
        const std::string &name, const std::string &apiVersion);

    // Makes every continue token handed out so far expired (410), as after etcd compaction.
    void expireContinueTokens() { ++m_tokenEpoch; }
    // Continue tokens of lists read before `rev` are expired from now on.
    void compactTo(int64_t rev) { m_compactedRev = std::max(m_compactedRev, rev); }

private:
    ObjectSource &m_source;
    int64_t m_tokenEpoch = 0;
    int64_t m_compactedRev = 0;
};

} // namespace dra::server
