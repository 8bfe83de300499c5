// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Each injected fault shows where a rollout gate reads it: Events, conditions, the claim's
// device status, the pod's HTTP answer, a claim left reserved.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTcpSocket>

#include "tests/core/sandbox/control_plane_harness.h"

namespace dra::test {
namespace {

using model::Kind;
using nlohmann::json;
using sandbox::FaultKind;

class SandboxFaultsTest : public ControlPlaneHarness
{
protected:
    void inject(FaultKind kind, const std::string &deployment = "llm-dra")
    {
        plane().faults().add({ kind, "inference", deployment });
        plane().faultsChanged();
    }

    // The DRA deployment's one pod after the control plane settled.
    json deployOnePod()
    {
        put(gpuTemplate("inference", "one-gpu"));
        put(draDeployment("inference", "llm-dra", "one-gpu", 1));
        settle();
        const std::vector<json> pods = podsOf("inference", "llm-dra");
        EXPECT_EQ(pods.size(), 1u);
        return pods.empty() ? json() : pods[0];
    }

    json claimOf(const json &pod)
    {
        if (!pod.contains("/status/resourceClaimStatuses/0"_json_pointer)) {
            ADD_FAILURE() << "no claim recorded: " << pod.dump();
            return json();
        }
        const std::string name = pod["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
        return get(Kind::ResourceClaim, "inference", name).value_or(json());
    }

    static std::string condition(const json &pod, const std::string &type, const char *field)
    {
        for (const json &c : pod["status"].value("conditions", json::array())) {
            if (c["type"] == type)
                return c.value(field, "");
        }
        return {};
    }
};

TEST(FaultSetTest, ParsesKindsAndTargetsOneDeploymentOrAll)
{
    Result<sandbox::Fault> fault = sandbox::Fault::fromJson(
        { { "kind", "http-500" }, { "namespace", "inference" }, { "deployment", "llm-dra" } });
    ASSERT_TRUE(fault);
    sandbox::FaultSet faults;
    faults.add(*fault);
    EXPECT_TRUE(faults.applies(FaultKind::Http500, "inference", "llm-dra"));
    EXPECT_FALSE(faults.applies(FaultKind::Http500, "inference", "llm-server"));
    EXPECT_FALSE(faults.applies(FaultKind::NeverReady, "inference", "llm-dra"));
    faults.add(*sandbox::Fault::fromJson({ { "kind", "never-ready" } }));
    EXPECT_TRUE(faults.applies(FaultKind::NeverReady, "batch", ""));
    EXPECT_EQ(faults.clear(FaultKind::Http500), 1);
    EXPECT_EQ(faults.faults().size(), 1u);

    Result<sandbox::Fault> unknown = sandbox::Fault::fromJson({ { "kind", "disk-full" } });
    ASSERT_FALSE(unknown);
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("disk-full")));
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("allocation-fails")));
}

TEST_F(SandboxFaultsTest, AllocationFailsLeavesClaimsUnallocatedWithFailedSchedulingEvents)
{
    inject(FaultKind::AllocationFails);
    const json pod = deployOnePod();
    EXPECT_EQ(condition(pod, "PodScheduled", "status"), "False");
    EXPECT_EQ(condition(pod, "PodScheduled", "reason"), "Unschedulable");
    const json claim = claimOf(pod);
    ASSERT_TRUE(claim.is_object());
    EXPECT_FALSE(claim.contains("/status/allocation"_json_pointer));
    const std::vector<json> events = eventsAbout(pod, "FailedScheduling");
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0]["type"], "Warning");
    EXPECT_NE(events[0]["message"].get<std::string>().find("allocation-fails"), std::string::npos);

    // Retries count on the one Event instead of adding more.
    m_clock.advance(sandbox::PodScheduler::kEventRepeatMs);
    plane().faultsChanged();
    settle();
    const std::vector<json> again = eventsAbout(pod, "FailedScheduling");
    ASSERT_EQ(again.size(), 1u);
    EXPECT_GE(again[0]["count"].get<int>(), 2);
}

TEST_F(SandboxFaultsTest, AllocationHangsLeavesClaimsUnallocatedWithoutAWord)
{
    inject(FaultKind::AllocationHangs);
    const json pod = deployOnePod();
    EXPECT_FALSE(pod["spec"].contains("nodeName"));
    const json claim = claimOf(pod);
    ASSERT_TRUE(claim.is_object());
    EXPECT_FALSE(claim.contains("/status/allocation"_json_pointer));
    EXPECT_TRUE(eventsAbout(pod, "FailedScheduling").empty());
}

