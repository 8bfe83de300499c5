// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A writable ApiServer in-process (as `dractl serve --demo` runs it): writes, validation,
// warnings, dry runs, server-side apply, watches seeing writes, conversion, OpenAPI and the
// test hooks.
#include "core/server/api_server.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/object.h"
#include "core/server/http_server.h"
#include "core/server/test_hooks.h"
#include "core/model/record_codec.h"
#include "tests/support/api_test_support.h"

namespace dra::server {
namespace {

using nlohmann::json;
using test::exchange;
using test::httpRequest;
using test::RawClient;
using test::Reply;
using test::spinUntil;

constexpr const char *kWriterToken = "w-token";
constexpr const char *kClaims = "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims";
constexpr const char *kTemplates = "/apis/resource.k8s.io/v1/namespaces/ml/resourceclaimtemplates";
constexpr const char *kClasses = "/apis/resource.k8s.io/v1/deviceclasses";

json seedObjects()
{
    return json::parse(R"([
      {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ml","uid":"ns-1","creationTimestamp":"2026-01-15T09:00:00Z"},
       "spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}},
      {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.example.com","uid":"dc-1","generation":1,"creationTimestamp":"2026-01-15T09:00:00Z"},
       "spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}]}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"node-1-gpu","uid":"s-1","creationTimestamp":"2026-01-15T09:00:00Z"},
       "spec":{"driver":"gpu.example.com","nodeName":"node-1","pool":{"name":"node-1","generation":1,"resourceSliceCount":1},
               "devices":[{"name":"gpu-0","attributes":{"model":{"string":"a100"}},"capacity":{"memory":{"value":"40Gi"}}}]}}
    ])");
}

json claimNamed(const std::string &name, const std::string &expression = {})
{
    json request
        = { { "name", "gpu" }, { "exactly", { { "deviceClassName", "gpu.example.com" } } } };
    if (!expression.empty())
        request["exactly"]["selectors"] = { { { "cel", { { "expression", expression } } } } };
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata", { { "name", name } } },
        { "spec", { { "devices", { { "requests", { request } } } } } } };
}

class WriteApiTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        test::SeededCache cache = test::seedCache(m_dir.filePath(QStringLiteral("cache.db")),
            "demo", seedObjects().get<std::vector<json>>());
        ASSERT_TRUE(cache.writer && cache.reader);
        m_writer = std::move(cache.writer);
        m_reader = std::move(cache.reader);
        ASSERT_TRUE(m_writer->setClusterInfo({ "demo", "", m_version, 0 }).has_value());

        ApiServerOptions options;
        options.cluster = "demo";
        options.token = kWriterToken;
        options.pollIntervalMs = 20;
        options.writer = m_writer.get();
        m_api = std::make_unique<ApiServer>(*m_reader, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        m_hooks = std::make_unique<TestHooks>(*m_api, *m_http);
        m_api->setExtraHandler(
            std::string(test_hooks::kPrefix), [this](Request &request, HttpConnection &connection) {
                return m_hooks->handle(request, connection);
            });
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0).has_value());
    }

    Reply call(const std::string &method, const std::string &target, const std::string &body = {},
        const std::string &contentType = "application/json")
    {
        return exchange(
            m_http->port(), httpRequest(method, target, kWriterToken, body, contentType));
    }
    Reply callJson(const std::string &method, const std::string &target, const json &body)
    {
        return call(method, target, body.dump(), "application/json");
    }
    int64_t rev() { return *m_reader->currentRev(); }

    std::string m_version = "v1.36.0"; // the release the cache records, so the one served
    QTemporaryDir m_dir;
    std::unique_ptr<store::CacheDb> m_writer, m_reader;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
    std::unique_ptr<TestHooks> m_hooks;
};

