// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The rollout's kinds: Deployments, ReplicaSets, DaemonSets, Services and HTTPRoutes decode
// into what a rollout reads (replicas, pod templates, selectors, route weights and mirrors).
#include <cstdio>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/model/object.h"
#include "core/model/schema.h"

namespace dra::model {
namespace {

using nlohmann::json;

Object decodeWorkload(const char *text)
{
    Result<Object> object = decodeObject(json::parse(text));
    EXPECT_TRUE(object.has_value()) << (object ? "" : object.error().message.toStdString());
    return object.value_or(Object {});
}

TEST(WorkloadKindsTest, KubectlNamesResolve)
{
    ASSERT_NE(findKind("deploy"), nullptr);
    EXPECT_EQ(findKind("deploy")->kind, Kind::Deployment);
    EXPECT_EQ(findKind("rs")->kind, Kind::ReplicaSet);
    EXPECT_EQ(findKind("ds")->kind, Kind::DaemonSet);
    EXPECT_EQ(findKind("svc")->kind, Kind::Service);
    ASSERT_NE(findKind("httproutes.gateway.networking.k8s.io"), nullptr);
    EXPECT_EQ(findKind("httproutes.gateway.networking.k8s.io")->kind, Kind::HTTPRoute);
    EXPECT_EQ(findKind("deployments.apps")->group, kAppsGroup);
    EXPECT_TRUE(isWorkloadKind(Kind::Service));
    EXPECT_FALSE(isWorkloadKind(Kind::Pod));
}

TEST(WorkloadKindsTest, DeploymentKeepsItsPodTemplateAndStatus)
{
    const Object object = decodeWorkload(R"({
      "apiVersion": "apps/v1", "kind": "Deployment",
      "metadata": {"name": "llm-server", "namespace": "inference", "generation": 4},
      "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "llm-server"}},
               "template": {"metadata": {"labels": {"app": "llm-server", "track": "stable"}},
                            "spec": {"nodeSelector": {"pool": "legacy"},
                                     "containers": [{"name": "server", "image": "vllm:0.8",
                                                     "resources": {"limits": {"nvidia.com/gpu": 1}}}]}}},
      "status": {"observedGeneration": 4, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 2,
                 "availableReplicas": 2, "conditions": [{"type": "Available", "status": "True"}]}
    })");
    const Deployment *d = object.as<Deployment>();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->replicas, 3);
    EXPECT_EQ(d->readyReplicas, 2);
    EXPECT_EQ(d->observedGeneration, 4);
    ASSERT_EQ(d->podTemplate.pod.containers.size(), 1u);
    EXPECT_EQ(d->podTemplate.pod.devicePluginGpus(), 1);
    EXPECT_EQ(d->podTemplate.pod.nodeSelector, (StringPairs { { "pool", "legacy" } }));
    EXPECT_TRUE(d->selector.matches(d->podTemplate.labels));
    EXPECT_FALSE(d->selector.matches({ { "app", "other" } }));
    ASSERT_EQ(d->conditions.size(), 1u);
    EXPECT_EQ(d->conditions[0].type, "Available");
}

TEST(WorkloadKindsTest, ReplicasDefaultToOneAndExpressionsAreNotGuessed)
{
    const Object object = decodeWorkload(R"({
      "apiVersion": "apps/v1", "kind": "ReplicaSet",
      "metadata": {"name": "llm-server-5f7d", "namespace": "inference"},
      "spec": {"selector": {"matchLabels": {"app": "x"},
                            "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a"]}]}}
    })");
    const ReplicaSet *r = object.as<ReplicaSet>();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->replicas, 1);
    EXPECT_EQ(r->selector.matchExpressions, 1);
    // Without evaluating expressions a match cannot be claimed.
    EXPECT_FALSE(r->selector.matches({ { "app", "x" }, { "tier", "a" } }));
}

