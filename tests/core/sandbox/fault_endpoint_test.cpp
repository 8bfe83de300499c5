// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// /sandbox/v1/faults on a demo API server: authenticated, GET lists, POST adds, DELETE clears,
// beside another extra handler (the test hooks share the mechanism).
#include "core/sandbox/fault_endpoint.h"

#include "core/sandbox/control_plane.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/kube_status.h"
#include "tests/core/sandbox/control_plane_harness.h"
#include "tests/support/api_test_support.h"

namespace dra::test {
namespace {

using nlohmann::json;
using server::test::exchange;
using server::test::httpRequest;

constexpr const char *kFaultToken = "fault-token";

class FaultEndpointTest : public ControlPlaneHarness
{
protected:
    void SetUp() override
    {
        ControlPlaneHarness::SetUp();
        if (HasFatalFailure())
            return;
        startApiServer(kFaultToken);
        if (HasFatalFailure())
            return;
        m_api->setExtraHandler(
            "/draconsole/test/", [](server::Request &, server::HttpConnection &connection) {
                connection.respond(server::jsonResponse(200, { { "hook", true } }));
                return true;
            });
    }

    server::test::Reply call(const std::string &method, const std::string &target,
        const std::string &body = {}, const std::string &token = kFaultToken)
    {
        return exchange(m_http->port(), httpRequest(method, target, token, body));
    }
};

TEST_F(FaultEndpointTest, AddListAndClearFaults)
{
    EXPECT_EQ(call("GET", "/sandbox/v1/faults", {}, "wrong").status, 401);

    server::test::Reply added = call("POST", "/sandbox/v1/faults",
        R"({"kind":"http-500","namespace":"inference","deployment":"llm-dra"})");
    ASSERT_EQ(added.status, 201) << added.text;
    ASSERT_EQ(call("POST", "/sandbox/v1/faults", R"({"kind":"never-ready"})").status, 201);
    EXPECT_TRUE(plane().faults().applies(sandbox::FaultKind::Http500, "inference", "llm-dra"));

    const server::test::Reply listed = call("GET", "/sandbox/v1/faults");
    ASSERT_EQ(listed.status, 200);
    ASSERT_EQ(listed.body["items"].size(), 2u);
    EXPECT_EQ(listed.body["items"][0],
        json(
            { { "kind", "http-500" }, { "namespace", "inference" }, { "deployment", "llm-dra" } }));
    EXPECT_EQ(listed.body["items"][1], json({ { "kind", "never-ready" } }));

    const server::test::Reply unknown
        = call("POST", "/sandbox/v1/faults", R"({"kind":"disk-full"})");
    EXPECT_EQ(unknown.status, 400);
    EXPECT_NE(unknown.body.value("message", "").find("disk-full"), std::string::npos)
        << unknown.text;

    const server::test::Reply one = call("DELETE", "/sandbox/v1/faults?kind=never-ready");
    EXPECT_EQ(one.status, 200);
    EXPECT_EQ(one.body["removed"], 1);
    EXPECT_EQ(call("DELETE", "/sandbox/v1/faults?kind=nope").status, 400);
    EXPECT_EQ(call("DELETE", "/sandbox/v1/faults").body["removed"], 1);
    EXPECT_TRUE(plane().faults().faults().empty());

    EXPECT_EQ(call("POST", "/draconsole/test/anything").body["hook"], true)
        << "the other handler still answers";
    EXPECT_EQ(call("GET", "/sandbox/v1/other").status, 404);
}

} // namespace
} // namespace dra::test