TEST_F(WriteApiTest, CreateAssignsWhatAServerAssignsAndAWatcherSeesItOnce)
{
    const Reply list = call("GET", kClaims);
    RawClient watch(m_http->port());
    watch.send(QByteArray::fromStdString(httpRequest("GET",
        std::string(kClaims) + "?watch=true&resourceVersion="
            + list.body["metadata"]["resourceVersion"].get<std::string>(),
        kWriterToken)));
    ASSERT_TRUE(watch.waitFor("Transfer-Encoding: chunked"));

    const Reply created = callJson(
        "POST", std::string(kClaims) + "?fieldManager=kubectl-create", claimNamed("train-0"));
    ASSERT_EQ(created.status, 201) << created.text;
    const json &meta = created.body["metadata"];
    EXPECT_EQ(meta["namespace"], "ml");
    EXPECT_EQ(meta["uid"].get<std::string>().size(), 36u);
    EXPECT_FALSE(meta["creationTimestamp"].get<std::string>().empty());
    EXPECT_EQ(meta["generation"], 1);
    EXPECT_EQ(meta["resourceVersion"], std::to_string(rev()));
    EXPECT_EQ(meta["managedFields"][0]["manager"], "kubectl-create");
    EXPECT_EQ(meta["managedFields"][0]["operation"], "Update");
    // Defaults as kube-apiserver stores them.
    EXPECT_EQ(created.body["spec"]["devices"]["requests"][0]["exactly"]["count"], 1);
    EXPECT_EQ(
        created.body["spec"]["devices"]["requests"][0]["exactly"]["allocationMode"], "ExactCount");

    ASSERT_TRUE(watch.waitFor("\"type\":\"ADDED\""));
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_EQ(watch.received().count("\"type\":\"ADDED\""), 1);
    EXPECT_EQ(call("GET", std::string(kClaims) + "/train-0").body["metadata"]["uid"], meta["uid"]);

    const Reply again = callJson("POST", kClaims, claimNamed("train-0"));
    EXPECT_EQ(again.status, 409);
    EXPECT_EQ(again.body["reason"], "AlreadyExists");
    EXPECT_EQ(again.body["message"], "resourceclaims.resource.k8s.io \"train-0\" already exists");
    const Reply elsewhere = callJson(
        "POST", "/apis/resource.k8s.io/v1/namespaces/nope/resourceclaims", claimNamed("x"));
    EXPECT_EQ(elsewhere.status, 404);
    EXPECT_EQ(elsewhere.body["message"], "namespaces \"nope\" not found");
}

TEST_F(WriteApiTest, StaleUpdatesConflictAndGenerationFollowsTheSpec)
{
    Reply current = call("GET", std::string(kClasses) + "/gpu.example.com");
    ASSERT_EQ(current.status, 200);
    json stale = current.body;
    json labelled = current.body;
    labelled["metadata"]["labels"] = { { "team", "ml" } };
    const Reply relabelled = callJson("PUT", std::string(kClasses) + "/gpu.example.com", labelled);
    ASSERT_EQ(relabelled.status, 200) << relabelled.text;
    EXPECT_EQ(relabelled.body["metadata"]["generation"], 1); // metadata only
    EXPECT_EQ(relabelled.body["metadata"]["uid"], "dc-1");

    stale["spec"]["selectors"] = json::array();
    const Reply conflict = callJson("PUT", std::string(kClasses) + "/gpu.example.com", stale);
    EXPECT_EQ(conflict.status, 409);
    EXPECT_EQ(conflict.body["reason"], "Conflict");
    EXPECT_EQ(conflict.body["message"],
        "Operation cannot be fulfilled on deviceclasses.resource.k8s.io \"gpu.example.com\": the "
        "object has been modified; please apply your changes to the latest version and try again");

    json fresh = relabelled.body;
    fresh["spec"]["extendedResourceName"] = "example.com/gpu";
    const Reply respecced = callJson("PUT", std::string(kClasses) + "/gpu.example.com", fresh);
    ASSERT_EQ(respecced.status, 200) << respecced.text;
    EXPECT_EQ(respecced.body["metadata"]["generation"], 2);
}

TEST_F(WriteApiTest, InvalidTemplatesAreRejectedWithFieldCausesAndStoreNothing)
{
    const int64_t before = rev();
    const json templ
        = json::parse(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
        "metadata":{"name":"gpu-template"},
        "spec":{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
            "allocationMode":"ExactCount","count":0}}]}}}})");
    const Reply rejected = callJson("POST", kTemplates, templ);
    EXPECT_EQ(rejected.status, 422);
    EXPECT_EQ(rejected.body["reason"], "Invalid");
    EXPECT_EQ(rejected.body["message"],
        "ResourceClaimTemplate.resource.k8s.io \"gpu-template\" is invalid: "
        "spec.spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero");
    EXPECT_EQ(rejected.body["details"]["kind"], "ResourceClaimTemplate");
    EXPECT_EQ(rejected.body["details"]["causes"][0]["field"],
        "spec.spec.devices.requests[0].exactly.count");
    EXPECT_EQ(rejected.body["details"]["causes"][0]["reason"], "FieldValueInvalid");
    EXPECT_EQ(rev(), before);
    EXPECT_EQ(call("GET", std::string(kTemplates) + "/gpu-template").status, 404);

    const Reply badCel = callJson(
        "POST", kClaims, claimNamed("c", "device.attributes[\"gpu.example.com\"].model =="));
    EXPECT_EQ(badCel.status, 422);
    EXPECT_NE(badCel.body["message"].get<std::string>().find(
                  "spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "),
        std::string::npos);
    EXPECT_NE(
        badCel.body["message"].get<std::string>().find("compilation failed: ERROR: <input>:1:"),
        std::string::npos);
    EXPECT_EQ(rev(), before);
}

