// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The Migration page presents the plan as core computes it: a row per workload with what it
// asks, the proposed form and the simulator's verdict, and for the selected one the proposal's
// reason, manifests and pod template change; names from the cluster are shown as text.
#include "views/inventory/migration_view.h"

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

using nlohmann::json;

alloc::LegacyWorkload workload(const std::string &ns, const std::string &kind,
    const std::string &name, const std::string &resource, int64_t count, int replicas)
{
    alloc::LegacyWorkload w;
    w.ns = ns;
    w.kind = kind;
    w.name = name;
    w.source = "object";
    w.replicas = replicas;
    w.requests.push_back({ "main", resource, count, 3 });
    return w;
}

json claimTemplate(const std::string &name)
{
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaimTemplate" },
        { "metadata", { { "name", name }, { "namespace", "ml" } } },
        { "spec",
            { { "spec",
                { { "devices",
                    { { "requests",
                        json::array({ { { "name", "gpu" },
                            { "exactly",
                                { { "deviceClassName", "gpu.nvidia.com" } } } } }) } } } } } } } };
}

alloc::MigrationProposal templateProposal(const std::string &name)
{
    alloc::MigrationProposal proposal;
    proposal.form = alloc::MigrationForm::ClaimTemplate;
    proposal.reason = "The release has no DRA-backed extended resources.";
    proposal.objects = { claimTemplate(name) };
    proposal.deviceClasses = { "gpu.nvidia.com" };
    proposal.templateName = name;
    proposal.claimName = "gpu";
    proposal.podTemplateChange = { { "removeResources", json::array({ "nvidia.com/gpu" }) },
        { "resourceClaims",
            json::array({ { { "name", "gpu" }, { "resourceClaimTemplateName", name } } }) } };
    proposal.notes = { "The MIG profile 1g.10gb becomes a selector on the profile attribute." };
    return proposal;
}

alloc::MigrationPlan samplePlan()
{
    alloc::MigrationPlan plan;
    plan.cluster = "prod";
    plan.rev = 42;
    plan.release = release::recordedRelease("v1.36.1");
    plan.release.gates.extendedResource = true;
    plan.source.text = "Deployments as the cache mirrors them; other workloads from their pods";

    alloc::WorkloadMigration server;
    server.workload = workload("inference", "Deployment", "llm-server", "nvidia.com/gpu", 1, 3);
    server.proposal.form = alloc::MigrationForm::ExtendedResourceClass;
    server.proposal.reason = "gpu.nvidia.com maps nvidia.com/gpu: the pod spec stays as it is.";
    server.proposal.deviceClasses = { "gpu.nvidia.com" };
    server.claimTemplate = templateProposal("llm-server-gpu");
    server.verdict.fits = true;
    server.verdict.replicas = 3;
    server.verdict.placed = 3;
    server.verdict.nodes = { { "dra-h100-0", 2 }, { "dra-h100-1", 1 } };
    server.verdict.reason = "3 node(s) whose device plugin offers the resource keep serving it "
                            "there and are left out";

    // A name as a cluster may hold it: shown as it is, never as markup.
    alloc::WorkloadMigration train;
    train.workload = workload("ml", "Job", "<b>train</b>", "nvidia.com/mig-1g.10gb", 2, 4);
    train.proposal = templateProposal("train-mig");
    train.verdict.fits = false;
    train.verdict.replicas = 4;
    train.verdict.placed = 1;
    train.verdict.nodes = { { "a100-0", 1 } };
    train.verdict.reason = "1 of 4 pod(s) get devices: no node has 2 free 1g.10gb partitions";

    alloc::WorkloadMigration fpga;
    fpga.workload = workload("ml", "Pod", "fpga", "example.com/fpga", 1, 1);
    fpga.proposal.reason = "No DeviceClass selects devices for example.com/fpga.";
    fpga.verdict.reason = fpga.proposal.reason;

    plan.workloads = { server, train, fpga };
    return plan;
}

