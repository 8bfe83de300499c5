// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A server with RBAC answers each user as kube-apiserver would: requests the cluster's Roles and
// bindings allow go through, the others get kube-apiserver's 403, and the review kinds report
// the same decisions. The roles are read from the cache as it is at each request.
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/object_writer.h"
#include "core/server/request_attributes.h"
#include "tests/support/api_test_support.h"

namespace dra::server {
namespace {

using nlohmann::json;
using test::exchange;
using test::httpRequest;

constexpr const char *kAdminToken = "admin-token";
constexpr const char *kTeamToken = "team-token";
constexpr const char *kViewerToken = "viewer-token";

json meta(const std::string &name, const std::string &ns = {})
{
    json metadata = { { "name", name }, { "uid", "uid-" + ns + "-" + name },
        { "creationTimestamp", "2026-01-01T00:00:00Z" } };
    if (!ns.empty())
        metadata["namespace"] = ns;
    return metadata;
}

json clusterRole(const std::string &name, json rules)
{
    return { { "apiVersion", "rbac.authorization.k8s.io/v1" }, { "kind", "ClusterRole" },
        { "metadata", meta(name) }, { "rules", std::move(rules) } };
}

json bindingTo(const std::string &kind, const std::string &name, const std::string &ns,
    const std::string &role, const std::string &group)
{
    return { { "apiVersion", "rbac.authorization.k8s.io/v1" }, { "kind", kind },
        { "metadata", meta(name, ns) },
        { "roleRef",
            { { "apiGroup", "rbac.authorization.k8s.io" }, { "kind", "ClusterRole" },
                { "name", role } } },
        { "subjects",
            json::array({ { { "kind", "Group" }, { "apiGroup", "rbac.authorization.k8s.io" },
                { "name", group } } }) } };
}

json claim(const std::string &name, const std::string &ns)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", meta(name, ns) },
        { "spec",
            { { "devices",
                { { "requests",
                    json::array({ { { "name", "gpu" },
                        { "exactly", { { "deviceClassName", "gpu.nvidia.com" } } } } }) } } } } } };
}

class RbacAuthorizationTest : public testing::Test
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
        m_objects = std::make_unique<ObjectWriter>(*m_writer, "demo");
        const json read = json::array({ "get", "list", "watch" });
        ASSERT_TRUE(m_objects->commit({
            { model::ChangeType::Added,
                { { "apiVersion", "v1" }, { "kind", "Namespace" },
                    { "metadata", meta("training") } } },
            { model::ChangeType::Added,
                { { "apiVersion", "v1" }, { "kind", "Namespace" },
                    { "metadata", meta("inference") } } },
            { model::ChangeType::Added, claim("train-0", "training") },
            { model::ChangeType::Added, claim("serve-0", "inference") },
            { model::ChangeType::Added,
                clusterRole("discovery",
                    json::array({ { { "verbs", { "get" } },
                        { "nonResourceURLs", { "/api", "/api/*", "/apis", "/apis/*" } } } })) },
            { model::ChangeType::Added,
                bindingTo(
                    "ClusterRoleBinding", "discovery", "", "discovery", "system:authenticated") },
            { model::ChangeType::Added,
                clusterRole("claim-author",
                    json::array({ { { "verbs", { "get", "list", "watch", "create" } },
                        { "apiGroups", { "resource.k8s.io" } },
                        { "resources", { "resourceclaims" } } } })) },
            { model::ChangeType::Added,
                bindingTo("RoleBinding", "team-claims", "training", "claim-author", "team") },
            { model::ChangeType::Added,
                clusterRole("viewer",
                    json::array({ { { "verbs", read }, { "apiGroups", { "*" } },
                        { "resources", { "*" } } } })) },
            { model::ChangeType::Added,
                bindingTo("ClusterRoleBinding", "viewers", "", "viewer", "viewers") },
        }));
        auto users = std::make_shared<UserTokens>();
        users->add(kTeamToken, { "team-member", { "team", "system:authenticated" } });
        users->add(kViewerToken, { "viewer", { "viewers", "system:authenticated" } });
        ApiServerOptions options;
        options.cluster = "demo";
        options.token = kAdminToken;
        options.writer = m_writer.get();
        options.users = users;
        options.rbac = true;
        m_api = std::make_unique<ApiServer>(*m_writer, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0));
    }

    test::Reply send(const std::string &method, const std::string &target, const std::string &token,
        const json &body = nullptr)
    {
        return exchange(m_http->port(),
            httpRequest(method, target, token, body.is_null() ? std::string() : body.dump()));
    }

    // Whether a SubjectAccessReview (asked by the admin) allows `user` in `groups` to `verb`
    // resourceclaims in `ns`.
    json subjectReview(
        const std::string &user, const json &groups, const std::string &verb, const std::string &ns)
    {
        const test::Reply reply = send("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews",
            kAdminToken,
            { { "apiVersion", "authorization.k8s.io/v1" }, { "kind", "SubjectAccessReview" },
                { "spec",
                    { { "user", user }, { "groups", groups },
                        { "resourceAttributes",
                            { { "verb", verb }, { "group", "resource.k8s.io" },
                                { "resource", "resourceclaims" }, { "namespace", ns } } } } } });
        EXPECT_EQ(reply.status, 201) << reply.text;
        return reply.body["status"];
    }

    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer;
    std::unique_ptr<ObjectWriter> m_objects;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
};

