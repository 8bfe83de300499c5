// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/kubeconfig.h"

#include <QNetworkRequest>
#include <QSslConfiguration>

#include <gtest/gtest.h>

#include "core/kube/client_config.h"
#include "core/kube/credentials.h"
#include "core/kube/tls_material.h"
#include "tests/support/kube_fixture.h"

namespace dra::kube {
namespace {

using test::KubeconfigFixtures;

std::string text(const QString &value)
{
    return value.toStdString();
}

class KubeconfigTest : public testing::Test
{
protected:
    Kubeconfig load(const QStringList &names)
    {
        KubeconfigSource source;
        QStringList paths;
        for (const QString &name : names)
            paths.append(m_files.path(name));
        source.envValue = paths.join(QLatin1Char(':'));
        Result<Kubeconfig> config = loadKubeconfig(source);
        EXPECT_TRUE(config.has_value()) << text(config.error().message);
        return config ? *config : Kubeconfig {};
    }

    Result<ClientConfig> resolve(const QString &file, const QString &context)
    {
        Result<Kubeconfig> config = readKubeconfigFile(m_files.path(file));
        if (!config)
            return fail(config.error());
        return resolveContext(*config, context, ProxyEnvironment {});
    }

    ClientConfig resolved(const QString &file, const QString &context)
    {
        Result<ClientConfig> config = resolve(file, context);
        EXPECT_TRUE(config.has_value()) << text(config.error().message);
        return config ? *config : ClientConfig {};
    }

    // The error of resolving `context` of `file`, which must fail.
    std::string failure(const QString &file, const QString &context = {})
    {
        Result<ClientConfig> config = resolve(file, context);
        EXPECT_FALSE(config.has_value())
            << "resolving " << text(context) << " of " << text(file) << " should fail";
        return config ? std::string() : text(config.error().message);
    }

    KubeconfigFixtures m_files;
};

TEST_F(KubeconfigTest, FirstFileWinsPerEntryAndForCurrentContext)
{
    const Kubeconfig config
        = load({ QStringLiteral("merge-first.yaml"), QStringLiteral("merge-second.yaml") });
    EXPECT_EQ(config.currentContext, QStringLiteral("shared"));
    EXPECT_EQ(config.clusters.at(QStringLiteral("shared")).server,
        QStringLiteral("https://first.example:6443"));
    EXPECT_EQ(config.users.at(QStringLiteral("shared")).token, QStringLiteral("first-token"));
    EXPECT_EQ(config.contexts.at(QStringLiteral("shared")).ns, QStringLiteral("from-first"));
    // Entries only the second file has are still there.
    EXPECT_TRUE(config.contexts.contains(QStringLiteral("only-second")));
    EXPECT_TRUE(config.clusters.contains(QStringLiteral("only-first")));

    const Kubeconfig reversed
        = load({ QStringLiteral("merge-second.yaml"), QStringLiteral("merge-first.yaml") });
    EXPECT_EQ(reversed.currentContext, QStringLiteral("only-second"));
    EXPECT_EQ(reversed.clusters.at(QStringLiteral("shared")).server,
        QStringLiteral("https://second.example:6443"));
}

TEST_F(KubeconfigTest, CurrentContextComesFromTheFirstFileThatSetsIt)
{
    const Kubeconfig config = load({ QStringLiteral("merge-no-current.yaml"),
        QStringLiteral("merge-second.yaml"), QStringLiteral("merge-first.yaml") });
    EXPECT_EQ(config.currentContext, QStringLiteral("only-second"));
    EXPECT_EQ(config.currentContextOrigin, m_files.path(QStringLiteral("merge-second.yaml")));
}

TEST_F(KubeconfigTest, MissingFilesInTheListAreSkippedButAnExplicitFileMustExist)
{
    const Kubeconfig config
        = load({ QStringLiteral("does-not-exist.yaml"), QStringLiteral("merge-first.yaml") });
    EXPECT_EQ(config.files, QStringList { m_files.path(QStringLiteral("merge-first.yaml")) });

    KubeconfigSource explicitSource;
    explicitSource.explicitPath = m_files.path(QStringLiteral("does-not-exist.yaml"));
    explicitSource.envValue
        = m_files.path(QStringLiteral("merge-first.yaml")); // ignored when explicit
    Result<Kubeconfig> missing = loadKubeconfig(explicitSource);
    ASSERT_FALSE(missing.has_value());
    EXPECT_NE(text(missing.error().message).find("does-not-exist.yaml"), std::string::npos);
}

TEST_F(KubeconfigTest, NoKubeconfigAtAllIsAnEmptyConfigurationWithAClearContextError)
{
    KubeconfigSource source;
    source.homeDir = m_files.path(QStringLiteral("no-home"));
    Result<Kubeconfig> config = loadKubeconfig(source);
    ASSERT_TRUE(config.has_value());
    EXPECT_TRUE(config->contexts.empty());
    Result<QString> context = config->chooseContext({});
    ASSERT_FALSE(context.has_value());
    EXPECT_NE(text(context.error().message).find("no current-context"), std::string::npos);
}

TEST_F(KubeconfigTest, ContextFlagOverridesCurrentContextAndGivesItsNamespace)
{
    const Kubeconfig config
        = load({ QStringLiteral("merge-first.yaml"), QStringLiteral("merge-second.yaml") });
    Result<ClientConfig> client
        = resolveContext(config, QStringLiteral("only-second"), ProxyEnvironment {});
    ASSERT_TRUE(client.has_value()) << text(client.error().message);
    EXPECT_EQ(client->ns, QStringLiteral("ml"));
    EXPECT_EQ(client->server.host(), QStringLiteral("only-second.example"));
    Result<ClientConfig> current = resolveContext(config, {}, ProxyEnvironment {});
    ASSERT_TRUE(current.has_value());
    EXPECT_EQ(current->ns, QStringLiteral("from-first"));
    Result<ClientConfig> byDefault
        = resolveContext(config, QStringLiteral("only-first"), ProxyEnvironment {});
    ASSERT_TRUE(byDefault.has_value());
    EXPECT_EQ(byDefault->ns, QStringLiteral("default"));
}

TEST_F(KubeconfigTest, ClusterFieldsAndRelativeFilesResolve)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("ca-file"));
    EXPECT_EQ(config.server, QUrl(QStringLiteral("https://ca-file.example:6443")));
    EXPECT_EQ(config.ns, QStringLiteral("ml"));
    ASSERT_EQ(config.caCertificates.size(), 1);
    EXPECT_EQ(config.caCertificates.first().toPem(),
        QSslCertificate(KubeconfigFixtures::ca().certificate).toPem());
    EXPECT_EQ(config.tlsServerName, QStringLiteral("api.internal"));
    EXPECT_TRUE(config.disableCompression);
    EXPECT_EQ(config.proxy.type(), QNetworkProxy::Socks5Proxy);
    EXPECT_EQ(config.proxy.hostName(), QStringLiteral("proxy.example"));
    EXPECT_EQ(config.proxy.port(), 1080);
    EXPECT_EQ(config.proxy.user(), QStringLiteral("user"));
    // Client certificate and RSA key from files named relative to the kubeconfig.
    ASSERT_EQ(config.clientCertificateChain.size(), 1);
    ASSERT_TRUE(config.clientKey.has_value());
    EXPECT_EQ(config.clientKey->algorithm(), QSsl::Rsa);
    EXPECT_TRUE(config.warnings.isEmpty());
}

