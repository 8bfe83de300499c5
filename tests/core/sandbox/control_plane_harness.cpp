// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/core/sandbox/control_plane_harness.h"

#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/sandbox_api.h"

namespace dra::test {

using nlohmann::json;

void ControlPlaneHarness::SetUp()
{
    ASSERT_TRUE(m_dir.isValid());
    Result<store::CacheDb> cache = store::CacheDb::open(
        m_dir.filePath(QStringLiteral("cache.db")), store::OpenMode::ReadWrite);
    ASSERT_TRUE(cache) << cache.error().message.toStdString();
    m_cache.emplace(std::move(*cache));
    // The smallest mixed cluster: 1 H100, 2 A100 MIG, 2 L40S and 3 device-plugin nodes.
    Result<void> seeded = sandbox::seedDemoCache(*m_cache, "demo", { "mixed", 1, 1 });
    ASSERT_TRUE(seeded) << seeded.error().message.toStdString();
    m_writer = std::make_unique<server::ObjectWriter>(*m_cache, "demo");
}

sandbox::ControlPlane &ControlPlaneHarness::plane()
{
    if (!m_plane)
        m_plane = std::make_unique<sandbox::ControlPlane>(*m_writer, m_clock, m_options);
    return *m_plane;
}

void ControlPlaneHarness::settle()
{
    Result<void> settled = plane().settle();
    ASSERT_TRUE(settled) << settled.error().message.toStdString();
    m_clock.advance(m_options.startDelayMs);
    settled = plane().settle();
    ASSERT_TRUE(settled) << settled.error().message.toStdString();
}

void ControlPlaneHarness::put(const json &object)
{
    const model::KindInfo *kind
        = model::kindOf(object["apiVersion"].get<std::string>(), object["kind"].get<std::string>());
    ASSERT_NE(kind, nullptr);
    const std::string ns = object["metadata"].value("namespace", "");
    const std::string name = object["metadata"]["name"];
    json stored = object;
    const std::optional<json> live = get(kind->kind, ns, name);
    if (live) {
        stored["metadata"]["uid"] = (*live)["metadata"]["uid"];
        stored["metadata"]["creationTimestamp"] = (*live)["metadata"]["creationTimestamp"];
        stored["metadata"]["generation"] = (*live)["metadata"].value("generation", 1) + 1;
        if (!stored.contains("status") && live->contains("status"))
            stored["status"] = (*live)["status"];
    } else {
        stored["metadata"]["uid"] = "test-" + name;
        stored["metadata"]["creationTimestamp"] = "2026-12-01T00:00:00Z";
        stored["metadata"]["generation"] = 1;
    }
    Result<std::vector<int64_t>> committed = m_writer->commit(
        { { live ? model::ChangeType::Modified : model::ChangeType::Added, stored } });
    ASSERT_TRUE(committed) << committed.error().message.toStdString();
}

void ControlPlaneHarness::remove(model::Kind kind, const std::string &ns, const std::string &name)
{
    const std::optional<json> live = get(kind, ns, name);
    ASSERT_TRUE(live) << name;
    Result<std::vector<int64_t>> committed
        = m_writer->commit({ { model::ChangeType::Deleted, *live } });
    ASSERT_TRUE(committed) << committed.error().message.toStdString();
}

std::optional<json> ControlPlaneHarness::get(
    model::Kind kind, const std::string &ns, const std::string &name)
{
    Result<std::optional<server::ObjectWriter::Stored>> stored
        = m_writer->get(model::kindInfo(kind), ns, name);
    EXPECT_TRUE(stored);
    if (!stored || !*stored)
        return std::nullopt;
    return (*stored)->json;
}

std::vector<json> ControlPlaneHarness::list(model::Kind kind, const std::string &ns)
{
    std::vector<json> out;
    Result<std::vector<server::ObjectWriter::Stored>> stored
        = m_writer->list(model::kindInfo(kind), ns);
    EXPECT_TRUE(stored);
    if (stored) {
        for (server::ObjectWriter::Stored &object : *stored)
            out.push_back(std::move(object.json));
    }
    return out;
}

std::vector<json> ControlPlaneHarness::podsOf(const std::string &ns, const std::string &deployment)
{
    std::vector<json> out;
    for (json &pod : list(model::Kind::Pod, ns)) {
        if (pod["metadata"]["name"].get<std::string>().starts_with(deployment + '-'))
            out.push_back(std::move(pod));
    }
    return out;
}

std::vector<json> ControlPlaneHarness::eventsAbout(const json &object, const std::string &reason)
{
    std::vector<json> out;
    for (json &event : list(model::Kind::Event, object["metadata"].value("namespace", ""))) {
        if (event["involvedObject"].value("uid", "") == object["metadata"].value("uid", "")
            && event.value("reason", "") == reason)
            out.push_back(std::move(event));
    }
    return out;
}

std::string ControlPlaneHarness::sliceUuid(const json &result)
{
    for (const json &slice : list(model::Kind::ResourceSlice)) {
        if (slice["spec"]["driver"] != result["driver"]
            || slice["spec"]["pool"]["name"] != result["pool"])
            continue;
        for (const json &device : slice["spec"].value("devices", json::array())) {
            if (device["name"] == result["device"])
                return device["attributes"]["uuid"]["string"];
        }
    }
    return {};
}

json ControlPlaneHarness::gpuTemplate(const std::string &ns, const std::string &name)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaimTemplate" },
        { "metadata", { { "name", name }, { "namespace", ns } } },
        { "spec",
            { { "spec",
                { { "devices",
                    { { "requests",
                        json::array({ { { "name", "gpu" },
                            { "exactly",
                                { { "deviceClassName", "gpu.nvidia.com" } } } } }) } } } } } } } };
}

