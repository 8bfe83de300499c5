// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/exec_credential.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/support/kube_fixture.h"

namespace dra::kube {
namespace {

// A plugin that counts its runs, keeps the KUBERNETES_EXEC_INFO it got, says something on
// stderr and prints token "tok-<run>", expiring at $EXPIRY when set.
constexpr const char *kPlugin = R"sh(#!/bin/sh
n=$(cat "$STATE/count" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" > "$STATE/count"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$STATE/info-$n"
echo "open https://login.example/device to sign in (run $n)" >&2
expiry=""
if [ -n "$EXPIRY" ]; then expiry=",\"expirationTimestamp\":\"$EXPIRY\""; fi
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-%s"%s}}\n' "$n" "$expiry"
)sh";

class ExecCredentialTest : public testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        test::writeFile(m_dir.filePath(QStringLiteral("plugin.sh")), kPlugin, true);
    }

    ClientConfig config(const QString &command, InteractiveMode mode = InteractiveMode::Never,
        const QString &expiry = {})
    {
        ClientConfig config;
        config.context = QStringLiteral("prod");
        config.server = QUrl(QStringLiteral("https://10.0.0.1:6443"));
        config.caPem = "CA";
        config.execExtension = { { "audience", "dra" } };
        ExecConfig exec;
        exec.command = command;
        exec.apiVersion = QStringLiteral("client.authentication.k8s.io/v1");
        exec.env
            = { { QStringLiteral("STATE"), m_dir.path() }, { QStringLiteral("EXPIRY"), expiry } };
        exec.installHint = QStringLiteral("Install it with: apt install dra-login");
        exec.provideClusterInfo = true;
        exec.interactiveMode = mode;
        config.exec = exec;
        return config;
    }

    // Fetches once and waits for the answer.
    Result<ExecCredential> fetch(ExecCredentialPlugin &plugin)
    {
        std::optional<Result<ExecCredential>> result;
        plugin.fetch(
            &m_context, [&](const Result<ExecCredential> &credential) { result = credential; });
        EXPECT_TRUE(test::spinUntil([&] { return result.has_value(); }));
        return result.value_or(fail(common::Error::Code::Internal, QStringLiteral("no answer")));
    }

    QString token(ExecCredentialPlugin &plugin)
    {
        Result<ExecCredential> credential = fetch(plugin);
        EXPECT_TRUE(credential.has_value()) << credential.error().message.toStdString();
        return credential ? credential->token : QString();
    }

    QTemporaryDir m_dir;
    QObject m_context;
    common::ManualClock m_clock;
};

TEST_F(ExecCredentialTest, CachedUntilExpiryThenRunAgain)
{
    const QString expiry = QDateTime::fromMSecsSinceEpoch(m_clock.nowMs() + 3600 * 1000, Qt::UTC)
                               .toString(Qt::ISODate);
    ExecCredentialPlugin plugin(
        config(m_dir.filePath(QStringLiteral("plugin.sh")), InteractiveMode::Never, expiry), {},
        m_clock);
    EXPECT_EQ(token(plugin), QStringLiteral("tok-1"));
    m_clock.advance(3599 * 1000);
    EXPECT_EQ(token(plugin), QStringLiteral("tok-1"));
    EXPECT_EQ(plugin.runs(), 1);
    m_clock.advance(2 * 1000); // past expirationTimestamp
    EXPECT_EQ(token(plugin), QStringLiteral("tok-2"));
    EXPECT_EQ(plugin.runs(), 2);
}

TEST_F(ExecCredentialTest, RunAgainAfterTheServerRejectedTheCredential)
{
    ExecCredentialPlugin plugin(config(m_dir.filePath(QStringLiteral("plugin.sh"))), {}, m_clock);
    EXPECT_EQ(token(plugin), QStringLiteral("tok-1"));
    EXPECT_EQ(token(plugin), QStringLiteral("tok-1")); // no expiry: cached
    plugin.invalidate();
    EXPECT_EQ(token(plugin), QStringLiteral("tok-2"));
}

TEST_F(ExecCredentialTest, ConcurrentFetchesShareOneRun)
{
    ExecCredentialPlugin plugin(config(m_dir.filePath(QStringLiteral("plugin.sh"))), {}, m_clock);
    QStringList tokens;
    for (int i = 0; i < 3; ++i)
        plugin.fetch(&m_context,
            [&](const Result<ExecCredential> &credential) { tokens.append(credential->token); });
    ASSERT_TRUE(test::spinUntil([&] { return tokens.size() == 3; }));
    EXPECT_EQ(tokens, QStringList(3, QStringLiteral("tok-1")));
    EXPECT_EQ(plugin.runs(), 1);
}

