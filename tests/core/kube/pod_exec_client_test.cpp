// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The exit code a pods/exec stream ends with, read from its final Status as kubectl reads it.
#include <gtest/gtest.h>

#include "core/kube/pod_exec_client.h"

namespace dra::kube {
namespace pod_exec_client_test {

TEST(PodExecClientTest, TheFinalStatusGivesTheExitCode)
{
    EXPECT_EQ(exitCodeOfStatus(R"({"metadata":{},"status":"Success"})"), 0);
    EXPECT_EQ(exitCodeOfStatus(
                  R"({"metadata":{},"status":"Failure","reason":"NonZeroExitCode","message":"x",)"
                  R"("details":{"causes":[{"reason":"ExitCode","message":"127"}]}})"),
        127);
    // A failure that is no exit code (the container went away) is an error with its message.
    const Result<int> gone = exitCodeOfStatus(
        R"({"metadata":{},"status":"Failure","reason":"InternalError","message":"container not found"})");
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().message, QStringLiteral("container not found"));
    EXPECT_FALSE(exitCodeOfStatus("not json"));
}

} // namespace pod_exec_client_test
} // namespace dra::kube
