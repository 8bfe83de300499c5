// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl template fields` as a user runs it: the structure the editor's form shows, as JSON.
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/support/dractl_run.h"

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
    const QString path
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("pair.yaml")), kTemplate);
    const dra::test::DractlRun run = dra::test::dractl({ QStringLiteral("template"),
        QStringLiteral("fields"), path, QStringLiteral("-o"), QStringLiteral("json") });
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

    const dra::test::DractlRun text
        = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("fields"), path });
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(
        text.out.find("request gpu: gpu.nvidia.com, count 2, 1 toleration(s)"), std::string::npos)
        << text.out;
}

TEST(TemplateCommandTest, BrokenYamlIsAnErrorWithItsLine)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dra::test::writeTestFile(dir.filePath(QStringLiteral("broken.yaml")),
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: a\n  "
        "name: b\n");
    const dra::test::DractlRun run = dra::test::dractl({ QStringLiteral("template"),
        QStringLiteral("fields"), path, QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(run.exitCode, 2);
    const json error = json::parse(run.out, nullptr, false);
    ASSERT_TRUE(error.contains("error")) << run.out;
    EXPECT_NE(
        error["error"].get<std::string>().find("broken.yaml:5:3: duplicate key"), std::string::npos)
        << run.out;
    EXPECT_NE(run.err.find("broken.yaml:5:3: duplicate key"), std::string::npos) << run.err;

    const dra::test::DractlRun missing = dra::test::dractl({ QStringLiteral("template"),
        QStringLiteral("fields"), dir.filePath(QStringLiteral("missing.yaml")) });
    EXPECT_EQ(missing.exitCode, 1);
}

// A template as an author keeps it, comments included.
constexpr const char *kCommentedPair = R"(# The NCCL probe: one GPU and a NIC.
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: probe
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          count: 1 # one per pod
      - name: nic
        firstAvailable:
        - name: fast
          deviceClassName: nic.example.com
)";

TEST(TemplateCommandTest, SetEditsOneRequestAsTheFormDoesAndKeepsComments)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("probe.yaml")), kCommentedPair);
    const QString selector
        = QStringLiteral(R"(device.attributes["gpu.nvidia.com"].productName == "H100")");
    const dra::test::DractlRun run = dra::test::dractl({ QStringLiteral("template"),
        QStringLiteral("set"), path, QStringLiteral("--request"), QStringLiteral("gpu"),
        QStringLiteral("--count"), QStringLiteral("4"), QStringLiteral("--selector"), selector });
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.out.rfind("# The NCCL probe: one GPU and a NIC.\n", 0), 0u) << run.out;
    EXPECT_NE(run.out.find("          count: 4 # one per pod\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find(selector.toStdString()), std::string::npos) << run.out;
    EXPECT_EQ(dra::test::readTestFile(path), std::string(kCommentedPair)) << "printed, not written";

    const dra::test::DractlRun inPlace = dra::test::dractl(
        { QStringLiteral("template"), QStringLiteral("set"), path, QStringLiteral("--request"),
            QStringLiteral("gpu"), QStringLiteral("--all"), QStringLiteral("-i") });
    ASSERT_EQ(inPlace.exitCode, 0) << inPlace.err;
    const dra::test::DractlRun fields = dra::test::dractl({ QStringLiteral("template"),
        QStringLiteral("fields"), path, QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(fields.exitCode, 0) << fields.err;
    const json form = json::parse(fields.out, nullptr, false);
    EXPECT_EQ(form["requests"][0]["exactly"]["allocationMode"], "All") << fields.out;
    const std::string written = dra::test::readTestFile(path);
    EXPECT_EQ(written.rfind("# The NCCL probe: one GPU and a NIC.\n", 0), 0u) << written;
    EXPECT_EQ(written.find("count:"), std::string::npos)
        << "All takes no count, and its comment goes with it";
}

TEST(TemplateCommandTest, SetNamesWhatItCannotEdit)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("probe.yaml")), kCommentedPair);
    const auto set = [&](QStringList options) {
        return dra::test::dractl(
            QStringList { QStringLiteral("template"), QStringLiteral("set"), path } + options);
    };
    const dra::test::DractlRun unnamed = set({ QStringLiteral("--count"), QStringLiteral("2") });
    EXPECT_EQ(unnamed.exitCode, 2);
    EXPECT_NE(
        unnamed.err.find("has 2 requests (gpu, nic): say which with --request"), std::string::npos)
        << unnamed.err;
    const dra::test::DractlRun missing = set({ QStringLiteral("--request"), QStringLiteral("tpu"),
        QStringLiteral("--count"), QStringLiteral("2") });
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("has no request \"tpu\" (requests: gpu, nic)"), std::string::npos)
        << missing.err;
    const dra::test::DractlRun alternatives = set({ QStringLiteral("--request"),
        QStringLiteral("nic"), QStringLiteral("--count"), QStringLiteral("2") });
    EXPECT_EQ(alternatives.exitCode, 2);
    EXPECT_NE(alternatives.err.find("lists alternatives (firstAvailable)"), std::string::npos)
        << alternatives.err;
    const dra::test::DractlRun zero = set({ QStringLiteral("--request"), QStringLiteral("gpu"),
        QStringLiteral("--count"), QStringLiteral("0") });
    EXPECT_EQ(zero.exitCode, 2);
    EXPECT_NE(zero.err.find("--count needs a whole number of at least 1"), std::string::npos)
        << zero.err;
    EXPECT_EQ(dra::test::readTestFile(path), std::string(kCommentedPair))
        << "nothing written on an error";
}

} // namespace