TEST_F(RbacAuthorizationTest, ATeamMemberListsItsNamespaceAndNotTheCluster)
{
    const test::Reply own
        = send("GET", "/apis/resource.k8s.io/v1/namespaces/training/resourceclaims", kTeamToken);
    ASSERT_EQ(own.status, 200) << own.text;
    ASSERT_EQ(own.body["items"].size(), 1u);
    EXPECT_EQ(own.body["items"][0]["metadata"]["name"], "train-0");

    const test::Reply all = send("GET", "/apis/resource.k8s.io/v1/resourceclaims", kTeamToken);
    ASSERT_EQ(all.status, 403) << all.text;
    EXPECT_EQ(all.body["reason"], "Forbidden");
    EXPECT_EQ(all.body["message"],
        "resourceclaims.resource.k8s.io is forbidden: User \"team-member\" cannot list resource "
        "\"resourceclaims\" in API group \"resource.k8s.io\" at the cluster scope");

    const test::Reply other = send(
        "GET", "/apis/resource.k8s.io/v1/namespaces/inference/resourceclaims/serve-0", kTeamToken);
    ASSERT_EQ(other.status, 403) << other.text;
    EXPECT_EQ(other.body["message"],
        "resourceclaims.resource.k8s.io \"serve-0\" is forbidden: User \"team-member\" cannot get "
        "resource \"resourceclaims\" in API group \"resource.k8s.io\" in the namespace "
        "\"inference\"");
    EXPECT_EQ(other.body["details"]["name"], "serve-0");

    // Watches are authorised as watches.
    const test::Reply watchAll
        = send("GET", "/apis/resource.k8s.io/v1/resourceclaims?watch=true", kTeamToken);
    EXPECT_EQ(watchAll.status, 403) << watchAll.text;
    // Discovery is everyone's, through the binding to system:authenticated.
    EXPECT_EQ(send("GET", "/apis", kTeamToken).status, 200);
}

TEST_F(RbacAuthorizationTest, WritesNeedAVerbTheRolesGrant)
{
    const test::Reply created
        = send("POST", "/apis/resource.k8s.io/v1/namespaces/training/resourceclaims", kTeamToken,
            claim("train-1", "training"));
    EXPECT_EQ(created.status, 201) << created.text;

    const test::Reply viewer
        = send("POST", "/apis/resource.k8s.io/v1/namespaces/training/resourceclaims", kViewerToken,
            claim("train-2", "training"));
    ASSERT_EQ(viewer.status, 403) << viewer.text;
    EXPECT_NE(viewer.body["message"].get<std::string>().find(
                  "User \"viewer\" cannot create resource \"resourceclaims\""),
        std::string::npos)
        << viewer.text;
    EXPECT_EQ(send("GET", "/apis/resource.k8s.io/v1/resourceclaims", kViewerToken).status, 200);

    const test::Reply team = send("DELETE",
        "/apis/resource.k8s.io/v1/namespaces/training/resourceclaims/train-0", kTeamToken);
    EXPECT_EQ(team.status, 403) << team.text;
    // The admin is system:masters and needs no binding.
    EXPECT_EQ(send("DELETE", "/apis/resource.k8s.io/v1/namespaces/training/resourceclaims/train-0",
                  kAdminToken)
                  .status,
        200);
    EXPECT_EQ(send("GET", "/apis", "not-a-token").status, 401);
}

TEST_F(RbacAuthorizationTest, ChangedBindingsDecideTheNextRequest)
{
    const std::string all = "/apis/resource.k8s.io/v1/resourceclaims";
    ASSERT_EQ(send("GET", all, kTeamToken).status, 403);
    const test::Reply granted
        = send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", kAdminToken,
            bindingTo("ClusterRoleBinding", "team-views", "", "viewer", "team"));
    ASSERT_EQ(granted.status, 201) << granted.text;
    EXPECT_EQ(send("GET", all, kTeamToken).status, 200);
    ASSERT_EQ(send("DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/team-views",
                  kAdminToken)
                  .status,
        200);
    EXPECT_EQ(send("GET", all, kTeamToken).status, 403);
}

