// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/object_key.h"

#include <unordered_set>

#include <gtest/gtest.h>

using dra::common::ObjectKey;

TEST(ObjectKeyTest, DisplayNamesNamespaceOnlyWhenSet)
{
    EXPECT_EQ((ObjectKey { "resource.k8s.io", "ResourceClaim", "ml", "c1" }.display()),
        "ResourceClaim ml/c1");
    EXPECT_EQ(
        (ObjectKey { "resource.k8s.io", "DeviceClass", "", "gpu" }.display()), "DeviceClass gpu");
}

TEST(ObjectKeyTest, HashAndOrderDistinguishEveryPart)
{
    std::unordered_set<ObjectKey> keys { { "g", "K", "a", "n" }, { "g", "K", "", "an" },
        { "g", "Ka", "", "n" } };
    EXPECT_EQ(keys.size(), 3u);
    EXPECT_LT((ObjectKey { "", "Node", "", "a" }), (ObjectKey { "", "Node", "", "b" }));
}