// device.allowMultipleAllocations is declared for new selectors from 1.36 (DRAConsumableCapacity
// on by default there); a 1.35 kube-apiserver refuses it.
constexpr const char *kConsumableSelector = "device.allowMultipleAllocations == false";

TEST_F(WriteApiTest, SelectorsCompileInTheServedRelease)
{
    const Reply accepted = callJson("POST", kClaims, claimNamed("shared", kConsumableSelector));
    EXPECT_EQ(accepted.status, 201) << accepted.text;
}

class OlderReleaseWriteApiTest : public WriteApiTest
{
protected:
    OlderReleaseWriteApiTest() { m_version = "v1.35.0"; }
};

TEST_F(OlderReleaseWriteApiTest, SelectorsOfALaterReleaseAreRefused)
{
    const int64_t before = rev();
    const Reply refused = callJson("POST", kClaims, claimNamed("shared", kConsumableSelector));
    EXPECT_EQ(refused.status, 422) << refused.text;
    EXPECT_NE(refused.text.find("undefined field 'allowMultipleAllocations'"), std::string::npos)
        << refused.text;
    EXPECT_EQ(rev(), before);
}

TEST_F(WriteApiTest, WhatCanNeverBeAllocatedIsAcceptedWithAWarning)
{
    json unknownClass = claimNamed("a");
    unknownClass["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"]
        = "nope.example.com";
    const Reply missing = callJson("POST", kClaims, unknownClass);
    ASSERT_EQ(missing.status, 201) << missing.text;
    ASSERT_EQ(missing.headers("warning").size(), 1u) << missing.head;
    EXPECT_NE(missing.headers("warning")[0].find(
                  "299 - \"spec.devices.requests[0].exactly.deviceClassName: DeviceClass "
                  "\\\"nope.example.com\\\" does not exist"),
        std::string::npos)
        << missing.head;

    const Reply unmatched = callJson("POST", kClaims,
        claimNamed("b", "device.attributes[\"gpu.example.com\"].model == \"h100\""));
    ASSERT_EQ(unmatched.status, 201);
    ASSERT_EQ(unmatched.headers("warning").size(), 1u) << unmatched.head;
    EXPECT_NE(unmatched.headers("warning")[0].find("no device published in the cluster matches"),
        std::string::npos);

    // Labelling the claim changes nothing the warning is about: it is not said again.
    const Reply labelled = call("PATCH", std::string(kClaims) + "/b",
        R"({"metadata":{"labels":{"team":"ml"}}})", "application/merge-patch+json");
    ASSERT_EQ(labelled.status, 200) << labelled.text;
    EXPECT_TRUE(labelled.headers("warning").empty()) << labelled.head;

    const Reply matched = callJson("POST", kClaims,
        claimNamed("c", "device.attributes[\"gpu.example.com\"].model == \"a100\""));
    ASSERT_EQ(matched.status, 201);
    EXPECT_TRUE(matched.headers("warning").empty()) << matched.head;
}

TEST_F(WriteApiTest, DryRunsPersistNothingAndNotifyNoOne)
{
    const int64_t before = rev();
    const Reply created = callJson("POST", std::string(kClaims) + "?dryRun=All", claimNamed("dry"));
    EXPECT_EQ(created.status, 201);
    EXPECT_EQ(created.body["metadata"]["name"], "dry");
    EXPECT_EQ(call("GET", std::string(kClaims) + "/dry").status, 404);
    const Reply deleted = call("DELETE", std::string(kClasses) + "/gpu.example.com",
        R"({"propagationPolicy":"Background","dryRun":["All"]})");
    EXPECT_EQ(deleted.status, 200);
    EXPECT_EQ(call("GET", std::string(kClasses) + "/gpu.example.com").status, 200);
    EXPECT_EQ(rev(), before);
    EXPECT_EQ(callJson("POST", std::string(kClaims) + "?dryRun=Some", claimNamed("x")).status, 400);
}

