// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
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

// A continue token names the revision the first page was read at and the last key served.
// It is base64url of JSON so clients treat it as opaque and we can extend it.
struct ContinueToken
{
    int64_t rev = 0;
    std::string ns, name;
    int64_t epoch = 0; // the server's token epoch; an older one is expired
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

    // Forgets what was kept of earlier revisions, for when the cache's revisions are issued
    // again (a restore): every continue token expires and encodings are made afresh.
    void rewound()
    {
        expireContinueTokens();
        m_source.forgetEncoded();
    }

private:
    // The 410 Expired for a continue token of a list the remainder of which is no longer the
    // snapshot it promised; nothing when the token is still good.
    std::optional<Response> refuseStaleContinue(
        const model::KindInfo &kind, const ContinueToken &resume, int64_t listRev);
    // The objects a continue token's list was read from, when they are still kept and the
    // token is still good.
    std::optional<EncodedObjects::Listing> keptPage(const model::KindInfo &kind,
        const std::string &ns, const std::string &apiVersion, const ContinueToken &resume);

    ObjectSource &m_source;
    int64_t m_tokenEpoch = 0;
    int64_t m_compactedRev = 0;
};

} // namespace dra::server