namespace {

json deployment(const std::string &ns, const std::string &name, int replicas, json podSpec)
{
    podSpec["tolerations"] = json::array(
        { { { "key", "nvidia.com/gpu" }, { "operator", "Exists" }, { "effect", "NoSchedule" } } });
    return { { "apiVersion", "apps/v1" }, { "kind", "Deployment" },
        { "metadata", { { "name", name }, { "namespace", ns } } },
        { "spec",
            { { "replicas", replicas }, { "selector", { { "matchLabels", { { "app", name } } } } },
                { "template",
                    { { "metadata", { { "labels", { { "app", name } } } } },
                        { "spec", std::move(podSpec) } } } } } };
}

} // namespace

json ControlPlaneHarness::draDeployment(
    const std::string &ns, const std::string &name, const std::string &templateName, int replicas)
{
    return deployment(ns, name, replicas,
        { { "nodeSelector", { { "sandbox.dra-console.io/gpu-stack", "dra" } } },
            { "resourceClaims",
                json::array(
                    { { { "name", "gpu" }, { "resourceClaimTemplateName", templateName } } }) },
            { "containers",
                json::array({ { { "name", "server" }, { "image", "vllm/vllm-openai:v0.8.5" },
                    { "ports", json::array({ { { "containerPort", 8080 } } }) },
                    { "resources",
                        { { "claims", json::array({ { { "name", "gpu" } } }) } } } } }) } });
}

json ControlPlaneHarness::devicePluginDeployment(
    const std::string &ns, const std::string &name, int gpus, int replicas)
{
    return deployment(ns, name, replicas,
        { { "nodeSelector", { { "sandbox.dra-console.io/gpu-stack", "device-plugin" } } },
            { "containers",
                json::array({ { { "name", "server" }, { "image", "vllm/vllm-openai:v0.8.5" },
                    { "resources",
                        { { "limits",
                            { { "nvidia.com/gpu", std::to_string(gpus) } } } } } } }) } });
}

json ControlPlaneHarness::webDeployment(
    const std::string &ns, const std::string &name, int replicas)
{
    return deployment(ns, name, replicas,
        { { "containers",
            json::array({ { { "name", "server" }, { "image", "nginx:1.27" },
                { "ports",
                    json::array({ { { "name", "http" }, { "containerPort", 8000 } } }) } } }) } });
}

json ControlPlaneHarness::service(const std::string &ns, const std::string &name, int port)
{
    return { { "apiVersion", "v1" }, { "kind", "Service" },
        { "metadata", { { "name", name }, { "namespace", ns } } },
        { "spec",
            { { "selector", { { "app", name } } },
                { "ports",
                    json::array({ { { "name", "http" }, { "port", port },
                        { "targetPort", "http" } } }) } } } };
}

void ControlPlaneHarness::startApiServer(const std::string &token)
{
    server::ApiServerOptions options;
    options.cluster = "demo";
    options.token = token;
    options.writer = &*m_cache;
    m_api = std::make_unique<server::ApiServer>(*m_cache, options);
    m_http = std::make_unique<server::HttpServer>(m_api->handler());
    sandbox::installSandboxApi(*m_api, plane());
    ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0));
}

} // namespace dra::test