TEST_F(WriteApiTest, MergeJsonAndStrategicPatches)
{
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("p")).status, 201);
    const std::string target = std::string(kClaims) + "/p";
    const Reply labelled = call("PATCH", target + "?fieldManager=kubectl-label",
        R"({"metadata":{"labels":{"team":"ml"}}})", "application/merge-patch+json");
    ASSERT_EQ(labelled.status, 200) << labelled.text;
    EXPECT_EQ(labelled.body["metadata"]["labels"]["team"], "ml");
    bool labelManager = false;
    for (const json &entry : labelled.body["metadata"]["managedFields"])
        labelManager = labelManager || entry["manager"] == "kubectl-label";
    EXPECT_TRUE(labelManager);

    const Reply annotated = call("PATCH", target,
        R"([{"op":"add","path":"/metadata/annotations","value":{"note":"x"}}])",
        "application/json-patch+json");
    ASSERT_EQ(annotated.status, 200) << annotated.text;
    EXPECT_EQ(annotated.body["metadata"]["annotations"]["note"], "x");
    EXPECT_EQ(call("PATCH", target, R"([{"op":"test","path":"/metadata/name","value":"q"}])",
                  "application/json-patch+json")
                  .status,
        422);

    // The status subresource merges reservedFor by its key (uid).
    const std::string status = target + "/status";
    const json allocated = json::parse(R"({"status":{
        "allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]}},
        "reservedFor":[{"resource":"pods","name":"p1","uid":"u-1"}]}})");
    ASSERT_EQ(call("PATCH", status, allocated.dump(), "application/merge-patch+json").status, 200);
    const Reply merged = call("PATCH", status,
        R"({"status":{"reservedFor":[{"resource":"pods","name":"p2","uid":"u-2"}]}})",
        "application/strategic-merge-patch+json");
    ASSERT_EQ(merged.status, 200) << merged.text;
    EXPECT_EQ(merged.body["status"]["reservedFor"].size(), 2u);
    // The main resource does not write status.
    const Reply ignored
        = call("PATCH", target, R"({"status":{"reservedFor":[]}})", "application/merge-patch+json");
    EXPECT_EQ(ignored.body["status"]["reservedFor"].size(), 2u);
    // The claim's spec is immutable.
    const Reply immutable = call("PATCH", target,
        R"({"spec":{"devices":{"requests":[{"name":"other","exactly":{"deviceClassName":"gpu.example.com"}}]}}})",
        "application/merge-patch+json");
    EXPECT_EQ(immutable.status, 422);
    EXPECT_EQ(immutable.body["details"]["causes"][0]["field"], "spec");
}

TEST_F(WriteApiTest, ServerSideApplyCreatesConflictsForcesAndPrunes)
{
    const std::string target = std::string(kClasses) + "/applied";
    const std::string config = R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
        "metadata":{"name":"applied","labels":{"team":"a","tier":"gold"}},
        "spec":{"selectors":[{"cel":{"expression":"true"}}]}})";
    const Reply created
        = call("PATCH", target + "?fieldManager=alice", config, "application/apply-patch+yaml");
    ASSERT_EQ(created.status, 201) << created.text;
    EXPECT_EQ(created.body["metadata"]["managedFields"][0]["operation"], "Apply");
    // Applying the same configuration again changes nothing: no new resourceVersion.
    const int64_t before = rev();
    const Reply again
        = call("PATCH", target + "?fieldManager=alice", config, "application/apply-patch+yaml");
    EXPECT_EQ(again.status, 200);
    EXPECT_EQ(
        again.body["metadata"]["resourceVersion"], created.body["metadata"]["resourceVersion"]);
    EXPECT_EQ(rev(), before);

    const std::string yaml = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
                             "  name: applied\n  labels:\n    team: b\n";
    const Reply conflict
        = call("PATCH", target + "?fieldManager=bob", yaml, "application/apply-patch+yaml");
    EXPECT_EQ(conflict.status, 409);
    EXPECT_EQ(conflict.body["message"],
        "Apply failed with 1 conflict: conflict with \"alice\": .metadata.labels.team");
    EXPECT_EQ(conflict.body["details"]["causes"][0]["reason"], "FieldManagerConflict");
    const Reply forced = call(
        "PATCH", target + "?fieldManager=bob&force=true", yaml, "application/apply-patch+yaml");
    ASSERT_EQ(forced.status, 200) << forced.text;
    EXPECT_EQ(forced.body["metadata"]["labels"]["team"], "b");

    // alice stops sending the tier label and the selectors: they go.
    const Reply pruned = call("PATCH", target + "?fieldManager=alice",
        R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"applied"}})",
        "application/apply-patch+yaml");
    ASSERT_EQ(pruned.status, 200) << pruned.text;
    EXPECT_EQ(pruned.body["metadata"]["labels"], json({ { "team", "b" } }));
    EXPECT_FALSE(pruned.body.contains("spec") && pruned.body["spec"].contains("selectors"));

    EXPECT_EQ(
        call("PATCH", target, config, "application/apply-patch+yaml").status, 400); // no manager
    const Reply dry = call("PATCH", std::string(kClasses) + "/dry?fieldManager=x&dryRun=All",
        config, "application/apply-patch+yaml");
    EXPECT_EQ(dry.status, 400); // the name in the body is not the URL's
}

