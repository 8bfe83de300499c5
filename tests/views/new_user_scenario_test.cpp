// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// What a new user does on `draconsole --demo`: writes, in the template editor, a template for
// one H100 with at least 40Gi and an RDMA NIC on the same PCIe root, sees it match and fit,
// applies it with a Deployment that uses it, and finds the claim made for the pod allocated —
// a GPU and a NIC that share a PCIe root.
#include <map>

#include <QSignalSpy>

#include <gtest/gtest.h>

#include "app/console/apply_dialog.h"
#include "app/console/main_window.h"
#include "core/inventory/snapshot.h"
#include "tests/views/console_demo_support.h"
#include "views/editor/template_editor.h"

namespace dra::test {
namespace {

const QString kH100BesideNic = QStringLiteral(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: h100-beside-nic
  namespace: training
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: >-
                device.attributes["gpu.nvidia.com"].productName.contains("H100") &&
                device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0
      - name: nic
        exactly:
          deviceClassName: dranet
          selectors:
          - cel:
              expression: device.attributes["dra.net"].rdma == true
      constraints:
      - requests: [gpu, nic]
        matchAttribute: resource.kubernetes.io/pcieRoot
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nccl-probe
  namespace: training
spec:
  replicas: 1
  selector:
    matchLabels: {app: nccl-probe}
  template:
    metadata:
      labels: {app: nccl-probe}
    spec:
      tolerations:  # the GPU nodes are tainted, as GPU operators taint them
      - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
      containers:
      - name: probe
        image: busybox
        resources:
          claims:
          - name: gpu-nic
      resourceClaims:
      - name: gpu-nic
        resourceClaimTemplateName: h100-beside-nic
)");

// The pcieRoot a device publishes, by pool and device name.
std::string pcieRootOf(
    const inventory::Snapshot &snapshot, const std::string &pool, const std::string &device)
{
    for (const inventory::Device *candidate : snapshot.devices())
        if (candidate->key.pool == pool && candidate->key.device == device)
            return candidate->attributeText("resource.kubernetes.io/pcieRoot");
    return {};
}

TEST(NewUserScenarioTest, H100BesideANicIsWrittenCheckedAppliedAndAllocated)
{
    ConsoleDemo demo(
        {}, QStringLiteral("mixed")); // what `draconsole --demo` runs: H100s with RDMA NICs
    console::MainWindow window(&demo.session());
    ASSERT_TRUE(demo.startAndSync()) << demo.failure().toStdString();

    views::TemplateEditor *editor = window.templateEditor();
    editor->setText(kH100BesideNic);
    // The editor rechecks as the mirrored inventory settles: wait for the check of the whole
    // inventory (both classes known) with its simulation.
    const alloc::TemplateCheck &check = editor->lastCheck();
    const bool settled = consoleWaitUntil([&] {
        return check.simulated && check.requests.size() == 2 && check.requests[0].classExists
            && check.requests[1].classExists && check.copiesThatFit > 0;
    });
    ASSERT_TRUE(settled) << check.error << check.blocked;
    EXPECT_GT(check.requests[0].matching, 0) << "H100s with at least 40Gi";
    EXPECT_GT(check.requests[1].matching, 0) << "RDMA NICs";

    console::ApplyDialog *dialog = window.applyToCluster();
    ASSERT_NE(dialog, nullptr);
    QSignalSpy dryRun(dialog, &console::ApplyDialog::dryRunDone);
    ASSERT_TRUE(consoleWaitUntil([&] { return dryRun.count() > 0; }))
        << dialog->statusText().toStdString();
    QPushButton *apply = dialogApplyButton(dialog);
    ASSERT_NE(apply, nullptr);
    ASSERT_TRUE(apply->isEnabled()) << dialog->statusText().toStdString();
    QSignalSpy applied(dialog, &console::ApplyDialog::applyDone);
    apply->click();
    ASSERT_TRUE(consoleWaitUntil([&] { return applied.count() > 0; }))
        << dialog->statusText().toStdString();

    // The Deployment's pod gets a claim from the template, and the scheduler allocates it.
    const model::Object *claim = nullptr;
    const auto allocatedClaim = [&]() -> const model::Object * {
        for (const auto &object :
            demo.session().inventory()->snapshot()->objects(model::Kind::ResourceClaim)) {
            const auto *resourceClaim = object->as<model::ResourceClaim>();
            if (object->key().ns == "training" && object->key().name.starts_with("nccl-probe-")
                && resourceClaim && resourceClaim->allocation)
                return object.get();
        }
        return nullptr;
    };
    ASSERT_TRUE(consoleWaitUntil([&] { return (claim = allocatedClaim()) != nullptr; }, 90'000))
        << dialog->statusText().toStdString();
    const auto &results = claim->as<model::ResourceClaim>()->allocation->results;
    ASSERT_EQ(results.size(), 2u);
    const auto snapshot = demo.session().inventory()->snapshot();
    std::map<std::string, std::string> rootByRequest;
    for (const auto &result : results)
        rootByRequest[result.request] = pcieRootOf(*snapshot, result.pool, result.device);
    ASSERT_EQ(rootByRequest.size(), 2u);
    EXPECT_FALSE(rootByRequest["gpu"].empty());
    EXPECT_EQ(rootByRequest["gpu"], rootByRequest["nic"]);
}

} // namespace
} // namespace dra::test
