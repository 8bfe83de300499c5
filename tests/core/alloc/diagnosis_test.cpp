// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Pending diagnosis on the demo cluster (the `mixed` preset), which has a pod left Pending on
// a claim for a GPU model no node has.
#include "core/alloc/diagnosis.h"

#include <gtest/gtest.h>

#include "core/sandbox/presets.h"

namespace dra::alloc {
namespace {

using nlohmann::json;
using Status = DiagnosisStep::Status;

// The demo cluster plus `extra` objects.
std::shared_ptr<Cluster> demo(std::vector<json> extra = {})
{
    Result<json> list = sandbox::generateInventory({ "mixed", 0, 1 });
    std::vector<model::Object> objects;
    for (json &item : (*list)["items"])
        extra.push_back(std::move(item));
    for (const json &item : extra) {
        Result<model::Object> object = model::decodeObject(item);
        EXPECT_TRUE(object.has_value()) << (object ? "" : object.error().message.toStdString());
        if (object)
            objects.push_back(std::move(*object));
    }
    return std::make_shared<Cluster>(std::move(*Cluster::build(std::move(objects))));
}

const DiagnosisStep &step(const Diagnosis &d, const std::string &name)
{
    for (const DiagnosisStep &s : d.steps)
        if (s.name == name)
            return s;
    static DiagnosisStep none;
    ADD_FAILURE() << "no step " << name;
    return none;
}

TEST(DiagnosisTest, PendingPodIsStuckAtAllocationOwnedByTheScheduler)
{
    const json event = { { "apiVersion", "v1" }, { "kind", "Event" },
        { "metadata", { { "name", "b200-probe.1" }, { "namespace", "batch" } } },
        { "involvedObject",
            { { "kind", "Pod" }, { "namespace", "batch" }, { "name", "b200-probe" } } },
        { "reason", "FailedScheduling" },
        { "message", "0/15 nodes are available: 15 cannot allocate all claims." },
        { "type", "Warning" }, { "count", 3 } };
    const std::shared_ptr<Cluster> cluster = demo({ event });
    Result<Diagnosis> d
        = diagnosePod(*cluster, release::KubernetesRelease::newest(), "batch", "b200-probe");
    ASSERT_TRUE(d.has_value()) << d.error().message.toStdString();
    EXPECT_EQ(d->subject, "Pod batch/b200-probe");
    EXPECT_EQ(step(*d, "claims created").status, Status::Ok);
    const DiagnosisStep &allocated = step(*d, "claims allocated");
    EXPECT_EQ(allocated.status, Status::Failed);
    EXPECT_NE(allocated.owner.find("kube-scheduler"), std::string::npos);
    EXPECT_NE(allocated.detail.find("batch/needs-b200"), std::string::npos) << allocated.detail;
    ASSERT_EQ(allocated.events.size(), 1u);
    EXPECT_EQ(allocated.events[0],
        "FailedScheduling: 0/15 nodes are available: 15 cannot allocate all claims. (x3)");
    ASSERT_TRUE(d->simulation.has_value());
    ASSERT_FALSE(d->simulation->explanation.empty());
    EXPECT_EQ(d->simulation->explanation[0].failedAt, FunnelStep::Selectors);
    EXPECT_EQ(step(*d, "pod bound").status, Status::Skipped);
    EXPECT_EQ(d->verdict.rfind("Stuck at \"claims allocated\"", 0), 0u) << d->verdict;
    const json j = diagnosisJson(*d);
    EXPECT_EQ(j["steps"][1]["status"], "failed");
    EXPECT_EQ(j["simulation"]["explanation"][0]["failedAt"], "selectors");
}

TEST(DiagnosisTest, RunningPodIsFine)
{
    const std::shared_ptr<Cluster> cluster = demo();
    Result<Diagnosis> d
        = diagnosePod(*cluster, release::KubernetesRelease::newest(), "training", "trainer-0");
    ASSERT_TRUE(d.has_value());
    for (const DiagnosisStep &s : d->steps)
        EXPECT_EQ(s.status, Status::Ok) << s.name << ": " << s.detail;
    EXPECT_EQ(d->verdict, "Running and ready on node h100-001.");
}

TEST(DiagnosisTest, MissingTemplateStopsTheChainAtClaimCreation)
{
    const json pod = { { "apiVersion", "v1" }, { "kind", "Pod" },
        { "metadata", { { "name", "orphan" }, { "namespace", "batch" } } },
        { "spec",
            { { "containers", json::array({ { { "name", "c" }, { "image", "busybox" } } }) },
                { "resourceClaims",
                    json::array({ { { "name", "gpu" },
                        { "resourceClaimTemplateName", "no-such-template" } } }) } } },
        { "status", { { "phase", "Pending" } } } };
    const std::shared_ptr<Cluster> cluster = demo({ pod });
    Result<Diagnosis> d
        = diagnosePod(*cluster, release::KubernetesRelease::newest(), "batch", "orphan");
    ASSERT_TRUE(d.has_value());
    const DiagnosisStep &created = step(*d, "claims created");
    EXPECT_EQ(created.status, Status::Failed);
    EXPECT_NE(created.owner.find("resource claim controller"), std::string::npos);
    EXPECT_NE(created.detail.find("ResourceClaimTemplate batch/no-such-template does not exist"),
        std::string::npos);
    EXPECT_EQ(step(*d, "claims allocated").status, Status::Skipped);
}

TEST(DiagnosisTest, ClaimShowsItsAllocationAndItsPods)
{
    const std::shared_ptr<Cluster> cluster = demo();
    Result<Diagnosis> shared
        = diagnoseClaim(*cluster, release::KubernetesRelease::newest(), "inference", "shared-l40s");
    ASSERT_TRUE(shared.has_value());
    EXPECT_EQ(step(*shared, "claim allocated").detail, "allocated 1 device(s) on node l40s-001");
    EXPECT_NE(
        step(*shared, "reserved for pods").detail.find("reranker-0 (Running on l40s-001, ready)"),
        std::string::npos)
        << step(*shared, "reserved for pods").detail;

    Result<Diagnosis> pending
        = diagnoseClaim(*cluster, release::KubernetesRelease::newest(), "batch", "needs-b200");
    ASSERT_TRUE(pending.has_value());
    EXPECT_EQ(step(*pending, "claim allocated").status, Status::Failed);
    EXPECT_FALSE(
        diagnoseClaim(*cluster, release::KubernetesRelease::newest(), "batch", "nope").has_value());
}

} // namespace
} // namespace dra::alloc
