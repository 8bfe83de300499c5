// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>

#include "core/common/result.h"
#include "core/kube/client_config.h"
#include "core/common/clock.h"

class QProcess;
class QTimer;

namespace dra::kube {

// What an exec plugin printed: a bearer token and/or a client certificate, and when it expires.
// In memory only.
struct ExecCredential
{
    QString token;
    QByteArray clientCertificatePem, clientKeyPem;
    std::optional<int64_t> expiresAtMs; // none: valid until the server rejects it
};

// How plugins may interact with the user.
struct ExecOptions
{
    // Whether a terminal is there for the plugin (dractl on a tty): stdin is then passed through
    // and the plugin's prompts go straight to stderr.
    bool terminalAvailable = false;
    // Without a terminal, a plugin's stderr lines (e.g. "open https://... to sign in") go here,
    // so a desktop can show them; with this set, interactiveMode: Always plugins are run
    // instead of refused.
    std::function<void(const QString &line)> onMessage;
    int timeoutMs = 120 * 1000; // a plugin that takes longer is stopped: never hang
    int interactiveTimeoutMs = 10 * 60 * 1000; // when the user is expected to act
};

// Parses a plugin's stdout (an ExecCredential of `apiVersion`); errors name the plugin.
[[nodiscard]] Result<ExecCredential> parseExecCredential(
    const QByteArray &output, const QString &apiVersion, const QString &plugin);

// The KUBERNETES_EXEC_INFO a plugin receives (spec.interactive, and spec.cluster when
// provideClusterInfo is set).
QByteArray execInfo(const ClientConfig &config, bool interactive);

// Runs a kubeconfig exec plugin (client.authentication.k8s.io v1 and v1beta1) and caches its
// credential until expirationTimestamp. Concurrent fetches share one run. Thread of its parent.
class ExecCredentialPlugin final : public QObject
{
    Q_OBJECT
public:
    ExecCredentialPlugin(
        ClientConfig config, ExecOptions options, common::Clock &clock, QObject *parent = nullptr);
    ~ExecCredentialPlugin() override;

    using Callback = std::function<void(const Result<ExecCredential> &)>;
    // Calls `done` with a valid credential: the cached one until it expires, else from a new run.
    // `done` is not called once `context` is gone.
    void fetch(QObject *context, Callback done);
    // Forgets the cached credential (the server answered 401), so the next fetch runs the plugin.
    void invalidate();
    // How many times the plugin was started (tests, diagnostics).
    int runs() const { return m_runs; }

private:
    void start();
    void finish(const Result<ExecCredential> &result);
    QString name() const;

    ClientConfig m_config;
    ExecOptions m_options;
    common::Clock &m_clock;
    std::optional<ExecCredential> m_cached;
    std::vector<std::pair<QPointer<QObject>, Callback>> m_waiting;
    QProcess *m_process = nullptr;
    QTimer *m_timeout = nullptr;
    QByteArray m_stderrTail;
    int m_runs = 0;
};

} // namespace dra::kube