TEST_F(KubeconfigTest, EmbeddedDataWithRsaAndPkcs8EcKeys)
{
    const ClientConfig rsa = resolved(QStringLiteral("full.yaml"), QStringLiteral("ca-data"));
    EXPECT_EQ(rsa.server.path(), QStringLiteral("/prefix"));
    EXPECT_EQ(rsa.proxy.type(), QNetworkProxy::HttpProxy);
    ASSERT_TRUE(rsa.clientKey.has_value());
    EXPECT_EQ(rsa.clientKey->algorithm(), QSsl::Rsa);
    EXPECT_EQ(rsa.execExtension, nlohmann::json({ { "audience", "dra" }, { "region", "eu-1" } }));

    const ClientConfig ec = resolved(QStringLiteral("full.yaml"), QStringLiteral("ec"));
    ASSERT_TRUE(ec.clientKey.has_value());
    EXPECT_EQ(ec.clientKey->algorithm(), QSsl::Ec);
    EXPECT_FALSE(ec.clientKey->isNull());
}

TEST_F(KubeconfigTest, InsecureSkipTlsVerifyIsAllowedWithALoudWarningAndTheDefaultScheme)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("insecure"));
    EXPECT_TRUE(config.insecureSkipTlsVerify);
    EXPECT_EQ(config.server.scheme(), QStringLiteral("https"));
    ASSERT_EQ(config.warnings.size(), 1);
    EXPECT_NE(text(config.warnings.first()).find("NOT checked"), std::string::npos);
    EXPECT_NE(text(config.warnings.first()).find("clusters[\"insecure\"]"), std::string::npos);
}

