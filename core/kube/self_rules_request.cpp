// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/self_rules_request.h"

#include <memory>

namespace dra::kube {

using nlohmann::json;

namespace {

struct SelfRulesQuestion
{
    RestClient *client = nullptr;
    QObject *context = nullptr;
    std::vector<std::string> namespaces;
    size_t next = 0;
    SelfRulesAnswer answer;
    std::function<void(Result<SelfRulesAnswer>)> done;
};

RestRequest reviewRequest(const char *path, const json &body)
{
    RestRequest request;
    request.method = "POST";
    request.path = QString::fromLatin1(path);
    request.body = QByteArray::fromStdString(body.dump());
    return request;
}

void askNext(const std::shared_ptr<SelfRulesQuestion> &a)
{
    if (a->next == a->namespaces.size())
        return a->done(std::move(a->answer));
    const std::string ns = a->namespaces[a->next++];
    reviewRules(
        *a->client, ns, a->context, [a, ns](const Result<std::vector<ResourceRule>> &rules) {
            if (!rules)
                return a->done(dra::fail(rules.error()));
            std::vector<model::PolicyRule> &own = a->answer.rulesByNamespace[ns];
            const auto strings = [](const QStringList &list) {
                std::vector<std::string> out;
                for (const QString &item : list)
                    out.push_back(item.toStdString());
                return out;
            };
            for (const ResourceRule &rule : *rules)
                own.push_back({ strings(rule.verbs), strings(rule.apiGroups),
                    strings(rule.resources), strings(rule.resourceNames), {} });
            askNext(a);
        });
}

} // namespace

void requestSelfRules(RestClient &client, std::vector<std::string> namespaces, QObject *context,
    std::function<void(Result<SelfRulesAnswer>)> done)
{
    auto a = std::make_shared<SelfRulesQuestion>();
    a->client = &client;
    a->context = context;
    a->namespaces = std::move(namespaces);
    a->done = std::move(done);
    client.send(
        reviewRequest("/apis/authentication.k8s.io/v1/selfsubjectreviews",
            { { "apiVersion", "authentication.k8s.io/v1" }, { "kind", "SelfSubjectReview" } }),
        context, [a](const Result<RestResponse> &got) {
            if (!got)
                return a->done(dra::fail(got.error()));
            const json review = json::parse(got->body.constData(), nullptr, false);
            if (review.is_object())
                a->answer.username = review.value("status", json::object())
                                         .value("userInfo", json::object())
                                         .value("username", std::string());
            if (a->answer.username.empty())
                return a->done(dra::fail(common::Error::Code::Parse,
                    QStringLiteral("the cluster's SelfSubjectReview names no user")));
            askNext(a);
        });
}

} // namespace dra::kube
