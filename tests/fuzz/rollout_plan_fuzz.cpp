// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for the RolloutPlan reader (core/rollout/rollout_plan.h): YAML, then validation
// of every field, the embedded ResourceClaimTemplate and its CEL included. The input is a plan
// file; `file:` references are not followed (no base folder). A valid plan is written out as
// JSON and as a summary. The driver: fuzz_driver.h.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <QString>

#include "core/rollout/rollout_plan.h"
#include "tests/fuzz/fuzz_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const dra::rollout::PlanParse parsed = dra::rollout::parsePlan(text);
    (void)parsed.errorText(QStringLiteral("plan.yaml"));
    if (parsed.plan) {
        (void)dra::rollout::planJson(*parsed.plan).dump();
        (void)dra::rollout::planSummary(*parsed.plan);
        (void)parsed.plan->workloadKey();
    }
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "rollout_plan_fuzz", &LLVMFuzzerTestOneInput,
            dra::fuzz::join(dra::fuzz::yamlTokens(),
                { "apiVersion: draconsole.io/v1alpha1\n", "kind: RolloutPlan\n", "baseline:",
                    "variant:", "deployment: ", "resourceClaimTemplate:", "file: ", "podTemplate:",
                    "removeResources: [nvidia.com/gpu]", "claimName: ", "containers: [a]",
                    "nodeSelector:", "traffic:", "mode: HTTPRoute", "mode: ReplicaRatio",
                    "httpRoute:", "baselineBackend: ", "canaryBackend: ", "service: ",
                    "mirrorPercent: ", "canary:", "replicas: ", "observation: ", "5s", "10m",
                    "1h30m", "-1s", "999999999999h", "0s", "shadow:", "enabled: false",
                    "cutover:", "steps:", "- 5", "- 100", "- percent: 100",
                    "gates:", "application:", "probe:", "path: /healthz", "port: ", "65536",
                    "minProbeSuccess: ", "prometheus:", "url: ", "errorRateQuery: ",
                    "latencyQuery: ", "maxErrorRate: ", "maxErrorRateIncrease: ",
                    "maxLatencyRatio: ", "node:", "identityAttribute: ", "identityField: ",
                    "negativeControl:", "selector: ", "deviceClassName: ", "stopConditions:",
                    "- type: ", "PendingTooLong", "WrongDeviceIdentity", "ReadinessFailures",
                    "ErrorRateAbove", "ClaimNotReleased", "after: ", "threshold: ", "rate: ",
                    "action: Pause", "action: Rollback", "requests:", "- name: gpu", "exactly:",
                    "device.attributes[\"gpu.nvidia.com\"].productName", "$deployment" }) });
}
#endif