TEST_F(WriteApiTest, DeletingANamespaceDeletesWhatItHolds)
{
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("one")).status, 201);
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("two")).status, 201);
    RawClient watch(m_http->port());
    watch.send(QByteArray::fromStdString(httpRequest("GET",
        "/apis/resource.k8s.io/v1/resourceclaims?watch=true&resourceVersion="
            + std::to_string(rev()),
        kWriterToken)));
    ASSERT_TRUE(watch.waitFor("Transfer-Encoding: chunked"));
    const Reply deleted
        = call("DELETE", "/api/v1/namespaces/ml", R"({"propagationPolicy":"Background"})");
    ASSERT_EQ(deleted.status, 200) << deleted.text;
    EXPECT_EQ(deleted.body["status"]["phase"], "Terminating");
    EXPECT_TRUE(watch.waitFor("\"type\":\"DELETED\"", 2));
    EXPECT_EQ(call("GET", kClaims).body["items"].size(), 0u);
    EXPECT_EQ(call("GET", "/api/v1/namespaces/ml").status, 404);
    const Reply gone = call("DELETE", std::string(kClasses) + "/nope");
    EXPECT_EQ(gone.status, 404);
}

TEST_F(WriteApiTest, BadBodiesGetClearStatusErrorsAndLeaveTheCacheAlone)
{
    const int64_t before = rev();
    const Reply malformed = call("POST", kClaims, std::string(R"({"metadata": {"name": )"));
    EXPECT_EQ(malformed.status, 400);
    EXPECT_EQ(malformed.body["kind"], "Status");
    EXPECT_NE(
        malformed.body["message"].get<std::string>().find("the object provided is unrecognized"),
        std::string::npos);
    json widget = claimNamed("w");
    widget["kind"] = "Widget";
    const Reply unknownKind = callJson("POST", kClaims, widget);
    EXPECT_EQ(unknownKind.status, 400);
    EXPECT_EQ(unknownKind.body["message"],
        "Widget in version \"v1\" cannot be handled as a ResourceClaim: no kind \"Widget\" is "
        "registered for version \"resource.k8s.io/v1\" in scheme");
    json wrongVersion = claimNamed("w");
    wrongVersion["apiVersion"] = "resource.k8s.io/v1beta1";
    EXPECT_EQ(callJson("POST", kClaims, wrongVersion).status, 400);
    json strict = claimNamed("s");
    strict["spec"]["colour"] = "blue";
    const Reply unknownField
        = callJson("POST", std::string(kClaims) + "?fieldValidation=Strict", strict);
    EXPECT_EQ(unknownField.status, 400);
    EXPECT_NE(unknownField.body["message"].get<std::string>().find(
                  "strict decoding error: unknown field \"spec.colour\""),
        std::string::npos);
    EXPECT_EQ(
        call("PATCH", std::string(kClasses) + "/gpu.example.com", std::string("{}"), "text/plain")
            .status,
        415);
    EXPECT_EQ(
        call("POST", "/api/v1/nodes", std::string(R"({"metadata":{"name":"n"}})")).status, 405);
    EXPECT_EQ(callJson("POST", "/apis/resource.k8s.io/v1/widgets", claimNamed("w")).status, 404);
    const std::string huge(4 * 1024 * 1024, 'x');
    const Reply oversized = call("POST", kClaims, huge);
    EXPECT_EQ(oversized.status, 413);
    EXPECT_EQ(oversized.body["kind"], "Status");
    EXPECT_EQ(rev(), before);
    EXPECT_TRUE(m_reader->quickCheck().has_value());
}

