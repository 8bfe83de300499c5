// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/http_message.h"

#include <gtest/gtest.h>

using dra::server::acceptsMediaType;

// The Accept headers kubectl sends for tables and aggregated discovery, and near misses.
TEST(HttpMessageTest, AcceptClauseMustCarryEveryParameter)
{
    const char *kubectlTable
        = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
          "g=meta.k8s.io,application/json";
    EXPECT_TRUE(acceptsMediaType(kubectlTable, { "as=Table", "g=meta.k8s.io" }));
    EXPECT_FALSE(acceptsMediaType("application/json", { "as=Table", "g=meta.k8s.io" }));
    EXPECT_FALSE(acceptsMediaType("application/json;as=Table, application/json;g=meta.k8s.io",
        { "as=Table", "g=meta.k8s.io" }))
        << "the parameters must stand in one clause";

    const char *discovery
        = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
          "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/"
          "json";
    const std::initializer_list<std::string_view> v2
        = { "as=APIGroupDiscoveryList", "g=apidiscovery.k8s.io", "v=v2" };
    EXPECT_TRUE(acceptsMediaType(discovery, v2));
    EXPECT_TRUE(acceptsMediaType(
        "application/json; as=APIGroupDiscoveryList ; v=v2; g=apidiscovery.k8s.io", v2))
        << "spaces around parameters are tolerated";
    EXPECT_FALSE(acceptsMediaType(
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", v2))
        << "v=v2beta1 is not v=v2";
}