namespace {

// Three templates of one GPU; the second names a class that does not exist, the third a
// selector that does not compile.
constexpr const char *kChecked = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.nvidia.com}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: trainer, namespace: ml}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: typo, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.nvidia.comm}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: broken-selector, namespace: ml}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel: {expression: "device.driver =="}
)";

struct TemplateCheckRun
{
    int exitCode = -1;
    json document;
};

TemplateCheckRun templateCheck(const QTemporaryDir &dir, const QStringList &files)
{
    const QString inventory = dir.filePath(QStringLiteral("inventory.json"));
    if (!QFile::exists(inventory))
        dra::test::writeDemoInventory(inventory);
    const dra::test::DractlRun run = dra::test::dractl(
        QStringList { QStringLiteral("template"), QStringLiteral("check") } + files
        + QStringList { QStringLiteral("--inventory"), inventory, QStringLiteral("-o"),
            QStringLiteral("json") });
    TemplateCheckRun out { run.exitCode, json::parse(run.out, nullptr, false) };
    EXPECT_FALSE(out.document.is_discarded()) << run.out << run.err;
    return out;
}

} // namespace

TEST(TemplateCommandTest, CheckOfGoodTemplatesExitsZero)
{
    QTemporaryDir dir;
    const QString path = dra::test::writeTestFile(dir.filePath(QStringLiteral("good.yaml")),
        std::string(kChecked).substr(0, std::string(kChecked).find("---")));
    const TemplateCheckRun run = templateCheck(dir, { path });
    EXPECT_EQ(run.exitCode, 0) << run.document.dump(2);
    ASSERT_EQ(run.document["items"].size(), 1u);
    const json &item = run.document["items"][0];
    EXPECT_EQ(item["file"], path.toStdString());
    EXPECT_EQ(item["name"], "one-gpu");
    EXPECT_GT(item["requests"][0]["matching"].get<int>(), 0);
    EXPECT_GT(item["allocation"]["copiesThatFit"].get<int>(), 0);
    EXPECT_NE(item["release"].get<std::string>().find("newest release"), std::string::npos)
        << "an inventory file records no version";
    EXPECT_EQ(item["findings"], json::array());
}

TEST(TemplateCommandTest, CheckReportsFindingsPerTemplateAndExitsOne)
{
    QTemporaryDir dir;
    const QString path
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("mixed.yaml")), kChecked);
    const TemplateCheckRun run = templateCheck(dir, { path });
    EXPECT_EQ(run.exitCode, 1) << run.document.dump(2);
    const json &items = run.document["items"];
    ASSERT_EQ(items.size(), 3u) << "the Deployment is not a template: skipped";
    EXPECT_EQ(items[0]["findings"], json::array());
    EXPECT_EQ(items[1]["name"], "typo");
    EXPECT_EQ(items[1]["findings"][0], "request gpu: DeviceClass gpu.nvidia.comm does not exist");
    EXPECT_EQ(items[2]["kind"], "ResourceClaim");
    EXPECT_EQ(items[2]["requests"][0]["selectorErrors"].size(), 1u);

    const dra::test::DractlRun text
        = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("check"), path,
            QStringLiteral("--inventory"), dir.filePath(QStringLiteral("inventory.json")) });
    EXPECT_EQ(text.exitCode, 1);
    EXPECT_NE(text.out.find("finding: request gpu: DeviceClass gpu.nvidia.comm does not exist"),
        std::string::npos)
        << text.out;
}

TEST(TemplateCommandTest, CheckOfUnreadableInputExitsTwo)
{
    QTemporaryDir dir;
    const QString good = dra::test::writeTestFile(dir.filePath(QStringLiteral("good.yaml")),
        std::string(kChecked).substr(0, std::string(kChecked).find("---")));
    const QString broken
        = dra::test::writeTestFile(dir.filePath(QStringLiteral("broken.yaml")), "kind: [\n");
    const QString none = dra::test::writeTestFile(dir.filePath(QStringLiteral("none.yaml")),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    const TemplateCheckRun run = templateCheck(dir, { good, broken, none });
    EXPECT_EQ(run.exitCode, 2);
    const json &items = run.document["items"];
    ASSERT_EQ(items.size(), 3u);
    EXPECT_FALSE(items[0].contains("error")) << "the good file is still checked";
    EXPECT_TRUE(items[1].contains("error"));
    EXPECT_NE(items[2]["error"].get<std::string>().find("holds no ResourceClaimTemplate"),
        std::string::npos);

    const dra::test::DractlRun noInventory
        = dra::test::dractl({ QStringLiteral("template"), QStringLiteral("check"), good,
            QStringLiteral("--inventory"), dir.filePath(QStringLiteral("missing.yaml")) });
    EXPECT_EQ(noInventory.exitCode, 2) << noInventory.err;
}
