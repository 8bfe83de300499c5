// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl template fields` as a user runs it: the structure the editor's form shows, as JSON.
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/app/dractl_run.h"

namespace {

using nlohmann::json;

constexpr const char *kTemplate = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: pair
  namespace: ml
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          count: 2
          tolerations:
          - key: maintenance
            operator: Exists
      - name: nic
        firstAvailable:
        - name: fast
          deviceClassName: nic.example.com
          allocationMode: All
      constraints:
      - requests: [gpu, nic]
        matchAttribute: resource.kubernetes.io/pcieRoot
)";

TEST(TemplateCommandTest, FieldsPrintsTheFormsStructure)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dra::test::writeTestFile(dir.filePath(QStringLiteral("pair.yaml")), kTemplate);
    const dra::test::DractlRun run
        = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("fields"), path, QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const json fields = json::parse(run.out, nullptr, false);
    ASSERT_FALSE(fields.is_discarded()) << run.out;
    EXPECT_EQ(fields["kind"], "ResourceClaimTemplate");
    EXPECT_EQ(fields["namespace"], "ml");
    ASSERT_EQ(fields["requests"].size(), 2u);
    EXPECT_EQ(fields["requests"][0]["mode"], "exactly");
    EXPECT_EQ(fields["requests"][0]["exactly"]["count"], 2);
    EXPECT_EQ(fields["requests"][0]["exactly"]["allocationMode"], "ExactCount");
    EXPECT_EQ(fields["requests"][0]["exactly"]["tolerations"][0]["operator"], "Exists");
    EXPECT_EQ(fields["requests"][1]["mode"], "firstAvailable");
    EXPECT_EQ(fields["requests"][1]["firstAvailable"][0]["allocationMode"], "All");
    EXPECT_EQ(fields["constraints"][0]["matchAttribute"], "resource.kubernetes.io/pcieRoot");

    const dra::test::DractlRun text = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("fields"), path });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("request gpu: gpu.nvidia.com, count 2, 1 toleration(s)"), std::string::npos) << text.out;
}

TEST(TemplateCommandTest, BrokenYamlIsAnErrorWithItsLine)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dra::test::writeTestFile(dir.filePath(QStringLiteral("broken.yaml")),
                                                  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: a\n  name: b\n");
    const dra::test::DractlRun run
        = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("fields"), path, QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(run.exitCode, 2);
    const json error = json::parse(run.out, nullptr, false);
    ASSERT_TRUE(error.contains("error")) << run.out;
    EXPECT_NE(error["error"].get<std::string>().find("broken.yaml:5:3: duplicate key"), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("broken.yaml:5:3: duplicate key"), std::string::npos) << run.err;

    const dra::test::DractlRun missing = dra::test::dractl(
        { QStringLiteral("template"), QStringLiteral("fields"), dir.filePath(QStringLiteral("missing.yaml")) });
    EXPECT_EQ(missing.exitCode, 1);
}

} // namespace