TEST_F(SandboxFaultsTest, DriverPrepareFailsKeepsThePodPendingWithAWarning)
{
    inject(FaultKind::DriverPrepareFails);
    const json pod = deployOnePod();
    EXPECT_EQ(pod["status"]["phase"], "Pending");
    EXPECT_TRUE(pod["spec"].contains("nodeName"));
    EXPECT_EQ(
        pod["status"]["containerStatuses"][0]["state"]["waiting"]["reason"], "ContainerCreating");
    const std::vector<json> events = eventsAbout(pod, "FailedPrepareDynamicResources");
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0]["type"], "Warning");
}

TEST_F(SandboxFaultsTest, WrongDevicePublishesAnotherDevicesUuid)
{
    inject(FaultKind::WrongDevice);
    const json claim = claimOf(deployOnePod());
    const json &result = claim["status"]["allocation"]["devices"]["results"][0];
    const std::string published = claim["status"]["devices"][0]["data"]["uuid"];
    EXPECT_FALSE(published.empty());
    EXPECT_NE(published, sliceUuid(result));
}

TEST_F(SandboxFaultsTest, NeverReadyRunsButIsNotReady)
{
    inject(FaultKind::NeverReady);
    const json pod = deployOnePod();
    EXPECT_EQ(pod["status"]["phase"], "Running");
    EXPECT_EQ(condition(pod, "Ready", "status"), "False");
    EXPECT_EQ(condition(pod, "Ready", "reason"), "ContainersNotReady");
    EXPECT_EQ((*get(Kind::Deployment, "inference", "llm-dra"))["status"]["readyReplicas"], 0);
}

TEST_F(SandboxFaultsTest, ClaimNotReleasedKeepsTheClaimOfADeletedPodReserved)
{
    inject(FaultKind::ClaimNotReleased);
    const json claim = claimOf(deployOnePod());
    ASSERT_TRUE(claim.is_object());
    json deployment = *get(Kind::Deployment, "inference", "llm-dra");
    deployment["spec"]["replicas"] = 0;
    put(deployment);
    settle();
    EXPECT_TRUE(podsOf("inference", "llm-dra").empty());
    const std::optional<json> kept
        = get(Kind::ResourceClaim, "inference", claim["metadata"]["name"]);
    ASSERT_TRUE(kept);
    EXPECT_EQ((*kept)["status"]["reservedFor"].size(), 1u);

    // Once the fault is cleared the claim goes as it should have.
    plane().faults().clear();
    plane().faultsChanged();
    settle();
    EXPECT_FALSE(get(Kind::ResourceClaim, "inference", claim["metadata"]["name"]));
}

// Reads one HTTP answer from the pod's responder, spinning the event loop.
std::pair<int, json> httpGet(const std::string &ip, int port)
{
    QTcpSocket socket;
    socket.connectToHost(QString::fromStdString(ip), quint16(port));
    QByteArray answer;
    QElapsedTimer timer;
    timer.start();
    bool sent = false;
    while (
        timer.elapsed() < 5000 && !(sent && socket.state() == QAbstractSocket::UnconnectedState)) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!sent && socket.state() == QAbstractSocket::ConnectedState) {
            socket.write("GET /healthz HTTP/1.1\r\nHost: pod\r\n\r\n");
            sent = true;
        }
        answer += socket.readAll();
    }
    const qsizetype split = answer.indexOf("\r\n\r\n");
    if (split < 0 || answer.size() < 12)
        return { 0, json() };
    return { answer.mid(9, 3).toInt(),
        json::parse(answer.mid(split + 4).toStdString(), nullptr, false) };
}

TEST_F(SandboxFaultsTest, PodsAnswerHttpWithTheirDevicesAndHttp500Fails)
{
    m_options.podResponders = true;
    const json pod = deployOnePod();
    const std::string ip = pod["status"]["podIP"];
    auto [status, body] = httpGet(ip, 8080);
    ASSERT_EQ(status, 200) << ip;
    EXPECT_EQ(body["pod"], pod["metadata"]["name"]);
    EXPECT_EQ(body["node"], pod["spec"]["nodeName"]);
    const json claim = claimOf(pod);
    ASSERT_EQ(body["devices"].size(), 1u);
    EXPECT_EQ(body["devices"][0], claim["status"]["devices"][0]["data"]["uuid"]);

    inject(FaultKind::Http500);
    EXPECT_EQ(httpGet(ip, 8080).first, 500);

    // The preset's own pods answer too; the Deployment's one pod stops answering when it goes.
    const int answering = plane().responders().count();
    json deployment = *get(Kind::Deployment, "inference", "llm-dra");
    deployment["spec"]["replicas"] = 0;
    put(deployment);
    settle();
    EXPECT_EQ(plane().responders().count(), answering - 1);
}

} // namespace
} // namespace dra::test
