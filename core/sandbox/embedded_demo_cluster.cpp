// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/embedded_demo_cluster.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>
#include <QSslCertificate>
#include <QTemporaryDir>

#include "core/model/kind.h"
#include "core/sandbox/control_plane.h"
#include "core/sandbox/demo_access.h"
#include "core/sandbox/demo_cluster.h"
#include "core/sandbox/sandbox_api.h"
#include "core/sandbox/object_factory.h"
#include "core/sandbox/workload_builder.h"
#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/tls_identity.h"
#include "core/store/cache_db.h"

namespace dra::sandbox {

using common::Error;

EmbeddedDemoCluster::EmbeddedDemoCluster(EmbeddedDemoOptions options)
    : m_options(std::move(options))
{
}

EmbeddedDemoCluster::~EmbeddedDemoCluster()
{
    // The control plane and the server use the writer and the reader: they go first.
    m_controlPlane.reset();
    m_objectWriter.reset();
    if (m_http)
        m_http->close();
    m_http.reset();
    m_api.reset();
    m_reader.reset();
    m_writer.reset();
}

Result<std::unique_ptr<EmbeddedDemoCluster>> EmbeddedDemoCluster::create(
    EmbeddedDemoOptions options)
{
    std::unique_ptr<EmbeddedDemoCluster> cluster(new EmbeddedDemoCluster(std::move(options)));
    EmbeddedDemoOptions &o = cluster->m_options;
    QString path = o.cachePath;
    if (path.isEmpty()) {
        cluster->m_folder = std::make_unique<QTemporaryDir>();
        if (!cluster->m_folder->isValid())
            return dra::fail(Error::Code::Internal,
                QStringLiteral("cannot make a temporary folder for the demo cache: %1")
                    .arg(cluster->m_folder->errorString()));
        path = cluster->m_folder->filePath(QStringLiteral("cache.db"));
    }
    if (const QString dir = QFileInfo(path).absolutePath(); !QDir().mkpath(dir))
        return dra::fail(Error::Code::Internal, QStringLiteral("cannot create %1").arg(dir));
    Result<store::CacheDb> writer = store::CacheDb::open(path, store::OpenMode::ReadWrite);
    if (!writer)
        return dra::fail(writer.error());
    cluster->m_writer = std::make_unique<store::CacheDb>(std::move(*writer));
    // Dated from the control plane's clock (the system's), so ages read as a running cluster's.
    if (Result<void> seeded
        = seedDemoCache(*cluster->m_writer, o.cluster, o.preset, common::Clock::system().nowMs());
        !seeded)
        return dra::fail(seeded.error());
    Result<store::CacheDb> reader = store::CacheDb::open(path, store::OpenMode::ReadOnly);
    if (!reader)
        return dra::fail(reader.error());
    cluster->m_reader = std::make_unique<store::CacheDb>(std::move(*reader));

    if (!o.tls) {
        QStringList hosts { QStringLiteral("127.0.0.1"), QStringLiteral("::1"),
            QStringLiteral("localhost") };
        if (!o.address.isLoopback())
            hosts << o.address.toString();
        Result<server::TlsIdentity> identity = server::generateSelfSigned(hosts);
        if (!identity)
            return dra::fail(identity.error());
        Result<QSslConfiguration> tls = identity->serverConfiguration();
        if (!tls)
            return dra::fail(tls.error());
        o.tls = *tls;
        o.caPem = identity->certificatePem;
    }
    cluster->m_caPem = o.caPem;
    if (!o.token) {
        Result<std::string> token = server::randomToken();
        if (!token)
            return dra::fail(token.error());
        o.token = *token;
    }
    cluster->m_token = *o.token;
    // Without authentication (an empty token) there are no users to tell apart: everyone is
    // the admin, as before.
    auto users = std::make_shared<server::UserTokens>();
    for (const DemoUser &user : cluster->m_token.empty() ? std::vector<DemoUser>() : demoUsers()) {
        Result<std::string> token = server::randomToken();
        if (!token)
            return dra::fail(token.error());
        cluster->m_userTokens.push_back({ user.context, *token, user.ns });
        users->add(*token, user.identity);
    }
    if (!cluster->m_token.empty()) {
        Result<std::string> token = server::randomToken();
        if (!token)
            return dra::fail(token.error());
        cluster->m_serviceAccountToken = *token;
        users->add(*token, mirrorServiceAccount().identity);
    }
    cluster->m_users = users;
    if (!o.signInAs.empty()
        && std::none_of(cluster->m_userTokens.begin(), cluster->m_userTokens.end(),
            [&](const DemoUserToken &user) { return user.context == o.signInAs; })) {
        std::string known;
        for (const DemoUser &user : demoUsers())
            known += (known.empty() ? "" : ", ") + user.context;
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("the demo cluster has no user %1 (it has %2, and the admin)")
                .arg(QString::fromStdString(o.signInAs), QString::fromStdString(known)));
    }

    server::ApiServerOptions apiOptions;
    apiOptions.cluster = o.cluster;
    apiOptions.token = cluster->m_token;
    apiOptions.writer = cluster->m_writer.get();
    apiOptions.clientCa = o.clientCa;
    apiOptions.rbac = !cluster->m_token.empty();
    if (apiOptions.rbac)
        apiOptions.users = std::move(users);
    cluster->m_api = std::make_unique<server::ApiServer>(*cluster->m_reader, apiOptions);
    cluster->m_http = std::make_unique<server::HttpServer>(cluster->m_api->handler());
    cluster->m_http->setTlsConfiguration(*o.tls);

