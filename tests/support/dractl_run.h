// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// dractl as a user runs it: a real process (DRACTL_PATH, set by the test target), its stdout,
// stderr and exit status.
#pragma once

#include <string>

#include <QFile>
#include <QProcess>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace dra::test {

struct DractlRun
{
    int exitCode = -1; // -1 when it crashed or did not finish
    std::string out, err;
    // stdout as JSON; discarded (is_discarded()) when it is not JSON.
    nlohmann::json document() const { return nlohmann::json::parse(out, nullptr, false); }
};

// Runs dractl with `arguments` and waits up to `timeoutMs` (a foreground rollout controller may
// need longer than the default); a dractl that does not finish fails the test and is killed.
inline DractlRun dractl(const QStringList &arguments, int timeoutMs = 120'000)
{
    QProcess process;
    process.start(QStringLiteral(DRACTL_PATH), arguments);
    const bool finished = process.waitForFinished(timeoutMs);
    EXPECT_TRUE(finished) << "dractl " << arguments.join(QLatin1Char(' ')).toStdString()
                          << " did not finish";
    if (!finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    return { finished && process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
        process.readAllStandardOutput().toStdString(),
        process.readAllStandardError().toStdString() };
}

// What kubectl prints when the demo's team member (demo-training) lists claims across all
// namespaces, as kube-apiserver's RBAC refuses it.
inline constexpr const char *kTrainingUserCannotListAllClaims
    = "Error from server (Forbidden): resourceclaims.resource.k8s.io is forbidden: User "
      "\"training-user\" cannot list resource \"resourceclaims\" in API group "
      "\"resource.k8s.io\" at the cluster scope";

// The real kubectl (`kubectl`, from PATH) with `arguments` against `kubeconfig`, keeping its
// discovery cache in `cacheDir`; a kubectl that does not finish in 90 s fails the test.
inline DractlRun kubectlRun(const QString &kubectl, const QString &kubeconfig,
    const QString &cacheDir, QStringList arguments)
{
    // First, so that they stay kubectl's when the arguments end with `-- COMMAND` (exec).
    arguments = QStringList {
        QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("--cache-dir"), cacheDir
    } + arguments;
    QProcess process;
    process.start(kubectl, arguments);
    EXPECT_TRUE(process.waitForFinished(90'000)) << "kubectl did not finish";
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
        process.readAllStandardOutput().toStdString(),
        process.readAllStandardError().toStdString() };
}

// Writes `text` to `path` (replacing it); fails the test when it cannot. Returns `path`.
inline QString writeTestFile(const QString &path, const std::string &text)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate)) << path.toStdString();
    file.write(QByteArray::fromStdString(text));
    return path;
}

// The text of `path`, "" when it cannot be read.
inline std::string readTestFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

// OpenSSL 3 keeps a random generator per thread, and Qt's network thread may not have freed it
// when a short dractl command (apply, diff, sandbox) exits; LeakSanitizer then fails the command
// and drops its buffered output. Ignores leaks made inside libcrypto, only, for every dractl
// this test process starts from now on; the suppression file goes into `dir`.
inline void ignoreOpenSslThreadLeaks(const QString &dir)
{
    const QString path
        = writeTestFile(dir + QStringLiteral("/lsan-openssl.supp"), "leak:libcrypto.so\n");
    qputenv("LSAN_OPTIONS", "suppressions=" + path.toUtf8());
}

// The `mixed` demo inventory as `dractl demo-inventory -o json` prints it, written to `path`.
// Returns the JSON text; fails the test when dractl does.
inline std::string writeDemoInventory(const QString &path)
{
    const DractlRun demo = dractl({ QStringLiteral("demo-inventory"), QStringLiteral("--preset"),
        QStringLiteral("mixed"), QStringLiteral("-o"), QStringLiteral("json") });
    EXPECT_EQ(demo.exitCode, 0) << demo.err;
    writeTestFile(path, demo.out);
    return demo.out;
}

} // namespace dra::test
