// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl apply` and `dractl diff` against the real `dractl serve --demo`, and `dractl
// negative-control` on the demo inventory, as a user runs them: processes, files, stdout and
// exit statuses. What the server holds is read back with our own REST client.
#include <optional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/kube/client_config.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/rest_client.h"
#include "tests/support/demo_server.h"
#include "tests/support/dractl_run.h"

namespace {

using dra::test::DemoServer;
using dra::test::dractl;
using dra::test::DractlRun;
using dra::test::ignoreOpenSslThreadLeaks;
using dra::test::writeDemoInventory;
using dra::test::writeTestFile;
using nlohmann::json;

const char *kTemplatePath
    = "/apis/resource.k8s.io/v1/namespaces/training/resourceclaimtemplates/apply-gpu-40gi";

std::string gpuTemplate(const std::string &memory, const std::string &name = "apply-gpu-40gi",
    const std::string &ns = "training", const std::string &team = "")
{
    return "apiVersion: resource.k8s.io/v1\n"
           "kind: ResourceClaimTemplate\n"
           "metadata:\n"
           "  name: "
        + name
        + "\n"
          "  namespace: "
        + ns + "\n" + (team.empty() ? std::string() : "  labels:\n    team: " + team + "\n")
        + "spec:\n"
          "  spec:\n"
          "    devices:\n"
          "      requests:\n"
          "      - name: gpu\n"
          "        exactly:\n"
          "          deviceClassName: gpu.nvidia.com\n"
          "          selectors:\n"
          "          - cel:\n"
          "              expression: "
          "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\""
        + memory + "\")) >= 0\n";
}

class ApplyTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        ignoreOpenSslThreadLeaks(s_dir->path());
        s_server = new DemoServer(s_dir->path());
        ASSERT_TRUE(s_server->waitUntilServing()) << s_server->diagnostics();
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        delete s_dir;
    }

    static QString kubeconfig() { return s_server->kubeconfig(); }

    static QString write(const QString &name, const std::string &text)
    {
        return writeTestFile(s_dir->filePath(name), text);
    }

    static DractlRun run(const QString &command, const QString &file, QStringList extra = {})
    {
        QStringList arguments = { command, file, QStringLiteral("--kubeconfig"), kubeconfig() };
        return dractl(arguments + extra);
    }

    // The object as the server holds it now; null when it does not exist.
    static json live(const QString &path)
    {
        dra::Result<dra::kube::Kubeconfig> config = dra::kube::readKubeconfigFile(kubeconfig());
        EXPECT_TRUE(config.has_value());
        dra::Result<dra::kube::ClientConfig> client = dra::kube::resolveContext(*config, {});
        EXPECT_TRUE(client.has_value()) << client.error().message.toStdString();
        dra::kube::RestClient rest(*client);
        std::optional<dra::Result<dra::kube::RestResponse>> answer;
        QObject context;
        rest.get(path, {}, &context,
            [&](const dra::Result<dra::kube::RestResponse> &response) { answer = response; });
        QElapsedTimer waited;
        waited.start();
        while (!answer && waited.elapsed() < 30'000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        EXPECT_TRUE(answer.has_value());
        if (!answer || !*answer) {
            EXPECT_TRUE(answer && answer->error().code == dra::common::Error::Code::NotFound)
                << (answer ? answer->error().message.toStdString() : std::string("no answer"));
            return nullptr;
        }
        return json::parse((*answer)->body.toStdString());
    }

    static QTemporaryDir *s_dir;
    static DemoServer *s_server;
};

QTemporaryDir *ApplyTest::s_dir = nullptr;
DemoServer *ApplyTest::s_server = nullptr;

std::string expressionOf(const json &templ)
{
    return templ["spec"]["spec"]["devices"]["requests"][0]["exactly"]["selectors"][0]["cel"]
                ["expression"];
}