TEST(WorkloadKindsTest, ServicePortsKeepNamedAndNumberedTargets)
{
    const Object object = decodeWorkload(R"({
      "apiVersion": "v1", "kind": "Service", "metadata": {"name": "llm-server", "namespace": "inference"},
      "spec": {"selector": {"app": "llm-server"}, "clusterIP": "10.96.0.20",
               "ports": [{"name": "http", "port": 80, "targetPort": "http"},
                         {"name": "metrics", "port": 9090, "targetPort": 9091, "protocol": "TCP"}]}
    })");
    const Service *service = object.as<Service>();
    ASSERT_NE(service, nullptr);
    EXPECT_EQ(service->type, "ClusterIP");
    ASSERT_EQ(service->ports.size(), 2u);
    EXPECT_EQ(service->ports[0].targetPort, "http");
    EXPECT_EQ(service->ports[1].targetPort, "9091");
    EXPECT_EQ(service->ports[1].port, 9090);
}

TEST(WorkloadKindsTest, HttpRouteWeightsAndMirrorsAreRead)
{
    const char *route = R"({
      "apiVersion": "gateway.networking.k8s.io/%s", "kind": "HTTPRoute",
      "metadata": {"name": "llm-server", "namespace": "inference"},
      "spec": {"parentRefs": [{"name": "public", "namespace": "gateways"}],
               "hostnames": ["llm.example.com"],
               "rules": [{"backendRefs": [{"name": "llm-server", "port": 80, "weight": 95},
                                          {"name": "llm-server-dra", "port": 80, "weight": 5},
                                          {"name": "fallback", "port": 80}],
                          "filters": [{"type": "RequestMirror",
                                       "requestMirror": {"backendRef": {"name": "llm-server-dra", "port": 80}}},
                                      {"type": "RequestHeaderModifier", "requestHeaderModifier": {}}]}]}
    })";
    for (const char *version : { "v1", "v1beta1" }) {
        char text[2048];
        std::snprintf(text, sizeof text, route, version);
        const Object object = decodeWorkload(text);
        const HTTPRoute *r = object.as<HTTPRoute>();
        ASSERT_NE(r, nullptr) << version;
        EXPECT_EQ(r->parents, std::vector<std::string> { "gateways/public" });
        ASSERT_EQ(r->rules.size(), 1u);
        ASSERT_EQ(r->rules[0].backends.size(), 3u);
        EXPECT_EQ(r->rules[0].backends[0].weight, 95);
        EXPECT_EQ(r->rules[0].backends[1].weight, 5);
        EXPECT_EQ(r->rules[0].backends[2].weight, 1); // the Gateway API default
        ASSERT_EQ(r->rules[0].mirrors.size(), 1u);
        EXPECT_EQ(r->rules[0].mirrors[0].name, "llm-server-dra");
    }
}

TEST(WorkloadKindsTest, UnknownVersionsAndBadFieldsAreNamedErrors)
{
    Result<Object> old
        = decodeObject(json::parse(R"({"apiVersion": "apps/v1beta2", "kind": "Deployment",
        "metadata": {"name": "a", "namespace": "n"}})"));
    ASSERT_FALSE(old.has_value());
    EXPECT_NE(
        old.error().message.toStdString().find("apps/v1beta2 is not supported"), std::string::npos)
        << old.error().message.toStdString();
    Result<Object> bad = decodeObject(json::parse(R"({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "a", "namespace": "n"}, "spec": {"replicas": "three"}})"));
    ASSERT_FALSE(bad.has_value());
    const std::string message = bad.error().message.toStdString();
    EXPECT_NE(message.find("Deployment n/a"), std::string::npos) << message;
    EXPECT_NE(message.find("spec.replicas"), std::string::npos) << message;
}

TEST(WorkloadKindsTest, SchemasExplainTheRolloutFields)
{
    const SchemaNode *deployment = schemaFor("apps/v1", "Deployment");
    ASSERT_NE(deployment, nullptr);
    const SchemaNode *containers = schemaAt(deployment, "spec.template.spec.containers");
    ASSERT_NE(containers, nullptr);
    EXPECT_TRUE(isKeyedList(containers));
    const SchemaNode *route = schemaFor("gateway.networking.k8s.io/v1", "HTTPRoute");
    ASSERT_NE(route, nullptr);
    EXPECT_NE(schemaAt(route, "spec.rules.backendRefs.weight"), nullptr);
    EXPECT_NE(schemaFor("apps/v1", "DaemonSetList"), nullptr);
    EXPECT_NE(schemaFor("v1", "Service"), nullptr);
}

} // namespace
} // namespace dra::model
