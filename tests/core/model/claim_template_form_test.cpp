// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/claim_template_form.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "core/model/yaml_codec.h"

namespace dra::model {
namespace {

const QString kOrigin = QStringLiteral("template.yaml");

// A template with something the form does not model at every level.
constexpr std::string_view kTemplate = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: two-gpus
  namespace: ml
  labels:
    team: vision
spec:
  metadata:
    annotations:
      owner: vision
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: device.attributes["gpu.nvidia.com"].productName == "H100"
          count: 2
          derivedAttributes:
          - name: derived/numa
            expression: device.attributes["gpu.nvidia.com"].numaNode
      - name: nic
        futureField: keep me
        firstAvailable:
        - name: fast
          deviceClassName: nic.example.com
          tolerations:
          - key: maintenance
            operator: Exists
            effect: NoSchedule
        - name: slow
          deviceClassName: nic-slow.example.com
          allocationMode: All
      constraints:
      - requests:
        - gpu
        - nic
        matchAttribute: resource.kubernetes.io/pcieRoot
      config:
      - requests:
        - gpu
        opaque:
          driver: gpu.nvidia.com
          parameters:
            apiVersion: gpu.nvidia.com/v1beta1
            kind: GpuConfig
            sharing:
              strategy: TimeSlicing
)";

nlohmann::json semantic(std::string_view text)
{
    Result<nlohmann::json> value = parseYaml(text, kOrigin);
    EXPECT_TRUE(value.has_value()) << (value ? "" : value.error().message.toStdString());
    return value ? *value : nlohmann::json();
}

ClaimTemplateForm readOrFail(std::string_view text)
{
    Result<ClaimTemplateForm> form = readClaimTemplateForm(text, kOrigin);
    EXPECT_TRUE(form.has_value()) << (form ? "" : form.error().message.toStdString());
    return form ? *form : ClaimTemplateForm();
}

std::string writeOrFail(std::string_view text, const ClaimTemplateForm &form)
{
    Result<std::string> written = writeClaimTemplateForm(text, form, kOrigin);
    EXPECT_TRUE(written.has_value()) << (written ? "" : written.error().message.toStdString());
    return written ? *written : std::string();
}

TEST(ClaimTemplateFormTest, ReadsEveryModelledField)
{
    const ClaimTemplateForm form = readOrFail(kTemplate);
    EXPECT_EQ(form.kind, "ResourceClaimTemplate");
    EXPECT_EQ(form.name, "two-gpus");
    EXPECT_EQ(form.ns, "ml");
    ASSERT_EQ(form.requests.size(), 2u);
    const FormRequest &gpu = form.requests[0];
    EXPECT_FALSE(gpu.firstAvailable);
    EXPECT_EQ(gpu.exactly.deviceClassName, "gpu.nvidia.com");
    ASSERT_EQ(gpu.exactly.selectors.size(), 1u);
    EXPECT_EQ(
        gpu.exactly.selectors[0], R"(device.attributes["gpu.nvidia.com"].productName == "H100")");
    EXPECT_EQ(gpu.exactly.count, 2);
    EXPECT_EQ(gpu.exactly.allocationMode, "");
    const FormRequest &nic = form.requests[1];
    EXPECT_TRUE(nic.firstAvailable);
    ASSERT_EQ(nic.alternatives.size(), 2u);
    EXPECT_EQ(nic.alternatives[0].name, "fast");
    ASSERT_EQ(nic.alternatives[0].tolerations.size(), 1u);
    EXPECT_EQ(nic.alternatives[0].tolerations[0].op, "Exists");
    EXPECT_EQ(nic.alternatives[0].tolerations[0].effect, "NoSchedule");
    EXPECT_TRUE(nic.alternatives[1].isAll());
    ASSERT_EQ(form.constraints.size(), 1u);
    EXPECT_EQ(form.constraints[0].requests, (std::vector<std::string> { "gpu", "nic" }));
    EXPECT_EQ(form.constraints[0].matchAttribute, "resource.kubernetes.io/pcieRoot");
    ASSERT_EQ(form.config.size(), 1u);
    EXPECT_EQ(form.config[0].driver, "gpu.nvidia.com");
    EXPECT_EQ(
        nlohmann::json::parse(form.config[0].parameters)["sharing"]["strategy"], "TimeSlicing");
}

TEST(ClaimTemplateFormTest, UnchangedFormWritesTheSameDocument)
{
    const std::string written = writeOrFail(kTemplate, readOrFail(kTemplate));
    EXPECT_EQ(semantic(written), semantic(kTemplate));
    // The author's key order survives: `name` still leads each request.
    EXPECT_LT(written.find("- name: gpu"), written.find("exactly:"));
    // And the text is the same, as this template is already written the way the writer writes
    // (block style, kubectl's indentation); flow lists such as `[a, b]` would come back as blocks.
    EXPECT_EQ(written, std::string(kTemplate));
}

// Applies `edit` to the form of kTemplate and returns the written document as JSON, with the
// original beside it for comparison.
struct Edited
{
    nlohmann::json before, after;
};
template <typename Edit> Edited editTemplate(Edit edit)
{
    ClaimTemplateForm form = readOrFail(kTemplate);
    edit(form);
    const std::string written = writeOrFail(kTemplate, form);
    return { semantic(kTemplate), semantic(written) };
}

const nlohmann::json::json_pointer kGpu("/spec/spec/devices/requests/0");
const nlohmann::json::json_pointer kNic("/spec/spec/devices/requests/1");

TEST(ClaimTemplateFormTest, CountEditChangesOnlyTheCount)
{
    Edited e = editTemplate([](ClaimTemplateForm &form) { form.requests[0].exactly.count = 4; });
    EXPECT_EQ(e.after[kGpu / "exactly" / "count"], 4);
    e.after[kGpu / "exactly" / "count"] = 2;
    EXPECT_EQ(e.after, e.before);
}

TEST(ClaimTemplateFormTest, AllocationModeClassAndSelectorEdits)
{
    Edited e = editTemplate([](ClaimTemplateForm &form) {
        FormDeviceSpec &spec = form.requests[0].exactly;
        spec.allocationMode = "All";
        spec.count.reset();
        spec.deviceClassName = "gpu.amd.com";
        spec.selectors[0] = "device.driver == \"gpu.amd.com\"";
    });
    nlohmann::json expected = e.before;
    nlohmann::json &exactly = expected[kGpu / "exactly"];
    exactly["allocationMode"] = "All";
    exactly.erase("count");
    exactly["deviceClassName"] = "gpu.amd.com";
    exactly["selectors"][0]["cel"]["expression"] = "device.driver == \"gpu.amd.com\"";
    EXPECT_EQ(e.after, expected);
}

TEST(ClaimTemplateFormTest, AddingATolerationKeepsTheOthersAndUnknownFields)
{
    Edited e = editTemplate([](ClaimTemplateForm &form) {
        form.requests[0].exactly.tolerations.push_back(
            { "gpu.nvidia.com/xid", "Exists", "", "NoExecute", 300, -1 });
    });
    nlohmann::json expected = e.before;
    expected[kGpu / "exactly" / "tolerations"] = { { { "key", "gpu.nvidia.com/xid" },
        { "operator", "Exists" }, { "effect", "NoExecute" }, { "tolerationSeconds", 300 } } };
    EXPECT_EQ(e.after, expected);
    EXPECT_EQ(e.after[kGpu / "exactly" / "derivedAttributes" / 0 / "name"], "derived/numa");
}

TEST(ClaimTemplateFormTest, SwitchingToFirstAvailableMovesTheSpecWithItsUnknownFields)
{
    Edited e
        = editTemplate([](ClaimTemplateForm &form) { setFirstAvailable(form.requests[0], true); });
    const nlohmann::json &request = e.after[kGpu];
    EXPECT_FALSE(request.contains("exactly"));
    ASSERT_EQ(request["firstAvailable"].size(), 1u);
    nlohmann::json alternative = request["firstAvailable"][0];
    EXPECT_EQ(alternative["name"], "gpu");
    alternative.erase("name");
    EXPECT_EQ(alternative, e.before[kGpu / "exactly"]);
    // Everything else is as it was.
    e.after[kGpu] = e.before[kGpu];
    EXPECT_EQ(e.after, e.before);

    // In the text, the alternative's name leads it.
    ClaimTemplateForm switched = readOrFail(kTemplate);
    setFirstAvailable(switched.requests[0], true);
    const std::string text = writeOrFail(kTemplate, switched);
    EXPECT_NE(text.find("      - name: gpu\n        firstAvailable:\n        - name: gpu\n         "
                        " deviceClassName: gpu.nvidia.com\n"),
        std::string::npos)
        << text;

    // And back: the first alternative becomes the exact spec.
    ClaimTemplateForm form = readOrFail(kTemplate);
    setFirstAvailable(form.requests[1], false);
    const nlohmann::json back = semantic(writeOrFail(kTemplate, form));
    EXPECT_EQ(back[kNic / "exactly" / "deviceClassName"], "nic.example.com");
    EXPECT_FALSE(back[kNic / "exactly"].contains("name"));
    EXPECT_FALSE(back[kNic].contains("firstAvailable"));
    EXPECT_EQ(back[kNic / "futureField"], "keep me");
}

TEST(ClaimTemplateFormTest, RemovingARequestKeepsTheNextOnesFields)
{
    Edited e
        = editTemplate([](ClaimTemplateForm &form) { form.requests.erase(form.requests.begin()); });
    const nlohmann::json &requests = e.after["/spec/spec/devices/requests"_json_pointer];
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0], e.before[kNic]);
}

