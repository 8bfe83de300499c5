// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <QByteArray>
#include <QHostAddress>
#include <QSslConfiguration>
#include <QString>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/presets.h"

class QTemporaryDir;

namespace dra::store {
class CacheDb;
}
namespace dra::server {
class ApiServer;
class UserTokens;
class ClientCertificateAuthority;
class HttpServer;
class ObjectWriter;
} // namespace dra::server

namespace dra::sandbox {

class ControlPlane;

// How to run a demo cluster: what it holds, where its cache lives, where and how it listens.
struct EmbeddedDemoOptions
{
    PresetOptions preset { "mixed", 0, 1 };
    std::string cluster { kDemoCluster }; // the cache's name for the cluster
    // The cache file; empty: a fresh one in a temporary folder that goes away with the cluster.
    // A file that already holds the cluster is served as it is (its changes kept).
    QString cachePath;
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = 0; // 0 picks a free one
    // The TLS the server presents and the PEM a client trusts for it; none: a new self-signed
    // certificate for loopback.
    std::optional<QSslConfiguration> tls;
    QByteArray caPem;
    // The bearer token; none: a new random one; empty: no authentication.
    std::optional<std::string> token;
    // Client certificates signed by this CA authenticate too (see ApiServerOptions).
    std::shared_ptr<const server::ClientCertificateAuthority> clientCa;
    // Also a "default" Namespace, as every real cluster has, for objects that name none (a
    // template written without a namespace, the editor's starter). The presets have only their
    // teams' namespaces and the system ones.
    bool defaultNamespace = false;
    // The namespace of the cluster's client (its kubeconfig context); empty: the first team's
    // ("inference"), so kubectl shows the demo's workloads without -n.
    std::string contextNamespace;
    // Whom clientConfig() signs in as: a demo user's context ("demo-training", "demo-viewer";
    // demoUsers()) to see the cluster as they do; empty: the admin.
    std::string signInAs;
};

// A demo user's sign-in: the context of demoUsers() and the bearer token this cluster gave it.
struct DemoUserToken
{
    std::string context;
    std::string token;
    std::string ns;
};

// A whole demo cluster in this process: a writable cache seeded from a preset, the Kubernetes
// API over it (server::ApiServer over HTTPS with a bearer token), and the simulated control
// plane acting on what clients write (Deployments get pods, pods get devices and answer HTTP,
// faults under kSandboxApiPrefix). `dractl serve --demo` and `draconsole --demo` both run one;
// a client reaches it with clientConfig() like any cluster. Create, add handlers to api() if
// wanted, then listen(). Lives and dies on one thread (the cache's, the sockets', the timers').
class EmbeddedDemoCluster final
{
public:
    // Seeds the cache and builds the server; nothing listens yet. Errors name what failed
    // (the temporary folder, the cache, the preset, the certificate).
    [[nodiscard]] static Result<std::unique_ptr<EmbeddedDemoCluster>> create(
        EmbeddedDemoOptions options);
    ~EmbeddedDemoCluster();
    EmbeddedDemoCluster(const EmbeddedDemoCluster &) = delete;
    EmbeddedDemoCluster &operator=(const EmbeddedDemoCluster &) = delete;

    // Listens and starts the control plane. A port in use is an error of code Busy.
    [[nodiscard]] Result<void> listen();
    // Stops accepting connections and drops the open ones; the control plane keeps its state.
    void close();

    // "https://127.0.0.1:38211" once listening.
    QString url() const;
    quint16 port() const;
    const QByteArray &caPem() const { return m_caPem; }
    const std::string &token() const { return m_token; }
    // The other demo users (demoUsers()) and their tokens, new for each cluster. Their requests
    // are authorised by the cluster's Roles and bindings; the admin's token is system:masters.
    const std::vector<DemoUserToken> &userTokens() const { return m_userTokens; }
    // Writes `token`, `ca.crt` and `namespace` of the in-cluster mirror's service account
    // (mirrorServiceAccount()) into `dir`, as the kubelet mounts them into its pod; rotating
    // gives it a new token (the old one stops working) and writes it there again.
    [[nodiscard]] Result<void> writeServiceAccountDir(const QString &dir);
    [[nodiscard]] Result<void> rotateServiceAccountToken();
    const std::string &cluster() const { return m_options.cluster; }
    // The cache file, and whether it is a temporary one that goes away with the cluster.
    QString cachePath() const;
    bool temporaryCache() const { return m_folder != nullptr; }
    // A client of this cluster: context, cluster and user named after the cluster, namespace
    // contextNamespace (else "inference", the first team's), the server's URL,
    // its CA and the token. Valid once listening.
    kube::ClientConfig clientConfig() const;

    server::ApiServer &api() { return *m_api; }
    server::HttpServer &http() { return *m_http; }
    ControlPlane &controlPlane() { return *m_controlPlane; }

private:
    explicit EmbeddedDemoCluster(EmbeddedDemoOptions options);
    [[nodiscard]] Result<void> addDefaultNamespace();
    // The demo's Roles and bindings (demoAccessObjects()) that a kept cache does not hold yet.
    [[nodiscard]] Result<void> addAccessObjects();

    EmbeddedDemoOptions m_options;
    QByteArray m_caPem;
    std::string m_token;
    std::vector<DemoUserToken> m_userTokens;
    std::shared_ptr<server::UserTokens> m_users;
    std::string m_serviceAccountToken;
    QString m_serviceAccountDir; // where writeServiceAccountDir() wrote, for rotations
    std::unique_ptr<QTemporaryDir> m_folder;
    std::unique_ptr<store::CacheDb> m_writer;
    std::unique_ptr<store::CacheDb> m_reader;
    std::unique_ptr<server::ApiServer> m_api;
    std::unique_ptr<server::HttpServer> m_http;
    std::unique_ptr<server::ObjectWriter> m_objectWriter;
    std::unique_ptr<ControlPlane> m_controlPlane;
};

} // namespace dra::sandbox
