// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The reviews a mirror with --authn=cluster sends its cluster, and how it reads their answers.
#include <gtest/gtest.h>

#include "core/server/delegated_access.h"

namespace dra::server {
namespace {

TEST(DelegationTest, TokenReviewAnswersNameTheUserOrNobody)
{
    const nlohmann::json review = delegation::tokenReview("secret");
    EXPECT_EQ(review["kind"], "TokenReview");
    EXPECT_EQ(review["spec"]["token"], "secret");

    const Result<std::optional<model::UserIdentity>> known
        = delegation::readTokenReview(R"({"kind":"TokenReview","status":{"authenticated":true,
            "user":{"username":"alice","uid":"1","groups":["team-a","system:authenticated"]}}})");
    ASSERT_TRUE(known) << known.error().message.toStdString();
    ASSERT_TRUE(known->has_value());
    EXPECT_EQ((*known)->name, "alice");
    EXPECT_EQ((*known)->groups, (std::vector<std::string> { "team-a", "system:authenticated" }));

    const Result<std::optional<model::UserIdentity>> unknown = delegation::readTokenReview(
        R"({"kind":"TokenReview","status":{"authenticated":false,"error":"invalid token"}})");
    ASSERT_TRUE(unknown);
    EXPECT_FALSE(unknown->has_value());

    EXPECT_FALSE(delegation::readTokenReview("<html>proxy error</html>"));
    EXPECT_FALSE(
        delegation::readTokenReview(R"({"status":{"authenticated":true,"user":{"groups":["g"]}}})"))
        << "an authenticated token without a user name";
}

TEST(DelegationTest, SubjectAccessReviewAsksForTheUsersRequest)
{
    model::AccessAttributes list;
    list.verb = "list";
    list.apiGroup = "resource.k8s.io";
    list.resource = "resourceclaims";
    list.ns = "training";
    const nlohmann::json review = delegation::subjectAccessReview({ "alice", { "team-a" } }, list);
    EXPECT_EQ(review["kind"], "SubjectAccessReview");
    EXPECT_EQ(review["spec"]["user"], "alice");
    EXPECT_EQ(review["spec"]["groups"], nlohmann::json::array({ "team-a" }));
    EXPECT_EQ(review["spec"]["resourceAttributes"],
        (nlohmann::json { { "verb", "list" }, { "group", "resource.k8s.io" },
            { "resource", "resourceclaims" }, { "namespace", "training" } }));
    EXPECT_FALSE(review["spec"].contains("nonResourceAttributes"));

    model::AccessAttributes path;
    path.resourceRequest = false;
    path.verb = "get";
    path.path = "/console/v1/overview";
    const nlohmann::json pathReview = delegation::subjectAccessReview({ "bob", {} }, path);
    EXPECT_EQ(pathReview["spec"]["nonResourceAttributes"],
        (nlohmann::json { { "path", "/console/v1/overview" }, { "verb", "get" } }));

    const Result<model::AccessDecision> allowed = delegation::readSubjectAccessReview(
        R"({"status":{"allowed":true,"reason":"RBAC: allowed by RoleBinding"}})");
    ASSERT_TRUE(allowed);
    EXPECT_TRUE(allowed->allowed);
    EXPECT_EQ(allowed->reason, "RBAC: allowed by RoleBinding");
    // An explicit denial wins, as kube-apiserver reads a webhook's answer.
    const Result<model::AccessDecision> denied
        = delegation::readSubjectAccessReview(R"({"status":{"allowed":true,"denied":true}})");
    ASSERT_TRUE(denied);
    EXPECT_FALSE(denied->allowed);
    EXPECT_FALSE(delegation::readSubjectAccessReview("{}"));
}

} // namespace
} // namespace dra::server