TEST(ClaimTemplateFormTest, AddedRequestsConstraintsAndConfigAreWrittenInApiOrder)
{
    ClaimTemplateForm form = readOrFail(kTemplate);
    FormRequest &added = addRequest(form, "gpu.nvidia.com");
    EXPECT_EQ(added.name, "gpu-2");
    added.exactly.count = 1;
    form.constraints.push_back({ { "gpu", "gpu-2" }, "", "resource.kubernetes.io/pcieRoot", -1 });
    form.config.push_back({ {}, "nic.example.com", R"({"mtu": 9000})", -1 });
    const std::string written = writeOrFail(kTemplate, form);
    EXPECT_NE(written.find("  - name: gpu-2\n        exactly:\n          deviceClassName: "
                           "gpu.nvidia.com\n          count: 1\n"),
        std::string::npos)
        << written;
    const nlohmann::json after = semantic(written);
    EXPECT_EQ(after["/spec/spec/devices/constraints/1/distinctAttribute"_json_pointer],
        "resource.kubernetes.io/pcieRoot");
    EXPECT_EQ(after["/spec/spec/devices/config/1/opaque/parameters/mtu"_json_pointer], 9000);

    form.config.back().parameters = "{not json";
    Result<std::string> bad = writeClaimTemplateForm(kTemplate, form, kOrigin);
    ASSERT_FALSE(bad.has_value());
    EXPECT_TRUE(bad.error().message.contains(
        QStringLiteral("spec.spec.devices.config[1].opaque.parameters")))
        << bad.error().message.toStdString();
}