// One test, because each step depends on what the one before left on the server.
TEST_F(ApplyTest, CreatesThenUnchangedDryRunAndDiffChangeNothing)
{
    const QString file = write(QStringLiteral("template.yaml"), gpuTemplate("40Gi"));

    // Before it exists: diff says it would be created, a dry run creates nothing.
    DractlRun diff = run(QStringLiteral("diff"), file);
    EXPECT_EQ(diff.exitCode, 1) << diff.err;
    EXPECT_NE(diff.out.find("+++ dry-run/resourceclaimtemplate.resource.k8s.io/apply-gpu-40gi"),
        std::string::npos)
        << diff.out;
    DractlRun dry = run(QStringLiteral("apply"), file,
        { QStringLiteral("--dry-run"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(dry.exitCode, 0) << dry.err;
    EXPECT_EQ(json::parse(dry.out)["objects"][0]["result"], "created");
    EXPECT_TRUE(live(QString::fromLatin1(kTemplatePath)).is_null())
        << "a dry run created the template";

    // Apply creates it; a second apply of the same file changes nothing.
    DractlRun first
        = run(QStringLiteral("apply"), file, { QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const json created = json::parse(first.out)["objects"][0];
    EXPECT_EQ(created["kind"], "ResourceClaimTemplate");
    EXPECT_EQ(created["namespace"], "training");
    EXPECT_EQ(created["name"], "apply-gpu-40gi");
    EXPECT_EQ(created["result"], "created");
    const json stored = live(QString::fromLatin1(kTemplatePath));
    ASSERT_TRUE(stored.is_object());
    EXPECT_NE(expressionOf(stored).find("40Gi"), std::string::npos);

    DractlRun second = run(QStringLiteral("apply"), file);
    ASSERT_EQ(second.exitCode, 0) << second.err;
    EXPECT_NE(second.out.find("resourceclaimtemplate.resource.k8s.io/apply-gpu-40gi unchanged"),
        std::string::npos)
        << second.out;
    diff = run(QStringLiteral("diff"), file);
    EXPECT_EQ(diff.exitCode, 0) << diff.err;
    EXPECT_EQ(diff.out, "");

    // A new label: diff and the dry run name the change, the server keeps the old object.
    const QString changed = write(
        QStringLiteral("changed.yaml"), gpuTemplate("40Gi", "apply-gpu-40gi", "training", "ml"));
    diff = run(QStringLiteral("diff"), changed);
    EXPECT_EQ(diff.exitCode, 1) << diff.err;
    EXPECT_NE(diff.out.find("--- live/resourceclaimtemplate.resource.k8s.io/apply-gpu-40gi"),
        std::string::npos)
        << diff.out;
    EXPECT_NE(diff.out.find("\n+  labels:\n+    team: ml\n"), std::string::npos) << diff.out;
    EXPECT_EQ(diff.out.find("managedFields"), std::string::npos) << diff.out;
    EXPECT_EQ(diff.out.find("resourceVersion"), std::string::npos) << diff.out;
    EXPECT_EQ(diff.out.find("\n-"), std::string::npos) << "nothing was removed: " << diff.out;
    dry = run(QStringLiteral("apply"), changed,
        { QStringLiteral("--dry-run"), QStringLiteral("-o"), QStringLiteral("json") });
    ASSERT_EQ(dry.exitCode, 0) << dry.err;
    const json configured = json::parse(dry.out)["objects"][0];
    EXPECT_EQ(configured["result"], "configured");
    EXPECT_NE(configured["diff"].get<std::string>().find("team: ml"), std::string::npos);
    const json after = live(QString::fromLatin1(kTemplatePath));
    ASSERT_TRUE(after.is_object());
    EXPECT_EQ(after, stored) << "a dry run changed the stored template";

    // Applied for real, the change is there.
    DractlRun apply = run(QStringLiteral("apply"), changed);
    ASSERT_EQ(apply.exitCode, 0) << apply.err;
    EXPECT_NE(apply.out.find("apply-gpu-40gi configured"), std::string::npos) << apply.out;
    EXPECT_EQ(live(QString::fromLatin1(kTemplatePath))["metadata"]["labels"]["team"], "ml");

    // A template's spec is immutable: the dry run already says so, with the server's message.
    const QString respec = write(
        QStringLiteral("respec.yaml"), gpuTemplate("20Gi", "apply-gpu-40gi", "training", "ml"));
    diff = run(QStringLiteral("diff"), respec);
    EXPECT_EQ(diff.exitCode, 2) << diff.out;
    EXPECT_NE(diff.err.find("immutable"), std::string::npos) << diff.err;
    apply = run(QStringLiteral("apply"), respec, { QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(apply.exitCode, 1) << apply.err;
    const json refused = json::parse(apply.out)["objects"][0];
    EXPECT_EQ(refused["result"], "error");
    EXPECT_NE(refused["error"].get<std::string>().find("immutable"), std::string::npos) << refused;
    EXPECT_NE(
        expressionOf(live(QString::fromLatin1(kTemplatePath))).find("40Gi"), std::string::npos);
}

TEST_F(ApplyTest, ServerRefusalIsThatObjectsErrorWithTheStatusMessage)
{
    const QString file = write(QStringLiteral("two.yaml"),
        gpuTemplate("40Gi", "in-missing-ns", "no-such-namespace") + "---\n"
            + gpuTemplate("40Gi", "second-ok"));
    const DractlRun apply
        = run(QStringLiteral("apply"), file, { QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(apply.exitCode, 1) << apply.err;
    const json objects = json::parse(apply.out)["objects"];
    ASSERT_EQ(objects.size(), 2u);
    EXPECT_EQ(objects[0]["result"], "error");
    EXPECT_NE(objects[0]["error"].get<std::string>().find("no-such-namespace"), std::string::npos)
        << objects[0];
    EXPECT_EQ(objects[1]["result"], "created") << "one object's failure stops the others";
    EXPECT_NE(apply.err.find("no-such-namespace"), std::string::npos);

    const DractlRun diff = run(QStringLiteral("diff"), file);
    EXPECT_EQ(diff.exitCode, 2) << diff.out;
}

TEST_F(ApplyTest, MalformedManifestNamesFileAndLineAndSendsNothing)
{
    const QString file = write(QStringLiteral("broken.yaml"),
        gpuTemplate("40Gi", "never-applied")
            + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n");
    const DractlRun apply = run(QStringLiteral("apply"), file);
    EXPECT_EQ(apply.exitCode, 1);
    EXPECT_NE(apply.err.find("broken.yaml:21"), std::string::npos) << apply.err;
    EXPECT_TRUE(live(
        QStringLiteral(
            "/apis/resource.k8s.io/v1/namespaces/training/resourceclaimtemplates/never-applied"))
                    .is_null());
    const DractlRun diff = run(QStringLiteral("diff"), file);
    EXPECT_EQ(diff.exitCode, 2);
    EXPECT_NE(diff.err.find("broken.yaml:21"), std::string::npos) << diff.err;
}

TEST_F(ApplyTest, UnreachableServerIsAnErrorNamingTheContext)
{
    QFile source(kubeconfig());
    ASSERT_TRUE(source.open(QIODevice::ReadOnly));
    QByteArray text = source.readAll();
    // The same context, pointed at a port nothing listens on.
    const qsizetype at = text.indexOf("server: https://127.0.0.1:");
    ASSERT_GE(at, 0) << text.toStdString();
    const qsizetype end = text.indexOf('\n', at);
    text.replace(at, end - at, "server: https://127.0.0.1:1");
    const QString moved = write(QStringLiteral("unreachable.kubeconfig"), text.toStdString());
    const QString file = write(QStringLiteral("unreachable.yaml"), gpuTemplate("40Gi"));
    const DractlRun apply
        = dractl({ QStringLiteral("apply"), file, QStringLiteral("--kubeconfig"), moved });
    EXPECT_EQ(apply.exitCode, 1);
    EXPECT_NE(apply.err.find("127.0.0.1:1"), std::string::npos) << apply.err;
}

// negative-control on the demo inventory: no server needed.
class NegativeControlTest : public testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        writeDemoInventory(s_dir->filePath(QStringLiteral("demo.json")));
    }
    static void TearDownTestSuite() { delete s_dir; }

    static QString write(const QString &name, const std::string &text)
    {
        return writeTestFile(s_dir->filePath(name), text);
    }
    static DractlRun control(const QString &file, const QString &format)
    {
        return dractl({ QStringLiteral("negative-control"), file, QStringLiteral("--inventory"),
            s_dir->filePath(QStringLiteral("demo.json")), QStringLiteral("-o"), format });
    }

    static QTemporaryDir *s_dir;
};

QTemporaryDir *NegativeControlTest::s_dir = nullptr;

TEST_F(NegativeControlTest, OriginalMatchesNegativeMatchesNothingAndStaysPending)
{
    const QString file = write(QStringLiteral("gpu.yaml"), gpuTemplate("40Gi"));
    const DractlRun run = control(file, QStringLiteral("json"));
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    const json result = json::parse(run.out);
    EXPECT_GT(result["originalMatches"].get<int>(), 0);
    EXPECT_EQ(result["negativeMatches"], 0);
    EXPECT_EQ(result["negativeAllocated"], false);
    EXPECT_FALSE(result["pendingReason"].get<std::string>().empty());
    EXPECT_EQ(result["proves"], true);
    EXPECT_EQ(result["negativeControl"], "apply-gpu-40gi-negative-control");
    ASSERT_EQ(result["requests"].size(), 1u);
    // Close to the original: it still tests the same capacity.
    EXPECT_NE(result["requests"][0]["negativeSelector"].get<std::string>().find("memory"),
        std::string::npos);

    // The YAML is a manifest the simulator reads and cannot place anywhere.
    const DractlRun yaml = control(file, QStringLiteral("yaml"));
    ASSERT_EQ(yaml.exitCode, 0) << yaml.err;
    EXPECT_NE(yaml.out.find("name: apply-gpu-40gi-negative-control"), std::string::npos)
        << yaml.out;
    EXPECT_NE(yaml.out.find("deviceClassName: gpu.nvidia.com"), std::string::npos) << yaml.out;
    const QString negative = write(QStringLiteral("negative.yaml"), yaml.out);
    const DractlRun simulated = dractl({ QStringLiteral("simulate"), QStringLiteral("--claim"),
        negative, QStringLiteral("--inventory"), s_dir->filePath(QStringLiteral("demo.json")),
        QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(simulated.exitCode, 1) << simulated.out;
    EXPECT_EQ(json::parse(simulated.out)["allocated"], false);
    const DractlRun original = dractl({ QStringLiteral("simulate"), QStringLiteral("--claim"), file,
        QStringLiteral("--inventory"), s_dir->filePath(QStringLiteral("demo.json")),
        QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(original.exitCode, 0) << original.out;
}

TEST_F(NegativeControlTest, SelectorMatchingNothingProvesNothing)
{
    const QString file = write(QStringLiteral("none.yaml"), gpuTemplate("100Ti"));
    const DractlRun run = control(file, QStringLiteral("json"));
    EXPECT_EQ(run.exitCode, 1) << run.out;
    const json result = json::parse(run.out);
    EXPECT_EQ(result["originalMatches"], 0);
    EXPECT_EQ(result["proves"], false);
    EXPECT_NE(result["verdict"].get<std::string>().find("proves nothing"), std::string::npos);
}

TEST_F(NegativeControlTest, NotAClaimIsAnErrorNamingTheFile)
{
    const QString file = write(QStringLiteral("class.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
        "metadata:\n  name: x\nspec: {}\n");
    const DractlRun run = control(file, QStringLiteral("text"));
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find("class.yaml:1"), std::string::npos) << run.err;
}

} // namespace
