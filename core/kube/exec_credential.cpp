// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/exec_credential.h"

#include <QDateTime>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include "core/common/json_text.h"
#include "core/common/logging.h"

namespace dra::kube {

namespace {

using common::Error;

QString jsonString(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? common::qs(it->get<std::string>()) : QString();
}

} // namespace

Result<ExecCredential> parseExecCredential(
    const QByteArray &output, const QString &apiVersion, const QString &plugin)
{
    const QString what = QStringLiteral("exec plugin %1").arg(plugin);
    Result<nlohmann::json> json
        = common::parseJson(output.toStdString(), what + QStringLiteral(" output"));
    if (!json)
        return fail(json.error());
    if (!json->is_object() || jsonString(*json, "kind") != QLatin1String("ExecCredential"))
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": output is not an ExecCredential"));
    if (const QString version = jsonString(*json, "apiVersion"); version != apiVersion)
        return fail(Error::Code::Invalid,
            what
                + QStringLiteral(": output has apiVersion \"%1\", the kubeconfig asks for \"%2\"")
                      .arg(version, apiVersion));
    const auto status = json->find("status");
    if (status == json->end() || !status->is_object())
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": the ExecCredential has no status"));
    ExecCredential credential;
    credential.token = jsonString(*status, "token");
    credential.clientCertificatePem = jsonString(*status, "clientCertificateData").toUtf8();
    credential.clientKeyPem = jsonString(*status, "clientKeyData").toUtf8();
    if (credential.clientCertificatePem.isEmpty() != credential.clientKeyPem.isEmpty())
        return fail(Error::Code::Invalid,
            what
                + QStringLiteral(
                    ": status.clientCertificateData and status.clientKeyData must come together"));
    if (credential.token.isEmpty() && credential.clientCertificatePem.isEmpty())
        return fail(Error::Code::Invalid,
            what
                + QStringLiteral(
                    ": the ExecCredential has neither status.token nor a client certificate"));
    if (const QString expiry = jsonString(*status, "expirationTimestamp"); !expiry.isEmpty()) {
        const QDateTime at = QDateTime::fromString(expiry, Qt::ISODateWithMs);
        if (!at.isValid())
            return fail(Error::Code::Invalid,
                what
                    + QStringLiteral(": status.expirationTimestamp \"%1\" is not an RFC 3339 time")
                          .arg(expiry));
        credential.expiresAtMs = at.toMSecsSinceEpoch();
    }
    return credential;
}

QByteArray execInfo(const ClientConfig &config, bool interactive)
{
    const std::string apiVersion
        = config.exec ? config.exec->apiVersion.toStdString() : "client.authentication.k8s.io/v1";
    nlohmann::json spec = { { "interactive", interactive } };
    if (config.exec && config.exec->provideClusterInfo) {
        nlohmann::json cluster = { { "server", config.server.toString().toStdString() } };
        if (!config.tlsServerName.isEmpty())
            cluster["tls-server-name"] = config.tlsServerName.toStdString();
        if (config.insecureSkipTlsVerify)
            cluster["insecure-skip-tls-verify"] = true;
        if (!config.caPem.isEmpty())
            cluster["certificate-authority-data"] = config.caPem.toBase64().toStdString();
        if (!config.proxyUrl.isEmpty())
            cluster["proxy-url"] = config.proxyUrl.toStdString();
        if (config.disableCompression)
            cluster["disable-compression"] = true;
        if (!config.execExtension.is_null())
            cluster["config"] = config.execExtension;
        spec["cluster"] = std::move(cluster);
    }
    const nlohmann::json info = { { "kind", "ExecCredential" }, { "apiVersion", apiVersion },
        { "spec", std::move(spec) } };
    return QByteArray::fromStdString(common::compactJson(info));
}