TEST(ClaimTemplateFormTest, EmptyTemplateGetsItsFirstRequest)
{
    constexpr std::string_view empty
        = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: x\n";
    ClaimTemplateForm form = readOrFail(empty);
    EXPECT_TRUE(form.requests.empty());
    addRequest(form, "gpu.nvidia.com");
    const nlohmann::json after = semantic(writeOrFail(empty, form));
    EXPECT_EQ(after["/spec/spec/devices/requests/0/exactly/deviceClassName"_json_pointer],
        "gpu.nvidia.com");
    // Unchanged, an empty template stays empty.
    EXPECT_EQ(writeOrFail(empty, readOrFail(empty)), std::string(empty));
}

TEST(ClaimTemplateFormTest, ClaimsKeepTheirDevicesUnderSpec)
{
    constexpr std::string_view claim
        = "apiVersion: resource.k8s.io/v1beta2\nkind: ResourceClaim\nmetadata:\n  name: c\n"
          "spec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n"
          "        deviceClassName: x\n";
    ClaimTemplateForm form = readOrFail(claim);
    EXPECT_EQ(form.devicesPath(), "spec.devices");
    ASSERT_EQ(form.requests.size(), 1u);
    form.requests[0].exactly.count = 3;
    EXPECT_EQ(
        semantic(writeOrFail(claim, form))["/spec/devices/requests/0/exactly/count"_json_pointer],
        3);
}

struct BadCase
{
    std::string text;
    std::string expected; // a substring of the error
};
class ClaimTemplateFormErrorTest : public testing::TestWithParam<BadCase>
{
};

TEST_P(ClaimTemplateFormErrorTest, NamesTheLineOrField)
{
    Result<ClaimTemplateForm> form = readClaimTemplateForm(GetParam().text, kOrigin);
    ASSERT_FALSE(form.has_value());
    EXPECT_NE(form.error().message.toStdString().find(GetParam().expected), std::string::npos)
        << form.error().message.toStdString();
    EXPECT_FALSE(writeClaimTemplateForm(GetParam().text, ClaimTemplateForm(), kOrigin).has_value());
}

INSTANTIATE_TEST_SUITE_P(Broken, ClaimTemplateFormErrorTest,
    testing::Values(
        BadCase { "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nspec: [unclosed\n",
            "template.yaml:4:1: end of sequence flow not found" },
        BadCase { "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: "
                  "x\n  name: y\n",
            "template.yaml:5:3: duplicate key" },
        BadCase { "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n", "not a Namespace" },
        BadCase { "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaimTemplate\n",
            "apiVersion: expected resource.k8s.io/v1, v1beta2 or v1beta1, not "
            "\"resource.k8s.io/v1alpha3\"" },
        BadCase { "", "holds no object" },
        BadCase { "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nspec:\n  spec:\n   "
                  " devices:\n"
                  "      requests:\n      - name: a\n        exactly:\n          count: many\n",
            "template.yaml: spec.spec.devices.requests[0].exactly.count: expected an integer" },
        BadCase {
            "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nspec:\n  spec: [1]\n",
            "spec.spec: expected a mapping" }));

