// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// `dractl serve --demo` as a test's cluster: started on a free loopback port with its own
// configuration folder and a kubeconfig written for it, stopped when the object goes.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <gtest/gtest.h>

namespace dra::test {

class DemoServer final
{
public:
    // `dir` holds the server's configuration, its cache (when `cacheFile`) and the kubeconfig;
    // `more` goes after the other arguments (--kubernetes-version 1.33, ...).
    explicit DemoServer(const QString &dir, const QString &preset = {}, bool cacheFile = true,
        const QStringList &more = {})
        : m_dir(dir)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(
            QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("server-config")));
        m_process.setProcessEnvironment(environment);
        QStringList arguments { QStringLiteral("serve"),
            preset.isEmpty() ? QStringLiteral("--demo") : QStringLiteral("--demo=") + preset,
            QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
            QStringLiteral("--write-kubeconfig"), kubeconfig() };
        if (cacheFile)
            arguments << QStringLiteral("--cache") << m_dir.filePath(QStringLiteral("served.db"));
        arguments << more;
        m_process.start(QStringLiteral(DRACTL_PATH), arguments);
    }

    ~DemoServer()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(30'000)) {
            m_process.kill();
            m_process.waitForFinished(5'000);
        }
    }

    DemoServer(const DemoServer &) = delete;
    DemoServer &operator=(const DemoServer &) = delete;

    // Waits until the server printed its start banner (the kubeconfig line comes last); what it
    // printed, for assertions, and whether it got there.
    [[nodiscard]] bool waitUntilServing(int timeoutMs = 120'000)
    {
        QElapsedTimer waited;
        waited.start();
        while (!m_banner.contains("kubeconfig:") && m_process.state() != QProcess::NotRunning
            && waited.elapsed() < timeoutMs) {
            m_process.waitForReadyRead(100);
            m_banner += m_process.readAllStandardOutput();
        }
        return m_banner.contains("kubeconfig:");
    }
    std::string diagnostics()
    {
        return m_banner.toStdString() + m_process.readAllStandardError().toStdString();
    }
    const QByteArray &banner() const { return m_banner; }

    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("demo.kubeconfig")); }
    QProcess &process() { return m_process; }

private:
    QDir m_dir;
    QProcess m_process;
    QByteArray m_banner;
};

} // namespace dra::test