TEST_F(KubeconfigTest, TokenKeepsItsDigitsAndImpersonationBecomesHeaders)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("insecure"));
    EXPECT_EQ(config.token, QStringLiteral("0123456789")); // a string, not the number 123456789
    Credentials credentials(config, {}, common::Clock::system());
    const HeaderLines expected { { "Impersonate-User", "jane" }, { "Impersonate-Uid", "uid-1" },
        { "Impersonate-Group", "ml-team" }, { "Impersonate-Extra-reason", "audit" } };
    EXPECT_EQ(credentials.impersonationHeaders(), expected);
    std::optional<AuthMaterial> material;
    QObject context;
    credentials.get(&context, [&](const Result<AuthMaterial> &auth) { material = auth.value(); });
    ASSERT_TRUE(material.has_value());
    EXPECT_EQ(material->authorization, "Bearer 0123456789");
}

TEST_F(KubeconfigTest, SeveralImpersonatedGroupsAndExtraValuesEachGetAHeaderLine)
{
    test::writeFile(m_files.path(QStringLiteral("groups.yaml")),
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://10.0.0.1:6443\n    insecure-skip-tls-verify: true\n"
        "contexts:\n- name: groups\n  context: {cluster: c, user: u}\n"
        "users:\n- name: u\n  user:\n    token: t\n    as: jane\n"
        "    as-groups: [ml-team, gpu-admins]\n    as-user-extra:\n      reason: [audit, "
        "rollout]\n");
    const ClientConfig config = resolved(QStringLiteral("groups.yaml"), QStringLiteral("groups"));
    Credentials credentials(config, {}, common::Clock::system());
    const HeaderLines expected { { "Impersonate-User", "jane" }, { "Impersonate-Group", "ml-team" },
        { "Impersonate-Group", "gpu-admins" }, { "Impersonate-Extra-reason", "audit" },
        { "Impersonate-Extra-reason", "rollout" } };
    EXPECT_EQ(credentials.impersonationHeaders(), expected);
}

TEST_F(KubeconfigTest, BasicAuthHeader)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("basic"));
    Credentials credentials(config, {}, common::Clock::system());
    std::optional<AuthMaterial> material;
    QObject context;
    credentials.get(&context, [&](const Result<AuthMaterial> &auth) { material = auth.value(); });
    ASSERT_TRUE(material.has_value());
    EXPECT_EQ(material->authorization, "Basic " + QByteArray("admin:pa55").toBase64());
}

TEST_F(KubeconfigTest, TokenFileIsReadAgainWhenItChanges)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("token-file"));
    EXPECT_EQ(config.tokenFile, m_files.path(QStringLiteral("secrets/token")));
    Credentials credentials(config, {}, common::Clock::system());
    QObject context;
    auto header = [&] {
        QByteArray value;
        credentials.get(&context, [&](const Result<AuthMaterial> &auth) {
            ASSERT_TRUE(auth.has_value()) << text(auth.error().message);
            value = auth->authorization;
        });
        return value;
    };
    EXPECT_EQ(header(), "Bearer file-token");
    // A rotated token (longer, so the file's size changes even within one mtime tick).
    test::writeFile(m_files.path(QStringLiteral("secrets/token")), "rotated-file-token\n");
    EXPECT_EQ(header(), "Bearer rotated-file-token");
}

TEST_F(KubeconfigTest, ExecSettingsAreReadAndRelativeCommandsResolve)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("exec"));
    ASSERT_TRUE(config.exec.has_value());
    EXPECT_EQ(config.exec->command, m_files.path(QStringLiteral("bin/get-token")));
    EXPECT_EQ(
        config.exec->args, (QStringList { QStringLiteral("--cluster"), QStringLiteral("prod") }));
    ASSERT_EQ(config.exec->env.size(), 1u);
    EXPECT_EQ(config.exec->env[0].first, QStringLiteral("PLUGIN_MODE"));
    EXPECT_EQ(config.exec->installHint, QStringLiteral("install get-token from example.com"));
    EXPECT_TRUE(config.exec->provideClusterInfo);
    EXPECT_EQ(config.exec->interactiveMode, InteractiveMode::Never);

    const ClientConfig beta = resolved(QStringLiteral("full.yaml"), QStringLiteral("exec-beta"));
    ASSERT_TRUE(beta.exec.has_value());
    EXPECT_EQ(beta.exec->command, QStringLiteral("gke-gcloud-auth-plugin")); // looked up on PATH
    EXPECT_EQ(beta.exec->interactiveMode, InteractiveMode::IfAvailable);
}

TEST_F(KubeconfigTest, NoCredentialsAreSentOverPlainHttp)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("plain-http"));
    EXPECT_TRUE(config.token.isEmpty());
    ASSERT_FALSE(config.warnings.isEmpty());
    EXPECT_NE(text(config.warnings.last()).find("not sent"), std::string::npos);
}

