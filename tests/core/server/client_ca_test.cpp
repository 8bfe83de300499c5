// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Client certificates signed by --client-ca authenticate as their CN with their O as groups.
#include "core/server/client_certificates.h"

#include <QSslKey>
#include <QSslSocket>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/server/api_server.h"
#include "core/server/http_server.h"
#include "core/server/tls_identity.h"
#include "tests/support/http_test_client.h"
#include "tests/core/server/test_certificates.h"

namespace dra::server {
namespace {

using test::makeCertificate;
using test::Pem;
using test::spinUntil;

class ClientCaTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_ca = makeCertificate("test CA", {}, nullptr);
        ASSERT_TRUE(m_dir.isValid());
        Result<store::CacheDb> writer = store::CacheDb::open(
            m_dir.filePath(QStringLiteral("cache.db")), store::OpenMode::ReadWrite);
        ASSERT_TRUE(writer.has_value());
        m_cache = std::make_unique<store::CacheDb>(std::move(*writer));
        Result<ClientCertificateAuthority> authority
            = ClientCertificateAuthority::fromPem(m_ca.certificate, QStringLiteral("ca.pem"));
        ASSERT_TRUE(authority.has_value()) << authority.error().message.toStdString();
        ApiServerOptions options;
        options.cluster = "test";
        options.token = "tok";
        options.clientCa
            = std::make_shared<const ClientCertificateAuthority>(std::move(*authority));
        m_api = std::make_unique<ApiServer>(*m_cache, options);
        m_http = std::make_unique<HttpServer>(m_api->handler());
        Result<TlsIdentity> identity = generateSelfSigned({ QStringLiteral("127.0.0.1") });
        ASSERT_TRUE(identity.has_value());
        Result<QSslConfiguration> tls = identity->serverConfiguration();
        ASSERT_TRUE(tls.has_value());
        tls->setPeerVerifyMode(QSslSocket::QueryPeer);
        tls->setCaCertificates(options.clientCa->certificates());
        m_http->setTlsConfiguration(*tls);
        ASSERT_TRUE(m_http->listen(QHostAddress::LocalHost, 0).has_value());
    }

    // POSTs a SelfSubjectReview over TLS, with `client` as the client certificate if given.
    std::pair<int, nlohmann::json> whoami(const Pem *client, const std::string &token = {})
    {
        QSslSocket socket;
        socket.setPeerVerifyMode(QSslSocket::VerifyNone);
        if (client) {
            socket.setLocalCertificate(QSslCertificate(client->certificate, QSsl::Pem));
            socket.setPrivateKey(QSslKey(client->key, QSsl::Ec, QSsl::Pem));
        }
        QByteArray received;
        QObject::connect(
            &socket, &QSslSocket::readyRead, &socket, [&] { received += socket.readAll(); });
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_http->port());
        EXPECT_TRUE(spinUntil([&] { return socket.isEncrypted(); }));
        std::string request
            = "POST /apis/authentication.k8s.io/v1/selfsubjectreviews HTTP/1.1\r\n"
              "Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n";
        if (!token.empty())
            request += "Authorization: Bearer " + token + "\r\n";
        socket.write(QByteArray::fromStdString(request + "\r\n{}"));
        spinUntil([&] { return received.contains("\r\n\r\n") && received.endsWith("}"); });
        const qsizetype end = received.indexOf("\r\n\r\n");
        return { received.mid(9, 3).toInt(),
            nlohmann::json::parse(received.mid(end + 4).toStdString(), nullptr, false) };
    }

    QTemporaryDir m_dir;
    Pem m_ca;
    std::unique_ptr<store::CacheDb> m_cache;
    std::unique_ptr<ApiServer> m_api;
    std::unique_ptr<HttpServer> m_http;
};

TEST_F(ClientCaTest, CertificatesOfTheCaAuthenticateAsTheirCommonNameAndOrganizations)
{
    const Pem alice = makeCertificate("alice", { "ml-team", "gpu-admins" }, &m_ca);
    const auto [status, review] = whoami(&alice);
    EXPECT_EQ(status, 201);
    EXPECT_EQ(review["status"]["userInfo"]["username"], "alice");
    EXPECT_EQ(review["status"]["userInfo"]["groups"],
        nlohmann::json({ "ml-team", "gpu-admins", "system:authenticated" }));
}

TEST_F(ClientCaTest, OtherCertificatesAreRefusedAndTokensStillWork)
{
    const Pem stranger = makeCertificate("other CA", {}, nullptr);
    const Pem mallory = makeCertificate("mallory", { "system:masters" }, &stranger);
    EXPECT_EQ(whoami(&mallory).first, 401);
    EXPECT_EQ(whoami(nullptr).first, 401);
    const auto [status, review] = whoami(nullptr, "tok");
    EXPECT_EQ(status, 201);
    EXPECT_EQ(review["status"]["userInfo"]["username"], "admin");
    EXPECT_FALSE(
        ClientCertificateAuthority::fromPem("not pem", QStringLiteral("x.pem")).has_value());
}

} // namespace
} // namespace dra::server
