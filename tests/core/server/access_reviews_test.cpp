// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// SelfSubjectAccessReview / SelfSubjectRulesReview against a writable and a read-only server,
// read the way the rollout controller's client (core/kube/access_review) reads them.
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/kube/access_review.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "tests/support/api_test_support.h"

namespace dra::server {
namespace {

using nlohmann::json;
using test::exchange;
using test::httpRequest;

constexpr const char *kReviewToken = "review-token";

class AccessReviewsTest : public testing::TestWithParam<bool>
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        const QString path = m_dir.filePath(QStringLiteral("cache.db"));
        Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
        ASSERT_TRUE(writer) << writer.error().message.toStdString();
        m_writer = std::make_unique<store::CacheDb>(std::move(*writer));
        ASSERT_TRUE(m_writer->setClusterInfo({ "demo", "", "v1.36.0", 0 }));
        ApiServerOptions options;
        options.cluster = "demo";
        options.token = kReviewToken;
        options.writer = writable() ? m_writer.get() : nullptr;
        m_api = std::make_unique<ApiServer>(*m_writer, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0));
    }

    bool writable() const { return GetParam(); }

    test::Reply post(const std::string &path, const json &body)
    {
        return exchange(m_http->port(), httpRequest("POST", path, kReviewToken, body.dump()));
    }

    bool allowed(const std::string &verb)
    {
        const test::Reply reply = post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            { { "apiVersion", "authorization.k8s.io/v1" }, { "kind", "SelfSubjectAccessReview" },
                { "spec",
                    { { "resourceAttributes",
                        { { "verb", verb }, { "group", "apps" }, { "resource", "deployments" },
                            { "namespace", "inference" } } } } } });
        EXPECT_EQ(reply.status, 201) << reply.text;
        EXPECT_EQ(reply.body["kind"], "SelfSubjectAccessReview");
        return reply.body["status"].value("allowed", false);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
};

TEST_P(AccessReviewsTest, EveryVerbWhenWritableOnlyReadsWhenReadOnly)
{
    EXPECT_TRUE(allowed("get"));
    EXPECT_TRUE(allowed("watch"));
    EXPECT_EQ(allowed("patch"), writable());
    EXPECT_EQ(allowed("delete"), writable());
}

TEST_P(AccessReviewsTest, RulesReviewListsWhatTheClientChecks)
{
    const test::Reply reply = post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
        { { "apiVersion", "authorization.k8s.io/v1" }, { "kind", "SelfSubjectRulesReview" },
            { "spec", { { "namespace", "inference" } } } });
    ASSERT_EQ(reply.status, 201) << reply.text;
    std::vector<kube::ResourceRule> rules;
    for (const json &rule : reply.body["status"]["resourceRules"]) {
        kube::ResourceRule parsed;
        for (const json &verb : rule["verbs"])
            parsed.verbs << QString::fromStdString(verb.get<std::string>());
        for (const json &group : rule["apiGroups"])
            parsed.apiGroups << QString::fromStdString(group.get<std::string>());
        for (const json &resource : rule["resources"])
            parsed.resources << QString::fromStdString(resource.get<std::string>());
        rules.push_back(parsed);
    }
    EXPECT_TRUE(kube::rulesAllow(rules, "apps", "deployments", { QStringLiteral("list") }));
    EXPECT_EQ(
        kube::rulesAllow(rules, "apps", "deployments", { QStringLiteral("patch") }), writable());
}

TEST_P(AccessReviewsTest, DiscoveryListsTheReviewsAndTheyNeedTheToken)
{
    const test::Reply group = exchange(
        m_http->port(), httpRequest("GET", "/apis/authorization.k8s.io/v1", kReviewToken));
    ASSERT_EQ(group.status, 200) << group.text;
    // SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview.
    EXPECT_EQ(group.body["resources"].size(), 3u);
    const test::Reply anonymous = exchange(m_http->port(),
        httpRequest("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "", "{}"));
    EXPECT_EQ(anonymous.status, 401);
}

INSTANTIATE_TEST_SUITE_P(ServerModes, AccessReviewsTest, testing::Values(true, false),
    [](const testing::TestParamInfo<bool> &info) { return info.param ? "Writable" : "ReadOnly"; });

} // namespace
} // namespace dra::server