TEST_F(KubeconfigTest, AnonymousContextHasNoCredentials)
{
    const ClientConfig config = resolved(QStringLiteral("full.yaml"), QStringLiteral("anonymous"));
    EXPECT_TRUE(config.token.isEmpty());
    EXPECT_FALSE(config.clientKey.has_value());
}

TEST_F(KubeconfigTest, BadBase64NamesFileUserAndField)
{
    Result<Kubeconfig> config
        = readKubeconfigFile(m_files.path(QStringLiteral("broken-base64.yaml")));
    ASSERT_FALSE(config.has_value());
    const std::string message = text(config.error().message);
    EXPECT_NE(message.find("broken-base64.yaml"), std::string::npos) << message;
    EXPECT_NE(message.find("users[\"dev\"].client-key-data: not valid base64"), std::string::npos)
        << message;
}

TEST_F(KubeconfigTest, UnknownContextNamesTheFileAndTheKnownContexts)
{
    const std::string current = failure(QStringLiteral("broken-unknown-context.yaml"));
    EXPECT_NE(current.find("context \"gone\" does not exist"), std::string::npos) << current;
    EXPECT_NE(current.find("broken-unknown-context.yaml: current-context"), std::string::npos)
        << current;
    EXPECT_NE(current.find("(contexts: c)"), std::string::npos) << current;
    const std::string flag = failure(QStringLiteral("full.yaml"), QStringLiteral("nope"));
    EXPECT_NE(flag.find("--context"), std::string::npos) << flag;
}

TEST_F(KubeconfigTest, KeyNotMatchingCertificateIsRejected)
{
    const std::string message = failure(QStringLiteral("broken-key-mismatch.yaml"));
    EXPECT_NE(message.find("users[\"dev\"].client-key-data"), std::string::npos) << message;
    EXPECT_NE(message.find("does not match the certificate"), std::string::npos) << message;
}

TEST_F(KubeconfigTest, MissingReferencedFilesNameFieldAndPath)
{
    const std::string ca
        = failure(QStringLiteral("broken-missing-files.yaml"), QStringLiteral("ca"));
    EXPECT_NE(ca.find("clusters[\"c\"].certificate-authority"), std::string::npos) << ca;
    EXPECT_NE(ca.find("missing-ca.crt"), std::string::npos) << ca;
    const std::string key
        = failure(QStringLiteral("broken-missing-files.yaml"), QStringLiteral("key"));
    EXPECT_NE(key.find("users[\"dev\"].client-key"), std::string::npos) << key;
    const std::string cluster
        = failure(QStringLiteral("broken-missing-files.yaml"), QStringLiteral("no-cluster"));
    EXPECT_NE(cluster.find("contexts[\"no-cluster\"].cluster: cluster \"nowhere\" is not defined"),
        std::string::npos)
        << cluster;
}

TEST_F(KubeconfigTest, ConfigurationsKubectlRefuses)
{
    EXPECT_NE(failure(QStringLiteral("broken-auth.yaml"), QStringLiteral("two-methods"))
                  .find("more than one authentication method"),
        std::string::npos);
    EXPECT_NE(failure(QStringLiteral("broken-auth.yaml"), QStringLiteral("ca-and-insecure"))
                  .find("exclude each other"),
        std::string::npos);
    EXPECT_NE(
        failure(QStringLiteral("broken-auth.yaml"), QStringLiteral("legacy")).find("auth-provider"),
        std::string::npos);
    EXPECT_NE(failure(QStringLiteral("broken-auth.yaml"), QStringLiteral("cert-no-key"))
                  .find("without client-key"),
        std::string::npos);
}

TEST_F(KubeconfigTest, FileLevelErrorsNameTheField)
{
    auto error = [&](const char *name) {
        Result<Kubeconfig> config = readKubeconfigFile(m_files.path(QString::fromLatin1(name)));
        EXPECT_FALSE(config.has_value()) << name;
        return config ? std::string() : text(config.error().message);
    };
    EXPECT_NE(error("broken-exec-mode.yaml").find("users[\"u\"].exec.interactiveMode: required"),
        std::string::npos);
    EXPECT_NE(
        error("broken-duplicate.yaml").find("clusters[\"c\"]: duplicate name"), std::string::npos);
    EXPECT_NE(error("broken-yaml.yaml").find("broken-yaml.yaml:"), std::string::npos);
}

TEST(TlsMaterialTest, EncryptedKeysAreRefusedWithoutPrompting)
{
    const QByteArray encrypted
        = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n";
    Result<QSslKey> key = parsePrivateKey(encrypted, QStringLiteral("test key"));
    ASSERT_FALSE(key.has_value());
    EXPECT_NE(key.error().message.indexOf(QStringLiteral("passphrase")), -1);
}

} // namespace
} // namespace dra::kube