TEST(MigrationViewTest, ARowPerWorkloadWithWhatItAsksTheProposalAndTheVerdict)
{
    MigrationView view;
    QAbstractItemModelTester tester(
        view.workloads()->model(), QAbstractItemModelTester::FailureReportingMode::Warning);
    const alloc::MigrationPlan p = samplePlan();
    view.setPlan(p);
    EXPECT_EQ(view.headline(),
        QStringLiteral("prod at revision 42 · %1 · extended resources served by DRA · "
                       "3 workload(s), 1 fit · workloads from: Deployments as the cache mirrors "
                       "them; other workloads from their pods")
            .arg(QString::fromStdString(p.release.text())));
    EXPECT_FALSE(view.isEmptyShown());
    QTreeWidget *rows = view.workloads();
    ASSERT_EQ(rows->topLevelItemCount(), 3);
    const auto row = [&](int i) {
        QStringList cells;
        for (int column = 0; column < rows->columnCount(); ++column)
            cells << rows->topLevelItem(i)->text(column);
        return cells;
    };
    EXPECT_EQ(row(0),
        QStringList({ QStringLiteral("Deployment inference/llm-server"),
            QStringLiteral("1 nvidia.com/gpu (main)"), QStringLiteral("extendedResourceClass"),
            QStringLiteral("fits"), QStringLiteral("dra-h100-0 (2), dra-h100-1") }));
    EXPECT_EQ(row(1),
        QStringList({ QStringLiteral("Job ml/<b>train</b>"),
            QStringLiteral("2 nvidia.com/mig-1g.10gb (main)"), QStringLiteral("claimTemplate"),
            QStringLiteral("does not fit"), QStringLiteral("a100-0") }));
    EXPECT_EQ(row(2),
        QStringList({ QStringLiteral("Pod ml/fpga"), QStringLiteral("1 example.com/fpga (main)"),
            QStringLiteral("none"), QStringLiteral("no proposal"), QStringLiteral("—") }));
    // Why a workload does not fit, on the verdict itself.
    EXPECT_TRUE(rows->topLevelItem(1)
                    ->toolTip(MigrationView::VerdictColumn)
                    .contains(QStringLiteral("no node has 2 free 1g.10gb partitions")));
}

TEST(MigrationViewTest, TheSelectedWorkloadsProposalManifestsAndVerdictAreDetailed)
{
    MigrationView view;
    const alloc::MigrationPlan p = samplePlan();
    view.setPlan(p);
    // The first workload is selected until the user picks another.
    EXPECT_EQ(view.selectedWorkload(), QStringLiteral("inference/Deployment/llm-server"));
    const QString server = view.details();
    EXPECT_TRUE(server.contains(QStringLiteral(
        "Proposal: extendedResourceClass — gpu.nvidia.com maps nvidia.com/gpu: the pod spec "
        "stays as it is.")))
        << server.toStdString();
    EXPECT_TRUE(server.contains(QStringLiteral("Fits — 3 pod(s) on dra-h100-0 (2), dra-h100-1")))
        << server.toStdString();
    EXPECT_TRUE(server.contains(QString::fromStdString(p.workloads[0].verdict.reason)));
    // Nothing to apply and the pod spec unchanged; the template form comes along for a rollout.
    EXPECT_TRUE(view.manifests().isEmpty());
    EXPECT_TRUE(view.podTemplateChange().isEmpty());
    EXPECT_TRUE(server.contains(QStringLiteral("Alternative: claimTemplate — ")))
        << server.toStdString();
    EXPECT_TRUE(view.manifests(true).contains(QStringLiteral("kind: ResourceClaimTemplate")))
        << view.manifests(true).toStdString();
    EXPECT_TRUE(view.manifests(true).contains(QStringLiteral("name: llm-server-gpu")));

    ASSERT_TRUE(view.selectWorkload(QStringLiteral("ml/Job/<b>train</b>")));
    const QString train = view.details();
    EXPECT_TRUE(train.contains(QStringLiteral(
        "Does not fit — 1 of 4 pod(s) get devices: no node has 2 free 1g.10gb partitions")))
        << train.toStdString();
    EXPECT_TRUE(train.contains(QStringLiteral("The MIG profile 1g.10gb becomes a selector")));
    EXPECT_FALSE(train.contains(QStringLiteral("Alternative:")));
    // The manifests as `dractl migrate plan -o json` gives them, and the change as JSON.
    const nlohmann::json expected = alloc::toJson(p.workloads[1].proposal);
    EXPECT_EQ(view.manifests(), QString::fromStdString(expected["manifests"].get<std::string>()));
    EXPECT_EQ(view.podTemplateChange(),
        QString::fromStdString(p.workloads[1].proposal.podTemplateChange.dump(2)));
    view.copyManifestsButton()->click();
    EXPECT_EQ(QGuiApplication::clipboard()->text(), view.manifests());

    ASSERT_TRUE(view.selectWorkload(QStringLiteral("ml/Pod/fpga")));
    EXPECT_TRUE(view.details().contains(
        QStringLiteral("No proposal — No DeviceClass selects devices for example.com/fpga.")))
        << view.details().toStdString();
    EXPECT_TRUE(view.manifests().isEmpty());
}

