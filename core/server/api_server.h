// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <string>

#include <QObject>

#include "core/server/http_connection.h"
#include "core/server/object_source.h"
#include "core/server/resource_controller.h"
#include "core/server/watch_hub.h"

namespace dra::server {

// How an ApiServer serves: which cluster of the cache, and who may ask.
struct ApiServerOptions
{
    std::string cluster; // the cluster of the cache to serve
    std::string token; // the bearer token every request needs; empty: no authentication
    int pollIntervalMs = 100; // how often watches look for changes committed by other processes
};

// The Kubernetes REST dialect over a cache, read-only (offline mode): /version, health,
// discovery, list/get/watch of every kind in model::allKinds(), Status errors. Its handler()
// goes to an HttpServer. Thread of `cache`, which it only reads.
class ApiServer final : public QObject
{
    Q_OBJECT
public:
    ApiServer(store::CacheDb &cache, ApiServerOptions options, QObject *parent = nullptr);
    ~ApiServer() override;

    // Routes one request; answers now, or opens a watch stream.
    void handle(Request &request, HttpConnection &connection);
    // A RequestHandler that calls handle() while this server lives.
    RequestHandler handler();

    WatchHub &watchHub() { return *m_watches; }

private:
    bool authenticate(Request &request) const;
    void serveResource(
        Request &request, HttpConnection &connection, const std::vector<std::string> &segments);

    ApiServerOptions m_options;
    ObjectSource m_source;
    ResourceController m_resources;
    WatchHub *m_watches;
};

} // namespace dra::server