// resource.k8s.io/v1beta1, as clusters before 1.33 serve it: a request holds its exact spec
// itself, with no `exactly`.
constexpr std::string_view kV1beta1Template = R"(apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
spec:
  spec:
    devices:
      requests:
      - name: gpu
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel:
            expression: device.attributes["gpu.nvidia.com"].productName == "H100"
        count: 2
      - name: nic
        firstAvailable:
        - name: fast
          deviceClassName: nic.example.com
)";

TEST(ClaimTemplateFormTest, V1beta1RequestsHoldTheirSpecThemselves)
{
    ClaimTemplateForm form = readOrFail(kV1beta1Template);
    ASSERT_EQ(form.requests.size(), 2u);
    EXPECT_FALSE(form.requests[0].firstAvailable);
    EXPECT_EQ(form.requests[0].exactly.deviceClassName, "gpu.nvidia.com");
    EXPECT_EQ(form.requests[0].exactly.count, 2);
    ASSERT_EQ(form.requests[0].exactly.selectors.size(), 1u);
    EXPECT_TRUE(form.requests[1].firstAvailable);
    EXPECT_EQ(form.requests[1].alternatives.at(0).deviceClassName, "nic.example.com");
    EXPECT_EQ(writeOrFail(kV1beta1Template, form), kV1beta1Template)
        << "an untouched form writes the same text";

    form.requests[0].exactly.count = 4;
    const nlohmann::json counted = semantic(writeOrFail(kV1beta1Template, form));
    EXPECT_EQ(counted["/spec/spec/devices/requests/0/count"_json_pointer], 4);
    EXPECT_FALSE(counted["/spec/spec/devices/requests/0"_json_pointer].contains("exactly"))
        << "v1beta1 has none";

    // To firstAvailable and back: the spec moves into the alternative and out again.
    setFirstAvailable(form.requests[0], true);
    const std::string switched = writeOrFail(kV1beta1Template, form);
    const nlohmann::json gpu = semantic(switched)["/spec/spec/devices/requests/0"_json_pointer];
    EXPECT_EQ(gpu.size(), 2u) << "only the name and firstAvailable: " << gpu.dump();
    EXPECT_EQ(gpu["firstAvailable"][0]["deviceClassName"], "gpu.nvidia.com");
    EXPECT_EQ(gpu["firstAvailable"][0]["count"], 4);
    ClaimTemplateForm back = readOrFail(switched);
    setFirstAvailable(back.requests[0], false);
    const nlohmann::json exact
        = semantic(writeOrFail(switched, back))["/spec/spec/devices/requests/0"_json_pointer];
    EXPECT_EQ(exact["name"], "gpu");
    EXPECT_EQ(exact["deviceClassName"], "gpu.nvidia.com");
    EXPECT_EQ(exact["count"], 4);
    EXPECT_FALSE(exact.contains("firstAvailable"));
}

TEST(ClaimTemplateFormTest, CapacityAndRequestListsReadAsText)
{
    FormDeviceSpec spec;
    setCapacityRequestsText(spec, " memory = 40Gi, bad, cores=2 ,");
    ASSERT_EQ(spec.capacityRequests.size(), 2u);
    EXPECT_EQ(capacityRequestsText(spec), "memory=40Gi, cores=2");
    EXPECT_EQ(parseRequestList(" a, ,b "), (std::vector<std::string> { "a", "b" }));
    EXPECT_EQ(requestListText({ "a", "b" }), "a, b");
}

TEST(ClaimTemplateFormTest, JsonShowsEffectiveValues)
{
    const nlohmann::json json = claimTemplateFormJson(readOrFail(kTemplate));
    EXPECT_EQ(json["requests"][0]["mode"], "exactly");
    EXPECT_EQ(json["requests"][0]["exactly"]["allocationMode"], "ExactCount");
    EXPECT_EQ(json["requests"][0]["exactly"]["count"], 2);
    EXPECT_EQ(json["requests"][1]["mode"], "firstAvailable");
    EXPECT_EQ(json["requests"][1]["firstAvailable"][1]["allocationMode"], "All");
    EXPECT_FALSE(json["requests"][1]["firstAvailable"][1].contains("count"));
    EXPECT_EQ(json["config"][0]["parameters"]["kind"], "GpuConfig");
}

} // namespace
} // namespace dra::model