TEST_F(ExecCredentialTest, PluginGetsExecInfoWithClusterAndItsEnvironment)
{
    ExecCredentialPlugin plugin(config(m_dir.filePath(QStringLiteral("plugin.sh"))), {}, m_clock);
    ASSERT_EQ(token(plugin), QStringLiteral("tok-1"));
    QFile file(m_dir.filePath(QStringLiteral("info-1")));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const nlohmann::json info = nlohmann::json::parse(file.readAll().toStdString());
    EXPECT_EQ(info["apiVersion"], "client.authentication.k8s.io/v1");
    EXPECT_EQ(info["kind"], "ExecCredential");
    EXPECT_EQ(info["spec"]["interactive"], false);
    EXPECT_EQ(info["spec"]["cluster"]["server"], "https://10.0.0.1:6443");
    EXPECT_EQ(info["spec"]["cluster"]["certificate-authority-data"],
        QByteArray("CA").toBase64().toStdString());
    EXPECT_EQ(info["spec"]["cluster"]["config"], nlohmann::json({ { "audience", "dra" } }));
}

TEST_F(ExecCredentialTest, MissingCommandShowsTheInstallHint)
{
    ExecCredentialPlugin plugin(
        config(QStringLiteral("dra-login-plugin-that-is-not-installed")), {}, m_clock);
    Result<ExecCredential> credential = fetch(plugin);
    ASSERT_FALSE(credential.has_value());
    EXPECT_NE(credential.error().message.indexOf(
                  QStringLiteral("Install it with: apt install dra-login")),
        -1)
        << credential.error().message.toStdString();
    EXPECT_NE(credential.error().message.indexOf(
                  QStringLiteral("dra-login-plugin-that-is-not-installed")),
        -1);
}

TEST_F(ExecCredentialTest, InteractivePluginWithoutTerminalIsAClearErrorNotAHang)
{
    ExecCredentialPlugin plugin(
        config(m_dir.filePath(QStringLiteral("plugin.sh")), InteractiveMode::Always), {}, m_clock);
    Result<ExecCredential> credential = fetch(plugin);
    ASSERT_FALSE(credential.has_value());
    EXPECT_NE(credential.error().message.indexOf(QStringLiteral("needs a terminal")), -1);
    EXPECT_EQ(plugin.runs(), 0);
}

TEST_F(ExecCredentialTest, InteractivePluginPromptsReachTheCallerWithoutATerminal)
{
    QStringList messages;
    ExecOptions options;
    options.onMessage = [&](const QString &line) { messages.append(line); };
    ExecCredentialPlugin plugin(
        config(m_dir.filePath(QStringLiteral("plugin.sh")), InteractiveMode::Always), options,
        m_clock);
    EXPECT_EQ(token(plugin), QStringLiteral("tok-1"));
    EXPECT_EQ(messages,
        QStringList { QStringLiteral("open https://login.example/device to sign in (run 1)") });
}

TEST_F(ExecCredentialTest, HangingPluginIsStoppedAfterTheTimeout)
{
    test::writeFile(m_dir.filePath(QStringLiteral("hang.sh")), "#!/bin/sh\nexec sleep 30\n", true);
    ExecOptions options;
    options.timeoutMs = 300;
    ExecCredentialPlugin plugin(
        config(m_dir.filePath(QStringLiteral("hang.sh"))), options, m_clock);
    Result<ExecCredential> credential = fetch(plugin);
    ASSERT_FALSE(credential.has_value());
    EXPECT_NE(credential.error().message.indexOf(QStringLiteral("did not finish")), -1);
}

TEST_F(ExecCredentialTest, FailingPluginReportsExitCodeAndStderr)
{
    test::writeFile(m_dir.filePath(QStringLiteral("deny.sh")),
        "#!/bin/sh\necho 'access denied for jane' >&2\nexit 3\n", true);
    ExecCredentialPlugin plugin(config(m_dir.filePath(QStringLiteral("deny.sh"))), {}, m_clock);
    Result<ExecCredential> credential = fetch(plugin);
    ASSERT_FALSE(credential.has_value());
    EXPECT_NE(
        credential.error().message.indexOf(QStringLiteral("(exit code 3): access denied for jane")),
        -1)
        << credential.error().message.toStdString();
}

TEST(ExecCredentialParseTest, OutputIsChecked)
{
    const QString v1 = QStringLiteral("client.authentication.k8s.io/v1");
    EXPECT_FALSE(parseExecCredential("not json", v1, QStringLiteral("p")).has_value());
    EXPECT_FALSE(parseExecCredential(
        R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}})",
        v1, QStringLiteral("p"))
                     .has_value());
    EXPECT_FALSE(parseExecCredential(
        R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})",
        v1, QStringLiteral("p"))
                     .has_value());
    Result<ExecCredential> certificate = parseExecCredential(
        R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"C","clientKeyData":"K","expirationTimestamp":"2030-01-02T03:04:05Z"}})",
        v1, QStringLiteral("p"));
    ASSERT_TRUE(certificate.has_value());
    EXPECT_EQ(certificate->clientKeyPem, "K");
    EXPECT_EQ(certificate->expiresAtMs,
        QDateTime(QDate(2030, 1, 2), QTime(3, 4, 5), Qt::UTC).toMSecsSinceEpoch());
}

} // namespace
} // namespace dra::kube