TEST(MigrationViewTest, TheSelectionStaysOnItsWorkloadAcrossUpdates)
{
    MigrationView view;
    alloc::MigrationPlan p = samplePlan();
    view.setPlan(p);
    ASSERT_TRUE(view.selectWorkload(QStringLiteral("ml/Pod/fpga")));
    // The cluster changed: a workload before it is gone, so its row moved up.
    p.workloads.erase(p.workloads.begin());
    p.rev = 43;
    view.setPlan(p);
    EXPECT_EQ(view.selectedWorkload(), QStringLiteral("ml/Pod/fpga"));
    EXPECT_EQ(view.workloads()->currentItem(), view.workloads()->topLevelItem(1));
    EXPECT_TRUE(view.details().startsWith(QStringLiteral("Pod ml/fpga")))
        << view.details().toStdString();
    // The selected workload itself gone: the first one is shown.
    p.workloads.pop_back();
    view.setPlan(p);
    EXPECT_EQ(view.selectedWorkload(), QStringLiteral("ml/Job/<b>train</b>"));
}

TEST(MigrationViewTest, NamesFromTheClusterAreShownAsText)
{
    MigrationView view;
    view.setPlan(samplePlan());
    ASSERT_TRUE(view.selectWorkload(QStringLiteral("ml/Job/<b>train</b>")));
    int shown = 0;
    for (const QLabel *label : view.findChildren<QLabel *>()) {
        if (!label->text().contains(QStringLiteral("<b>train</b>")))
            continue;
        ++shown;
        EXPECT_EQ(label->textFormat(), Qt::PlainText) << label->text().toStdString();
    }
    EXPECT_GE(shown, 1) << "the details name the workload";
    // Qt draws a tooltip that looks like HTML as HTML: the name goes in escaped.
    const QString tip = view.workloads()->topLevelItem(1)->toolTip(MigrationView::WorkloadColumn);
    EXPECT_FALSE(tip.contains(QStringLiteral("<b>"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("&lt;b&gt;train"))) << tip.toStdString();
}

TEST(MigrationViewTest, AnEmptyPlanSaysThereIsNothingToMigrate)
{
    MigrationView view;
    view.setPlan(samplePlan());
    alloc::MigrationPlan empty = samplePlan();
    empty.workloads.clear();
    view.setPlan(empty);
    EXPECT_TRUE(view.isEmptyShown());
    EXPECT_EQ(view.emptyText(),
        QStringLiteral("No workload asks for extended resources: nothing to migrate."));
    EXPECT_EQ(view.workloads()->topLevelItemCount(), 0);
    EXPECT_TRUE(view.selectedWorkload().isEmpty());
    EXPECT_TRUE(view.details().isEmpty());
    EXPECT_TRUE(view.headline().contains(QStringLiteral("0 workload(s), 0 fit")))
        << view.headline().toStdString();
}

} // namespace
} // namespace dra::views
