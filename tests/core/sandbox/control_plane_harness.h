// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A seeded demo cache, its writer and a control plane on a manual clock, for the tests of the
// simulated control plane.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/common/clock.h"
#include "core/model/kind.h"
#include "core/sandbox/control_plane.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/object_writer.h"
#include "core/store/cache_db.h"

namespace dra::test {

class ControlPlaneHarness : public testing::Test
{
protected:
    void SetUp() override;

    // The control plane (made on first use, so a test may set m_options first).
    sandbox::ControlPlane &plane();
    // Passes until nothing changes, then the start delay, then passes again.
    void settle();
    void put(const nlohmann::json &object);
    void remove(model::Kind kind, const std::string &ns, const std::string &name);
    std::optional<nlohmann::json> get(
        model::Kind kind, const std::string &ns, const std::string &name);
    std::vector<nlohmann::json> list(model::Kind kind, const std::string &ns = {});
    // Pods whose name starts with "<deployment>-".
    std::vector<nlohmann::json> podsOf(const std::string &ns, const std::string &deployment);
    std::vector<nlohmann::json> eventsAbout(
        const nlohmann::json &object, const std::string &reason);
    // The uuid attribute of a device as the ResourceSlices publish it.
    std::string sliceUuid(const nlohmann::json &deviceResult);

    // A ResourceClaimTemplate for one GPU of class gpu.nvidia.com.
    static nlohmann::json gpuTemplate(const std::string &ns, const std::string &name);
    // A Deployment whose pods use the template (DRA nodes), or nvidia.com/gpu (device plugin).
    static nlohmann::json draDeployment(const std::string &ns, const std::string &name,
        const std::string &templateName, int replicas);
    static nlohmann::json devicePluginDeployment(
        const std::string &ns, const std::string &name, int gpus, int replicas);
    // A Deployment of pods without GPUs serving HTTP on container port 8000 ("http"), and the
    // Service in front of pods labelled app=`name`, listening on `port`.
    static nlohmann::json webDeployment(
        const std::string &ns, const std::string &name, int replicas);
    static nlohmann::json service(const std::string &ns, const std::string &name, int port = 80);

    // An API server over the cache with `token`, and the sandbox's additions installed as the
    // demo cluster installs them (faults, services/proxy), on a free loopback port.
    void startApiServer(const std::string &token);

    sandbox::ControlPlaneOptions m_options { 1000, 0, false };
    common::ManualClock m_clock;
    QTemporaryDir m_dir;
    std::optional<store::CacheDb> m_cache;
    std::unique_ptr<server::ObjectWriter> m_writer;
    std::unique_ptr<sandbox::ControlPlane> m_plane;
    std::unique_ptr<server::ApiServer> m_api;
    std::unique_ptr<server::HttpServer> m_http;
};

} // namespace dra::test
