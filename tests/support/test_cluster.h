// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A cluster for the kube tests: our own API server (core/server) over TLS on loopback, serving a
// cache file the test writes to as "the cluster", with faults to inject in front of it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QPointer>
#include <QString>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "core/kube/client_config.h"
#include "core/model/kind.h"
#include "core/server/http_connection.h"
#include "core/store/cache_db.h"
#include "tests/support/test_pki.h"

namespace dra::server {
class ApiServer;
class HttpServer;
} // namespace dra::server

namespace dra::kube {
class RestClient;
}

namespace dra::kube::test {

inline constexpr const char *kClusterName = "test";
inline constexpr const char *kToken = "s3cret-token";

// JSON objects as a cluster would hold them.
nlohmann::json slice(
    const std::string &name, const std::string &node, const std::string &label = "a");
nlohmann::json claim(
    const std::string &ns, const std::string &name, const std::string &label = "a");
nlohmann::json namespaceObject(const std::string &name);

// The values of every `lowerName` header line of `request`, in order (a header may repeat).
inline std::vector<std::string> headerLines(
    const server::Request &request, const std::string &lowerName)
{
    std::vector<std::string> values;
    for (const server::Header &header : request.headers)
        if (header.name == lowerName)
            values.push_back(header.value);
    return values;
}

class TestCluster
{
public:
    struct Options
    {
        bool requireClientCertificate = false; // TLS handshake demands a certificate of the test CA
        std::string token = kToken; // "" accepts any request
        std::string
            kubernetesVersion; // "v1.32.0": what the server says it is and serves; "" the default
        bool writable = false; // the API takes creates, updates, patches and deletes
    };
    TestCluster();
    explicit TestCluster(Options options);
    ~TestCluster();

    quint16 port() const { return m_port; }
    // A client configuration for this server: its CA, the token.
    ClientConfig clientConfig() const;

    // Changes the cluster's state (added/modified by content, deleted by key).
    void put(const std::vector<nlohmann::json> &objects);
    void remove(const std::vector<nlohmann::json> &objects);
    // Forgets the server's change history: watches from any earlier resourceVersion get 410.
    void compactHistory();
    // Cuts every open watch connection.
    void dropWatches();
    int openWatches();
    // Stops serving (connections cut, port closed) and serves again on the same port.
    void stop();
    void start();

    // The objects of `kind` exactly as the server serves them, compact JSON ordered by key.
    std::vector<std::string> servedJson(const model::KindInfo &kind);

    // Faults: the next `times` requests whose target contains `needle` get `status`.
    void failNext(const std::string &needle, int status, int times = 1);
    // Handles requests before the server does; return true when answered.
    std::function<bool(server::Request &, server::HttpConnection &)> intercept;
    // Request targets seen, in order.
    std::vector<std::string> requests;
    std::vector<server::Request> requestLog;

    static const Pem &serverPem();
    // The API server, for what a test tunes (how long a too-large resourceVersion waits).
    server::ApiServer &api() { return *m_api; }

private:
    void handle(server::Request &request, server::HttpConnection &connection);

    Options m_options;
    QTemporaryDir m_dir;
    store::CacheDb m_writer, m_reader;
    std::unique_ptr<server::ApiServer> m_api;
    std::unique_ptr<server::HttpServer> m_http;
    quint16 m_port = 0;
    std::vector<QPointer<server::HttpConnection>> m_watches;
    std::unique_ptr<RestClient> m_client; // for servedJson()
    struct Fault
    {
        std::string needle;
        int status;
        int times;
    };
    std::vector<Fault> m_faults;
};

} // namespace dra::kube::test
