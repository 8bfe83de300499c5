// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/yaml_comments.h"

#include <gtest/gtest.h>

#include "core/model/claim_template_form.h"

namespace dra::model {
namespace {

// A template as an author keeps it: a header, notes on requests and fields, a block scalar whose
// '#' lines are text, and a closing note.
constexpr std::string_view kCommented = R"(# One GPU beside a NIC: the NCCL probe's claim.
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: probe  # the Deployment refers to this name
spec:
  spec:
    devices:
      requests:
      # The GPU first: the constraint below names it.
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: |
                # not a comment: CEL has none, and this is text of the block
                device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0

          count: 1 # raise for data parallel runs

      - name: nic
        exactly:
          deviceClassName: rdma.example.com
      constraints:
      - matchAttribute: resource.kubernetes.io/pcieRoot
# end of template
)";

TEST(YamlCommentsTest, FormEditsKeepEveryCommentWhereItWas)
{
    Result<ClaimTemplateForm> form
        = readClaimTemplateForm(kCommented, QStringLiteral("probe.yaml"));
    ASSERT_TRUE(form.has_value()) << form.error().message.toStdString();
    form->requests[0].exactly.count = 2;
    Result<std::string> written
        = writeClaimTemplateForm(kCommented, *form, QStringLiteral("probe.yaml"));
    ASSERT_TRUE(written.has_value()) << written.error().message.toStdString();

    std::string expected(kCommented);
    expected.replace(expected.find("count: 1 #"), 10, "count: 2 #");
    EXPECT_EQ(*written, expected);
}

TEST(YamlCommentsTest, CommentsOfRemovedKeysGoWithThem)
{
    const std::string after
        = carryComments("a: 1  # one\n# about b\nb: 2\nc: 3 # three\n", "a: 1\nc: 3\n");
    EXPECT_EQ(after, "a: 1  # one\nc: 3 # three\n");
}

TEST(YamlCommentsTest, CommentsFollowTheirLineWhenTheWriterIndentsDifferently)
{
    // The author indented the list under its key; the writer puts it flush with the key.
    const std::string before
        = "items:\n    # first\n    - name: a\n      value: 1 # one\n    - name: b\nnext: x\n";
    const std::string after = "items:\n- name: a\n  value: 1\n- name: b\nnext: x\n";
    EXPECT_EQ(carryComments(before, after),
        "items:\n# first\n- name: a\n  value: 1 # one\n- name: b\nnext: x\n");
}

TEST(YamlCommentsTest, HashesInsideQuotesAndWordsAreNotComments)
{
    const std::string before = "a: \"x # y\"\nb: c#d\nc: 'it''s # here' # real\n";
    const std::string after = "a: \"x # y\"\nb: c#d\nc: 'it''s # here'\n";
    EXPECT_EQ(carryComments(before, after), before);
}

TEST(YamlCommentsTest, WithoutCommentsTheRewriteIsUnchanged)
{
    EXPECT_EQ(carryComments("a: 1\nb:\n- x\n", "b:\n- y\n"), "b:\n- y\n");
}

} // namespace
} // namespace dra::model