ExecCredentialPlugin::ExecCredentialPlugin(
    ClientConfig config, ExecOptions options, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_options(std::move(options))
    , m_clock(clock)
{
}

ExecCredentialPlugin::~ExecCredentialPlugin()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

QString ExecCredentialPlugin::name() const
{
    return QStringLiteral("\"%1\" (%2)")
        .arg(m_config.exec ? m_config.exec->command : QString(), m_config.describe());
}

void ExecCredentialPlugin::fetch(QObject *context, Callback done)
{
    // client-go treats a credential as valid until the instant it expires.
    if (m_cached && (!m_cached->expiresAtMs || m_clock.nowMs() < *m_cached->expiresAtMs)) {
        done(*m_cached);
        return;
    }
    m_cached.reset();
    m_waiting.emplace_back(context, std::move(done));
    if (!m_process)
        start();
}

void ExecCredentialPlugin::invalidate()
{
    m_cached.reset();
}

void ExecCredentialPlugin::start()
{
    if (!m_config.exec) {
        finish(fail(Error::Code::Internal,
            m_config.describe() + QStringLiteral(": no exec plugin configured")));
        return;
    }
    const ExecConfig &exec = *m_config.exec;
    bool interactive = false;
    bool surfaced = false; // no terminal, but the caller shows the plugin's messages
    switch (exec.interactiveMode) {
    case InteractiveMode::Never:
        break;
    case InteractiveMode::IfAvailable:
        interactive = m_options.terminalAvailable;
        break;
    case InteractiveMode::Always:
        if (m_options.terminalAvailable) {
            interactive = true;
        } else if (m_options.onMessage) {
            surfaced = true;
        } else {
            finish(fail(Error::Code::Unauthorized,
                QStringLiteral(
                    "exec plugin %1 needs a terminal (interactiveMode: Always) and none is "
                    "available; sign in once from a terminal (e.g. `kubectl --context %2 "
                    "get --raw /version`) or run dractl from one")
                    .arg(name(), m_config.context)));
            return;
        }
        break;
    }

    ++m_runs;
    m_stderrTail.clear();
    m_process = new QProcess(this);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const auto &[key, value] : exec.env)
        environment.insert(key, value);
    environment.insert(
        QStringLiteral("KUBERNETES_EXEC_INFO"), QString::fromUtf8(execInfo(m_config, interactive)));
    m_process->setProcessEnvironment(environment);
    m_process->setProgram(exec.command);
    m_process->setArguments(exec.args);
    if (interactive) {
        m_process->setInputChannelMode(QProcess::ForwardedInputChannel);
        m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    } else {
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        connect(m_process, &QProcess::readyReadStandardError, this, [this] {
            const QByteArray data = m_process->readAllStandardError();
            m_stderrTail = QByteArray(m_stderrTail + data).right(4096);
            for (const QByteArray &line : data.split('\n')) {
                const QString text = QString::fromUtf8(line).trimmed();
                if (text.isEmpty())
                    continue;
                qCInfo(lcKube).noquote() << "exec plugin" << name() << ":" << text;
                if (m_options.onMessage)
                    m_options.onMessage(text);
            }
        });
    }
    m_timeout = new QTimer(m_process);
    m_timeout->setSingleShot(true);
    const int timeoutMs
        = interactive || surfaced ? m_options.interactiveTimeoutMs : m_options.timeoutMs;
    connect(m_timeout, &QTimer::timeout, this, [this, timeoutMs] {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
        finish(fail(Error::Code::Unauthorized,
            QStringLiteral("exec plugin %1 did not finish within %2 s; it was stopped")
                .arg(name())
                .arg(timeoutMs / 1000)));
    });
    connect(m_process, &QProcess::errorOccurred, this, [this, exec](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and exit codes arrive through finished()
        QString message = QStringLiteral("exec plugin %1 could not be started: %2")
                              .arg(name(), m_process->errorString());
        if (!exec.installHint.isEmpty()) // the plugin author's words on how to get it
            message += QStringLiteral("\n") + exec.installHint.trimmed();
        m_process->disconnect(this);
        finish(fail(Error::Code::Unauthorized, message));
    });
    connect(m_process, &QProcess::finished, this,
        [this, exec](int exitCode, QProcess::ExitStatus status) {
            const QByteArray output = m_process->readAllStandardOutput();
            m_process->disconnect(this);
            if (status != QProcess::NormalExit || exitCode != 0) {
                QString message = QStringLiteral("exec plugin %1 failed (%2)")
                                      .arg(name(),
                                          status != QProcess::NormalExit
                                              ? QStringLiteral("crashed")
                                              : QStringLiteral("exit code %1").arg(exitCode));
                if (const QString tail = QString::fromUtf8(m_stderrTail).trimmed(); !tail.isEmpty())
                    message += QStringLiteral(": ") + tail;
                finish(fail(Error::Code::Unauthorized, message));
                return;
            }
            finish(parseExecCredential(output, exec.apiVersion, name()));
        });
    m_process->start();
    if (!interactive)
        m_process->closeWriteChannel(); // a plugin waiting for input sees end-of-file, not a hang
    m_timeout->start(timeoutMs);
}

void ExecCredentialPlugin::finish(const Result<ExecCredential> &result)
{
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
        m_timeout = nullptr;
    }
    if (result)
        m_cached = *result;
    std::vector<std::pair<QPointer<QObject>, Callback>> waiting = std::exchange(m_waiting, {});
    for (auto &[context, done] : waiting) {
        if (context)
            done(result);
    }
}

} // namespace dra::kube