TEST_F(RbacAuthorizationTest, ReviewsReportTheSameDecisions)
{
    const json allowed = subjectReview("team-member", { "team" }, "create", "training");
    EXPECT_EQ(allowed["allowed"], true);
    EXPECT_EQ(allowed["reason"],
        "RBAC: allowed by RoleBinding \"team-claims/training\" of ClusterRole \"claim-author\" to "
        "Group \"team\"");
    EXPECT_EQ(subjectReview("team-member", { "team" }, "create", "inference")["allowed"], false);
    EXPECT_EQ(subjectReview("viewer", { "viewers" }, "create", "training")["allowed"], false);
    EXPECT_EQ(subjectReview("viewer", { "viewers" }, "list", "training")["allowed"], true);

    // The caller's own view: `kubectl auth can-i`.
    const test::Reply self = send("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        kTeamToken,
        { { "apiVersion", "authorization.k8s.io/v1" }, { "kind", "SelfSubjectAccessReview" },
            { "spec",
                { { "resourceAttributes",
                    { { "verb", "list" }, { "group", "resource.k8s.io" },
                        { "resource", "resourceclaims" }, { "namespace", "training" } } } } } });
    // A review is a request like any other: without a binding such as system:basic-user (none
    // in this cluster) the POST itself is refused.
    EXPECT_EQ(self.status, 403) << self.text;

    // TokenReview: who a token belongs to, without echoing the token back.
    const test::Reply token
        = send("POST", "/apis/authentication.k8s.io/v1/tokenreviews", kAdminToken,
            { { "apiVersion", "authentication.k8s.io/v1" }, { "kind", "TokenReview" },
                { "spec", { { "token", kTeamToken } } } });
    ASSERT_EQ(token.status, 201) << token.text;
    EXPECT_EQ(token.body["status"]["authenticated"], true);
    EXPECT_EQ(token.body["status"]["user"]["username"], "team-member");
    EXPECT_EQ(token.text.find(kTeamToken), std::string::npos);
    const test::Reply unknown
        = send("POST", "/apis/authentication.k8s.io/v1/tokenreviews", kAdminToken,
            { { "apiVersion", "authentication.k8s.io/v1" }, { "kind", "TokenReview" },
                { "spec", { { "token", "forged" } } } });
    EXPECT_EQ(unknown.body["status"]["authenticated"], false);
}

TEST(RequestAttributesTest, PathsAndMethodsBecomeRbacAttributes)
{
    const auto attributes = [](const std::string &method, const std::string &target) {
        Request request;
        request.method = method;
        const size_t query = target.find('?');
        request.path = target.substr(0, query);
        if (query != std::string::npos)
            request.query = QueryParams::parse(target.substr(query + 1));
        return requestAttributes(request);
    };
    const model::AccessAttributes list
        = attributes("GET", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims");
    EXPECT_TRUE(list.resourceRequest);
    EXPECT_EQ(list.verb, "list");
    EXPECT_EQ(list.apiGroup, "resource.k8s.io");
    EXPECT_EQ(list.resource, "resourceclaims");
    EXPECT_EQ(list.ns, "ml");
    EXPECT_EQ(attributes("GET", "/api/v1/pods?watch=1").verb, "watch");
    EXPECT_EQ(attributes("DELETE", "/api/v1/namespaces/ml/pods").verb, "deletecollection");
    const model::AccessAttributes status
        = attributes("PUT", "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/c/status");
    EXPECT_EQ(status.verb, "update");
    EXPECT_EQ(status.name, "c");
    EXPECT_EQ(status.subresource, "status");
    // A Namespace is its own namespace; its status is its subresource, not a resource.
    const model::AccessAttributes ns = attributes("PATCH", "/api/v1/namespaces/ml/status");
    EXPECT_EQ(ns.resource, "namespaces");
    EXPECT_EQ(ns.name, "ml");
    EXPECT_EQ(ns.ns, "ml");
    EXPECT_EQ(ns.subresource, "status");
    const model::AccessAttributes path = attributes("POST", "/console/v1/templates/check");
    EXPECT_FALSE(path.resourceRequest);
    EXPECT_EQ(path.verb, "post");
    EXPECT_EQ(path.path, "/console/v1/templates/check");
    EXPECT_FALSE(attributes("GET", "/apis/resource.k8s.io/v1").resourceRequest);
}

} // namespace
} // namespace dra::server