    // The control plane acts on what clients write, through the cache's single writer, and
    // wakes the watches after each of its passes.
    cluster->m_objectWriter = std::make_unique<server::ObjectWriter>(*cluster->m_writer, o.cluster);
    cluster->m_controlPlane
        = std::make_unique<ControlPlane>(*cluster->m_objectWriter, common::Clock::system());
    if (o.defaultNamespace) {
        if (Result<void> added = cluster->addDefaultNamespace(); !added)
            return dra::fail(added.error());
    }
    if (Result<void> added = cluster->addAccessObjects(); !added)
        return dra::fail(added.error());
    server::ApiServer *api = cluster->m_api.get();
    cluster->m_controlPlane->setCommittedCallback([api] { api->watchHub().poll(); });
    installSandboxApi(*cluster->m_api, *cluster->m_controlPlane);
    return cluster;
}

Result<void> EmbeddedDemoCluster::addDefaultNamespace()
{
    const model::KindInfo &namespaces = model::kindInfo(model::Kind::Namespace);
    Result<std::optional<server::ObjectWriter::Stored>> existing
        = m_objectWriter->get(namespaces, "", "default");
    if (!existing)
        return dra::fail(existing.error());
    if (*existing)
        return {}; // a kept cache has it already
    const ObjectFactory factory(m_options.preset.seed);
    Result<std::vector<int64_t>> committed = m_objectWriter->commit(
        { { model::ChangeType::Added, factory.namespaceObject("default") } });
    if (!committed)
        return dra::fail(committed.error());
    return {};
}

Result<void> EmbeddedDemoCluster::addAccessObjects()
{
    const ObjectFactory factory(m_options.preset.seed);
    std::vector<server::ObjectWriter::Write> missing;
    for (nlohmann::json &object : demoAccessObjects(factory)) {
        const model::KindInfo *kind = model::kindOf(
            object["apiVersion"].get<std::string>(), object["kind"].get<std::string>());
        if (!kind)
            continue;
        const nlohmann::json &metadata = object["metadata"];
        Result<std::optional<server::ObjectWriter::Stored>> existing = m_objectWriter->get(
            *kind, metadata.value("namespace", ""), metadata["name"].get<std::string>());
        if (!existing)
            return dra::fail(existing.error());
        if (!*existing) // a kept cache keeps the roles as its users left them
            missing.push_back({ model::ChangeType::Added, std::move(object) });
    }
    if (missing.empty())
        return {};
    Result<std::vector<int64_t>> committed = m_objectWriter->commit(missing);
    if (!committed)
        return dra::fail(committed.error());
    return {};
}

Result<void> EmbeddedDemoCluster::writeServiceAccountDir(const QString &dir)
{
    if (m_serviceAccountToken.empty())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("a demo cluster without authentication has no service accounts"));
    if (!QDir().mkpath(dir))
        return dra::fail(
            Error::Code::Invalid, QStringLiteral("cannot create the folder %1").arg(dir));
    const std::pair<const char *, QByteArray> files[] = {
        { "ca.crt", m_caPem },
        { "namespace", QByteArray(kMirrorNamespace) },
        { "token", QByteArray::fromStdString(m_serviceAccountToken) },
    };
    for (const auto &[name, content] : files)
        if (Result<void> written
            = server::writePrivateFile(QDir(dir).filePath(QString::fromLatin1(name)), content);
            !written)
            return written;
    m_serviceAccountDir = dir;
    return {};
}

Result<void> EmbeddedDemoCluster::rotateServiceAccountToken()
{
    if (m_serviceAccountToken.empty())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("a demo cluster without authentication has no service accounts"));
    Result<std::string> token = server::randomToken();
    if (!token)
        return dra::fail(token.error());
    m_serviceAccountToken = *token;
    m_users->replaceToken(mirrorServiceAccount().identity.name, *token);
    if (m_serviceAccountDir.isEmpty())
        return {};
    return server::writePrivateFile(QDir(m_serviceAccountDir).filePath(QStringLiteral("token")),
        QByteArray::fromStdString(*token));
}

Result<void> EmbeddedDemoCluster::listen()
{
    if (Result<void> listening = m_http->listen(m_options.address, m_options.port); !listening)
        return listening;
    m_controlPlane->start();
    return {};
}

void EmbeddedDemoCluster::close()
{
    m_http->close();
}

QString EmbeddedDemoCluster::url() const
{
    return server::httpsUrl(m_options.address, m_http->port());
}

quint16 EmbeddedDemoCluster::port() const
{
    return m_http->port();
}

QString EmbeddedDemoCluster::cachePath() const
{
    return m_reader->path();
}

kube::ClientConfig EmbeddedDemoCluster::clientConfig() const
{
    kube::ClientConfig config;
    config.context = QString::fromStdString(m_options.cluster);
    config.cluster = config.context;
    config.user = config.context;
    config.origin = QStringLiteral("(embedded demo cluster)");
    config.ns = QString::fromStdString(m_options.contextNamespace.empty()
            ? std::string(kWorkloadNamespaces.front())
            : m_options.contextNamespace);
    config.server = QUrl(url());
    config.caPem = m_caPem;
    config.caCertificates = QSslCertificate::fromData(m_caPem, QSsl::Pem);
    config.token = QString::fromStdString(m_token);
    for (const DemoUserToken &user : m_userTokens) {
        if (user.context != m_options.signInAs)
            continue;
        // As the context of that name in the demo's kubeconfig signs in.
        config.context = config.user = QString::fromStdString(user.context);
        config.token = QString::fromStdString(user.token);
        if (!user.ns.empty())
            config.ns = QString::fromStdString(user.ns);
    }
    return config;
}

} // namespace dra::sandbox