TEST_F(WriteApiTest, ServesTheVersionsOfTheRecordedReleaseConverted)
{
    EXPECT_EQ(call("GET", "/version").body["gitVersion"], "v1.36.0");
    const Reply group = call("GET", "/apis/resource.k8s.io");
    std::vector<std::string> versions;
    for (const json &version : group.body["versions"])
        versions.push_back(version["version"]);
    // v1alpha3 serves ResourcePoolStatusRequest alone from 1.36 on.
    EXPECT_EQ(versions, (std::vector<std::string> { "v1", "v1beta2", "v1beta1", "v1alpha3" }));
    EXPECT_EQ(call("GET", "/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests").status, 200);
    EXPECT_EQ(call("GET", "/apis/resource.k8s.io/v1alpha3/resourceclaims").status, 404);
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("conv")).status, 201);
    const Reply old
        = call("GET", "/apis/resource.k8s.io/v1beta1/namespaces/ml/resourceclaims/conv");
    ASSERT_EQ(old.status, 200) << old.text;
    EXPECT_EQ(old.body["apiVersion"], "resource.k8s.io/v1beta1");
    EXPECT_EQ(old.body["spec"]["devices"]["requests"][0]["deviceClassName"], "gpu.example.com");
    const Reply list = call("GET", "/apis/resource.k8s.io/v1beta2/resourceslices");
    EXPECT_EQ(list.body["kind"], "ResourceSliceList");
    EXPECT_EQ(list.body["apiVersion"], "resource.k8s.io/v1beta2");
    // DeviceTaintRule's gate is off by default in 1.36.
    EXPECT_EQ(call("GET", "/apis/resource.k8s.io/v1/devicetaintrules").status, 404);
    // Writes in an older version are stored once and served in every version.
    json beta = json::parse(R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
        "metadata":{"name":"beta"},"spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"gpu.example.com"}]}}})");
    const Reply created
        = callJson("POST", "/apis/resource.k8s.io/v1beta1/namespaces/ml/resourceclaims", beta);
    ASSERT_EQ(created.status, 201) << created.text;
    EXPECT_EQ(created.body["spec"]["devices"]["requests"][0]["count"], 1);
    EXPECT_EQ(call("GET", std::string(kClaims) + "/beta")
                  .body["spec"]["devices"]["requests"][0]["exactly"]["count"],
        1);
}

TEST_F(WriteApiTest, OpenApiDescribesEveryServedKindForApplyAndExplain)
{
    const Reply index = call("GET", "/openapi/v3");
    ASSERT_EQ(index.status, 200);
    const std::string url = index.body["paths"]["apis/resource.k8s.io/v1"]["serverRelativeURL"];
    EXPECT_NE(url.find("?hash="), std::string::npos);
    EXPECT_TRUE(index.body["paths"].contains("api/v1"));
    const Reply doc = call("GET", url);
    ASSERT_EQ(doc.status, 200);
    const json &schemas = doc.body["components"]["schemas"];
    const json &deviceClass = schemas["io.k8s.api.resource.v1.DeviceClass"];
    EXPECT_EQ(deviceClass["x-kubernetes-group-version-kind"][0]["kind"], "DeviceClass");
    EXPECT_FALSE(deviceClass["properties"]["spec"]["description"].get<std::string>().empty());
    const json &reservedFor = schemas["io.k8s.api.resource.v1.ResourceClaim"]["properties"]
                                     ["status"]["properties"]["reservedFor"];
    EXPECT_EQ(reservedFor["x-kubernetes-list-type"], "map");
    EXPECT_EQ(reservedFor["x-kubernetes-list-map-keys"], json({ "uid" }));
    const json &patch
        = doc.body["paths"]
                  ["/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaimtemplates/{name}"]
                  ["patch"];
    EXPECT_EQ(patch["x-kubernetes-group-version-kind"]["kind"], "ResourceClaimTemplate");
    bool fieldValidation = false;
    for (const json &parameter : patch["parameters"])
        fieldValidation = fieldValidation || parameter["name"] == "fieldValidation";
    EXPECT_TRUE(fieldValidation);
    EXPECT_EQ(call("GET", "/openapi/v3/apis/example.com/v1").status, 404);
}

