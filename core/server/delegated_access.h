// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <QObject>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/kube/rest_client.h"
#include "core/kube/self_rules_request.h"
#include "core/model/rbac_policy.h"
#include "core/server/http_message.h"

namespace dra::server {

// Who a caller is and what they may do, asked of the cluster a live mirror follows, as an
// aggregated API server delegates both: the caller's bearer token is reviewed with a
// TokenReview, each read with a SubjectAccessReview for that user, and writes go to the cluster
// with the caller's own token so that its RBAC and admission decide. Answers are kept for
// kCacheTtl (kube-apiserver's delegating defaults); tokens are kept only as hashes and never
// logged. Thread of its parent (the server's).
class DelegatedAccess final : public QObject
{
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kCacheTtl { 10'000 };
    // A bound on each cache: past it, expired answers are dropped, then the oldest half.
    static constexpr std::size_t kCacheLimit = 4096;

    // `cluster` reaches the cluster as the mirror does (its service account): it makes the
    // reviews. Passed-through writes use only its address and CA.
    explicit DelegatedAccess(
        kube::ClientConfig cluster, kube::RestOptions options = {}, QObject *parent = nullptr);

    using Authenticated = std::function<void(const Result<std::optional<model::UserIdentity>> &)>;
    using Authorized = std::function<void(const Result<model::AccessDecision> &)>;
    using Forwarded = std::function<void(const Response &)>;

    // Who `token` is (nullopt: the cluster does not know it). `done` is not called once
    // `context` is gone.
    void authenticate(const std::string &token, QObject *context, Authenticated done);
    // Whether `user` may do what `attributes` describe.
    void authorize(const model::UserIdentity &user, const model::AccessAttributes &attributes,
        QObject *context, Authorized done);
    // Sends `request` to the cluster with `token` as its bearer token and answers with whatever
    // the cluster answered (a 503 Status when it could not be reached).
    void forward(
        const Request &request, const std::string &token, QObject *context, Forwarded done);
    // What the caller may do in each of `namespaces`, as the cluster answers their own
    // SelfSubjectReview and SelfSubjectRulesReviews asked with `token` (nobody may ask another
    // user's rules): the Access view's answer when the caller may not read the roles.
    void selfRules(const std::string &token, std::vector<std::string> namespaces, QObject *context,
        std::function<void(const Result<kube::SelfRulesAnswer> &)> done);
    // Whether the cluster lets the mirror make the reviews this needs: an error naming the
    // refusal (the mirror's ClusterRole lacks tokenreviews or subjectaccessreviews create).
    void probe(QObject *context, std::function<void(const Result<void> &)> done);

    const kube::ClientConfig &cluster() const { return m_client->config(); }

private:
    template <typename Value> struct Remembered
    {
        Value value;
        std::chrono::steady_clock::time_point until;
    };
    template <typename Value> using Cache = std::map<std::string, Remembered<Value>>;
    template <typename Value>
    static const Value *recall(Cache<Value> &cache, const std::string &key);
    template <typename Value>
    static void remember(Cache<Value> &cache, const std::string &key, Value value);

    kube::RestClient *m_client;
    kube::RestOptions m_restOptions;
    Cache<std::optional<model::UserIdentity>> m_identities; // by the token's SHA-256
    Cache<kube::SelfRulesAnswer> m_selfRules; // by the token's SHA-256 and the namespaces
    Cache<model::AccessDecision> m_decisions; // by user, groups and attributes
};

// The JSON bodies of the reviews, and what their answers say (also for tests).
namespace delegation {
nlohmann::json tokenReview(const std::string &token);
Result<std::optional<model::UserIdentity>> readTokenReview(const QByteArray &body);
nlohmann::json subjectAccessReview(
    const model::UserIdentity &user, const model::AccessAttributes &attributes);
Result<model::AccessDecision> readSubjectAccessReview(const QByteArray &body);
} // namespace delegation

} // namespace dra::server
