// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The demo's pods/exec: what a container answers, and the protocol's pieces.
#include <QRegularExpression>

#include "core/sandbox/pod_exec.h"
#include "tests/core/sandbox/control_plane_harness.h"

namespace dra::test {
namespace pod_exec_test {

using model::Kind;
using nlohmann::json;

const std::vector<std::string> kListGpus = { "nvidia-smi", "-L" };

using PodExecTest = ControlPlaneHarness;

TEST_F(PodExecTest, NvidiaSmiListsExactlyTheGpuOfTheContainersClaim)
{
    put(gpuTemplate("inference", "one-gpu"));
    put(draDeployment("inference", "llm-dra", "one-gpu", 1));
    settle();
    const std::vector<json> pods = podsOf("inference", "llm-dra");
    ASSERT_EQ(pods.size(), 1u);
    const std::string pod = pods[0]["metadata"]["name"];
    const std::string claimName
        = pods[0]["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
    const json claim = *get(Kind::ResourceClaim, "inference", claimName);
    const std::string uuid = sliceUuid(claim["status"]["allocation"]["devices"]["results"][0]);
    ASSERT_FALSE(uuid.empty());

    Result<sandbox::ExecOutcome> listed = plane().execInPod("inference", pod, "", kListGpus);
    ASSERT_TRUE(listed) << listed.error().message.toStdString();
    EXPECT_EQ(listed->exitCode, 0);
    const QRegularExpression line(
        QStringLiteral("^GPU 0: NVIDIA [^\\n]+ \\(UUID: (GPU-[0-9a-f-]+)\\)\\n$"));
    const QRegularExpressionMatch match = line.match(QString::fromStdString(listed->out));
    ASSERT_TRUE(match.hasMatch()) << listed->out;
    EXPECT_EQ(match.captured(1).toStdString(), uuid);

    // The wrong-device fault: the container sees a neighbour GPU besides its own.
    plane().faults().add({ sandbox::FaultKind::WrongDevice, "inference", "llm-dra" });
    listed = plane().execInPod("inference", pod, "", kListGpus);
    ASSERT_TRUE(listed);
    EXPECT_NE(listed->out.find("(UUID: " + uuid + ")\n"), std::string::npos) << listed->out;
    EXPECT_NE(listed->out.find("GPU 1: "), std::string::npos) << listed->out;

    // A command the image lacks, a container the pod lacks, a pod that is not there.
    const Result<sandbox::ExecOutcome> missing
        = plane().execInPod("inference", pod, "", { "ls", "/" });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->exitCode, 127);
    EXPECT_NE(missing->err.find("\"ls\": executable file not found"), std::string::npos);
    const Result<sandbox::ExecOutcome> noContainer
        = plane().execInPod("inference", pod, "sidecar", kListGpus);
    ASSERT_FALSE(noContainer);
    EXPECT_EQ(noContainer.error().code, common::Error::Code::Invalid);
    EXPECT_EQ(
        noContainer.error().message.toStdString(), "container sidecar is not valid for pod " + pod);
    const Result<sandbox::ExecOutcome> noPod
        = plane().execInPod("inference", "nowhere", "", kListGpus);
    ASSERT_FALSE(noPod);
    EXPECT_EQ(noPod.error().code, common::Error::Code::NotFound);
}

TEST(PodExecProtocolTest, PathsMessagesAndTheFinalStatus)
{
    const auto target = sandbox::podExecTarget("/api/v1/namespaces/ml/pods/train-0/exec");
    ASSERT_TRUE(target);
    EXPECT_EQ(target->ns, "ml");
    EXPECT_EQ(target->pod, "train-0");
    EXPECT_FALSE(sandbox::podExecTarget("/api/v1/namespaces/ml/pods/train-0/log"));
    EXPECT_FALSE(sandbox::podExecTarget("/api/v1/namespaces/ml/services/x/exec"));
    EXPECT_FALSE(sandbox::podExecTarget("/api/v1/namespaces/ml/pods/train-0/exec/more"));

    const QByteArray message = sandbox::channelMessage(sandbox::ExecChannel::Stdout, "hi\n");
    EXPECT_EQ(message, QByteArray("\x01hi\n", 4));

    EXPECT_EQ(sandbox::execStatus({ "out", "", 0 }, kListGpus)["status"], "Success");
    const json failed = sandbox::execStatus({ "", "nope", 3 }, { "sh", "-c", "exit 3" });
    EXPECT_EQ(failed["status"], "Failure");
    EXPECT_EQ(failed["reason"], "NonZeroExitCode");
    EXPECT_EQ(
        failed["details"]["causes"][0], json({ { "reason", "ExitCode" }, { "message", "3" } }));
    EXPECT_EQ(failed["message"],
        "command terminated with non-zero exit code: error executing command [sh -c exit 3], "
        "exit code 3");

    const std::string mig = sandbox::migDeviceUuid("GPU-1", "gpu-0-mig-1g.10gb-0");
    EXPECT_TRUE(QRegularExpression(
        QStringLiteral("^MIG-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$"))
                    .match(QString::fromStdString(mig))
                    .hasMatch())
        << mig;
    EXPECT_NE(mig, sandbox::migDeviceUuid("GPU-2", "gpu-0-mig-1g.10gb-0"));
}

} // namespace pod_exec_test
} // namespace dra::test