TEST_F(WriteApiTest, TestHooksCompactExpireAndDropWatches)
{
    const std::string from = std::to_string(rev());
    RawClient watch(m_http->port());
    watch.send(QByteArray::fromStdString(httpRequest(
        "GET", std::string(kClaims) + "?watch=true&resourceVersion=" + from, kWriterToken)));
    ASSERT_TRUE(watch.waitFor("Transfer-Encoding: chunked"));
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("h")).status, 201);
    ASSERT_TRUE(watch.waitFor("\"type\":\"ADDED\""));

    ASSERT_EQ(
        callJson("POST", kClasses, json::parse(R"({"metadata":{"name":"second"}})")).status, 201);
    EXPECT_EQ(call("POST", std::string(test_hooks::kDropWatches)).status, 200);
    EXPECT_TRUE(watch.waitFor("\r\n0\r\n\r\n")); // the stream ended cleanly

    EXPECT_EQ(call("POST", std::string(test_hooks::kCompact)).status, 200);
    RawClient resumed(m_http->port());
    resumed.send(QByteArray::fromStdString(httpRequest(
        "GET", std::string(kClaims) + "?watch=true&resourceVersion=" + from, kWriterToken)));
    ASSERT_TRUE(resumed.waitFor("\"type\":\"ERROR\""));
    EXPECT_TRUE(resumed.received().contains("\"code\":410"));
    EXPECT_TRUE(resumed.received().contains("\"reason\":\"Expired\""));

    const Reply first = call("GET", std::string(kClasses) + "?limit=1");
    EXPECT_EQ(call("POST", std::string(test_hooks::kExpireContinue)).status, 200);
    const Reply next = call("GET",
        std::string(kClasses)
            + "?limit=1&continue=" + first.body["metadata"]["continue"].get<std::string>());
    EXPECT_EQ(next.status, 410);
    EXPECT_EQ(call("GET", std::string(test_hooks::kCompact)).status, 405);
}

TEST_F(WriteApiTest, TestHookRestartDropsConnectionsAndServesAgain)
{
    RawClient watch(m_http->port());
    watch.send(QByteArray::fromStdString(
        httpRequest("GET", std::string(kClaims) + "?watch=true", kWriterToken)));
    ASSERT_TRUE(watch.waitFor("Transfer-Encoding: chunked"));
    const quint16 port = m_http->port();
    EXPECT_EQ(call("POST", std::string(test_hooks::kRestart) + "?downMillis=200").status, 200);
    EXPECT_TRUE(watch.waitForClose());
    ASSERT_TRUE(spinUntil([&] { return m_http->port() == port; }, 5000));
    EXPECT_EQ(call("GET", "/version").status, 200);
}

TEST_F(WriteApiTest, ObjectsEnteringOrLeavingALabelSelectorAreAddedOrDeleted)
{
    ASSERT_EQ(callJson("POST", kClaims, claimNamed("l")).status, 201);
    RawClient watch(m_http->port());
    watch.send(QByteArray::fromStdString(httpRequest("GET",
        std::string(kClaims)
            + "?watch=true&labelSelector=team%3Dml&resourceVersion=" + std::to_string(rev()),
        kWriterToken)));
    ASSERT_TRUE(watch.waitFor("Transfer-Encoding: chunked"));
    const std::string target = std::string(kClaims) + "/l";
    ASSERT_EQ(call("PATCH", target, R"({"metadata":{"labels":{"team":"ml"}}})",
                  "application/merge-patch+json")
                  .status,
        200);
    ASSERT_TRUE(watch.waitFor("\"type\":\"ADDED\""));
    ASSERT_EQ(call("PATCH", target, R"({"metadata":{"labels":{"note":"x"}}})",
                  "application/merge-patch+json")
                  .status,
        200);
    ASSERT_TRUE(watch.waitFor("\"type\":\"MODIFIED\""));
    ASSERT_EQ(call("PATCH", target, R"({"metadata":{"labels":{"team":"web"}}})",
                  "application/merge-patch+json")
                  .status,
        200);
    ASSERT_TRUE(watch.waitFor("\"type\":\"DELETED\""));
    ASSERT_EQ(call("DELETE", target).status, 200);
    QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
    EXPECT_EQ(watch.received().count("\"type\":\"DELETED\""), 1); // it had left already
}

} // namespace
} // namespace dra::server
