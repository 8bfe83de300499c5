// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/delegated_access.h"

#include <algorithm>
#include <vector>

#include <QCryptographicHash>
#include <QPointer>
#include <QUrlQuery>

#include "core/common/json_text.h"
#include "core/server/kube_status.h"

namespace dra::server {

namespace {

using common::Error;
using Clock = std::chrono::steady_clock;

constexpr const char *kTokenReviews = "/apis/authentication.k8s.io/v1/tokenreviews";
constexpr const char *kSubjectAccessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

std::string tokenKey(const std::string &token)
{
    return QCryptographicHash::hash(QByteArray::fromStdString(token), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

std::string decisionKey(const model::UserIdentity &user, const model::AccessAttributes &a)
{
    std::string key = user.name;
    for (const std::string &group : user.groups)
        key += '\x1f' + group;
    for (const std::string *part :
        { &a.verb, &a.apiGroup, &a.resource, &a.subresource, &a.ns, &a.name, &a.path })
        key += '\x1e' + *part;
    return key + (a.resourceRequest ? "\x1eR" : "\x1eN");
}

kube::RestRequest reviewRequest(const char *path, const nlohmann::json &body)
{
    kube::RestRequest request;
    request.method = "POST";
    request.path = QString::fromLatin1(path);
    request.body = QByteArray::fromStdString(body.dump());
    request.timeoutMs = 10'000;
    return request;
}

Result<nlohmann::json> parseReview(const QByteArray &body, const char *kind)
{
    nlohmann::json document = nlohmann::json::parse(
        body.constData(), body.constData() + body.size(), nullptr, /*allow_exceptions=*/false);
    if (!document.is_object() || !document.contains("status"))
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the cluster's answer to a %1 is not one").arg(QLatin1String(kind)));
    return document;
}

} // namespace

namespace delegation {

nlohmann::json tokenReview(const std::string &token)
{
    return { { "apiVersion", "authentication.k8s.io/v1" }, { "kind", "TokenReview" },
        { "spec", { { "token", token } } } };
}

Result<std::optional<model::UserIdentity>> readTokenReview(const QByteArray &body)
{
    Result<nlohmann::json> review = parseReview(body, "TokenReview");
    if (!review)
        return dra::fail(review.error());
    const nlohmann::json &status = (*review)["status"];
    if (!status.value("authenticated", false))
        return std::optional<model::UserIdentity>();
    const nlohmann::json user = status.value("user", nlohmann::json::object());
    model::UserIdentity identity;
    identity.name = user.value("username", std::string());
    if (identity.name.empty())
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the cluster authenticated a token without naming its user"));
    for (const nlohmann::json &group : user.value("groups", nlohmann::json::array()))
        if (group.is_string())
            identity.groups.push_back(group.get<std::string>());
    return std::optional<model::UserIdentity>(std::move(identity));
}

nlohmann::json subjectAccessReview(
    const model::UserIdentity &user, const model::AccessAttributes &attributes)
{
    nlohmann::json spec = { { "user", user.name }, { "groups", user.groups } };
    if (attributes.resourceRequest) {
        nlohmann::json resource = { { "verb", attributes.verb }, { "group", attributes.apiGroup },
            { "resource", attributes.resource } };
        if (!attributes.subresource.empty())
            resource["subresource"] = attributes.subresource;
        if (!attributes.ns.empty())
            resource["namespace"] = attributes.ns;
        if (!attributes.name.empty())
            resource["name"] = attributes.name;
        spec["resourceAttributes"] = std::move(resource);
    } else {
        spec["nonResourceAttributes"]
            = { { "path", attributes.path }, { "verb", attributes.verb } };
    }
    return { { "apiVersion", "authorization.k8s.io/v1" }, { "kind", "SubjectAccessReview" },
        { "spec", std::move(spec) } };
}

Result<model::AccessDecision> readSubjectAccessReview(const QByteArray &body)
{
    Result<nlohmann::json> review = parseReview(body, "SubjectAccessReview");
    if (!review)
        return dra::fail(review.error());
    const nlohmann::json &status = (*review)["status"];
    model::AccessDecision decision;
    decision.allowed = status.value("allowed", false) && !status.value("denied", false);
    decision.reason = status.value("reason", std::string());
    return decision;
}

} // namespace delegation

DelegatedAccess::DelegatedAccess(
    kube::ClientConfig cluster, kube::RestOptions options, QObject *parent)
    : QObject(parent)
    , m_client(new kube::RestClient(std::move(cluster), options, common::Clock::system(), this))
    , m_restOptions(std::move(options))
{
}

template <typename Value>
const Value *DelegatedAccess::recall(Cache<Value> &cache, const std::string &key)
{
    const auto found = cache.find(key);
    if (found == cache.end())
        return nullptr;
    if (found->second.until <= Clock::now()) {
        cache.erase(found);
        return nullptr;
    }
    return &found->second.value;
}

template <typename Value>
void DelegatedAccess::remember(Cache<Value> &cache, const std::string &key, Value value)
{
    const Clock::time_point now = Clock::now();
    if (cache.size() >= kCacheLimit) {
        std::erase_if(cache, [now](const auto &entry) { return entry.second.until <= now; });
        if (cache.size() >= kCacheLimit) {
            // Everything is fresh: keep the half that lives longest.
            std::vector<Clock::time_point> untils;
            for (const auto &[k, entry] : cache)
                untils.push_back(entry.until);
            std::nth_element(untils.begin(), untils.begin() + untils.size() / 2, untils.end());
            const Clock::time_point median = untils[untils.size() / 2];
            std::erase_if(
                cache, [median](const auto &entry) { return entry.second.until < median; });
        }
    }
    cache.insert_or_assign(key, Remembered<Value> { std::move(value), now + kCacheTtl });
}

void DelegatedAccess::authenticate(const std::string &token, QObject *context, Authenticated done)
{
    const std::string key = tokenKey(token);
    if (const auto *known = recall(m_identities, key)) {
        done(*known);
        return;
    }
    m_client->send(reviewRequest(kTokenReviews, delegation::tokenReview(token)), context,
        [this, key, done = std::move(done)](const Result<kube::RestResponse> &answer) {
            if (!answer) {
                done(dra::fail(answer.error()));
                return;
            }
            Result<std::optional<model::UserIdentity>> user
                = delegation::readTokenReview(answer->body);
            if (user)
                remember(m_identities, key, *user);
            done(user);
        });
}

void DelegatedAccess::authorize(const model::UserIdentity &user,
    const model::AccessAttributes &attributes, QObject *context, Authorized done)
{
    const std::string key = decisionKey(user, attributes);
    if (const auto *known = recall(m_decisions, key)) {
        done(*known);
        return;
    }
    m_client->send(
        reviewRequest(kSubjectAccessReviews, delegation::subjectAccessReview(user, attributes)),
        context, [this, key, done = std::move(done)](const Result<kube::RestResponse> &answer) {
            if (!answer) {
                done(dra::fail(answer.error()));
                return;
            }
            Result<model::AccessDecision> decision
                = delegation::readSubjectAccessReview(answer->body);
            if (decision)
                remember(m_decisions, key, *decision);
            done(decision);
        });
}

void DelegatedAccess::forward(
    const Request &request, const std::string &token, QObject *context, Forwarded done)
{
    kube::RestRequest outgoing;
    outgoing.method = QByteArray::fromStdString(request.method);
    outgoing.path = QString::fromStdString(request.path);
    if (const std::size_t mark = request.target.find('?'); mark != std::string::npos)
        outgoing.query = QUrlQuery(QString::fromStdString(request.target.substr(mark + 1)));
    outgoing.body = request.body;
    if (const std::string type = request.header("content-type"); !type.empty())
        outgoing.contentType = QByteArray::fromStdString(type);
    if (const std::string accept = request.header("accept"); !accept.empty())
        outgoing.accept = QByteArray::fromStdString(accept);
    m_client->sendAs(std::move(outgoing), "Bearer " + QByteArray::fromStdString(token), context,
        [done = std::move(done)](const Result<kube::RawResponse> &answer) {
            if (!answer) {
                done(status::serviceUnavailable(answer.error().message.toStdString()));
                return;
            }
            Response response;
            response.status = answer->status;
            response.contentType = answer->contentType.isEmpty()
                ? std::string("application/json")
                : answer->contentType.toStdString();
            response.body = answer->body;
            done(response);
        });
}

void DelegatedAccess::selfRules(const std::string &token, std::vector<std::string> namespaces,
    QObject *context, std::function<void(const Result<kube::SelfRulesAnswer> &)> done)
{
    std::string key = tokenKey(token);
    for (const std::string &ns : namespaces)
        key += '\x1e' + ns;
    if (const kube::SelfRulesAnswer *known = recall(m_selfRules, key))
        return done(*known);
    // The caller's own credentials and nothing of the mirror's: its address and CA only.
    kube::ClientConfig own = m_client->config();
    own.dropCredentials();
    own.impersonateUser.clear();
    own.impersonateUid.clear();
    own.impersonateGroups.clear();
    own.impersonateExtra.clear();
    own.token = QString::fromStdString(token);
    auto *client
        = new kube::RestClient(std::move(own), m_restOptions, common::Clock::system(), this);
    QPointer<QObject> asker(context);
    kube::requestSelfRules(*client, std::move(namespaces), client,
        [this, client, asker, key, done = std::move(done)](Result<kube::SelfRulesAnswer> answer) {
            client->deleteLater();
            if (answer)
                remember(m_selfRules, key, *answer);
            if (asker)
                done(answer);
        });
}

void DelegatedAccess::probe(QObject *context, std::function<void(const Result<void> &)> done)
{
    // A review of a token nobody holds: a cluster that lets us review answers "not
    // authenticated"; one that does not answers 403.
    m_client->send(reviewRequest(kTokenReviews, delegation::tokenReview("draconsole-probe")),
        context, [this, context, done = std::move(done)](const Result<kube::RestResponse> &answer) {
            if (!answer) {
                done(dra::fail(answer.error().code,
                    QStringLiteral("the cluster does not review tokens for this mirror, so it "
                                   "cannot tell who its users are: %1")
                        .arg(answer.error().message)));
                return;
            }
            const model::UserIdentity nobody { "system:anonymous", { "system:unauthenticated" } };
            model::AccessAttributes healthz;
            healthz.resourceRequest = false;
            healthz.verb = "get";
            healthz.path = "/healthz";
            m_client->send(reviewRequest(kSubjectAccessReviews,
                               delegation::subjectAccessReview(nobody, healthz)),
                context, [done](const Result<kube::RestResponse> &review) {
                    if (!review) {
                        done(dra::fail(review.error().code,
                            QStringLiteral("the cluster does not review access for this mirror, "
                                           "so it cannot tell what its users may read: %1")
                                .arg(review.error().message)));
                        return;
                    }
                    done({});
                });
        });
}

} // namespace dra::server
