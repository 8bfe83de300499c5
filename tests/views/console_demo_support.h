// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Shared by the in-process console tests: a demo session on the embedded demo cluster, waits on
// the GUI thread's event loop, and requests to the demo server through the session's client.
#pragma once

#include <functional>
#include <optional>

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QObject>
#include <QPushButton>

#include <gtest/gtest.h>

#include "app/console/apply_dialog.h"
#include "app/console/console_session.h"
#include "core/inventory/inventory.h"
#include "core/kube/rest_client.h"

namespace dra::test {

// The Apply button of an Apply dialog (enabled once the dry run has passed).
inline QPushButton *dialogApplyButton(console::ApplyDialog *dialog)
{
    for (QAbstractButton *button : dialog->findChild<QDialogButtonBox *>()->buttons())
        if (button->text() == QStringLiteral("Apply"))
            return qobject_cast<QPushButton *>(button);
    return nullptr;
}

// Runs the event loop until `done` holds or `timeoutMs` passes; whether it held.
inline bool consoleWaitUntil(const std::function<bool()> &done, int timeoutMs = 60'000)
{
    QElapsedTimer waited;
    waited.start();
    while (!done() && waited.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

// A demo session (of the a100-mig preset unless told) and what it has signalled. Make it, wire a
// window to session() if wanted, then startAndSync(). Not copyable or movable (its slots hold
// `this`).
class ConsoleDemo final
{
public:
    explicit ConsoleDemo(
        console::SessionOptions options = {}, const QString &preset = QStringLiteral("a100-mig"))
    {
        options.mode = console::SessionOptions::Mode::Demo;
        options.preset = preset;
        m_session = std::make_unique<console::ConsoleSession>(std::move(options));
        QObject::connect(m_session.get(), &console::ConsoleSession::loaded, &m_context,
            [this] { m_loaded = true; });
        QObject::connect(m_session.get(), &console::ConsoleSession::initialSynced, &m_context,
            [this] { m_synced = true; });
        QObject::connect(m_session.get(), &console::ConsoleSession::failed, &m_context,
            [this](const common::Error &error) { m_failure = error.message; });
    }
    ConsoleDemo(const ConsoleDemo &) = delete;
    ConsoleDemo &operator=(const ConsoleDemo &) = delete;

    console::ConsoleSession &session() { return *m_session; }
    // Starts the session; true once it has loaded and listed every stream once.
    bool startAndSync()
    {
        m_session->start();
        consoleWaitUntil([this] { return (m_loaded && m_synced) || !m_failure.isEmpty(); });
        return m_loaded && m_synced && m_failure.isEmpty();
    }
    const QString &failure() const { return m_failure; }
    // Ends the session (threads joined, demo cluster stopped).
    void stop() { m_session.reset(); }

private:
    bool m_loaded = false;
    bool m_synced = false;
    QString m_failure;
    QObject m_context; // outlives the session it listens to, as the flags do
    std::unique_ptr<console::ConsoleSession> m_session;
};

// One request to the cluster the session shows, as any client sends it.
inline Result<kube::RestResponse> consoleRequest(
    const kube::ClientConfig &config, kube::RestRequest request)
{
    kube::RestClient client(config);
    std::optional<Result<kube::RestResponse>> answer;
    QObject context;
    client.send(std::move(request), &context,
        [&answer](const Result<kube::RestResponse> &response) { answer = response; });
    if (!consoleWaitUntil([&answer] { return answer.has_value(); }, 30'000))
        return dra::fail(common::Error::Code::Network, QStringLiteral("no answer in 30 s"));
    return *answer;
}

inline Result<kube::RestResponse> consoleGet(const kube::ClientConfig &config, const QString &path)
{
    kube::RestRequest request;
    request.path = path;
    return consoleRequest(config, std::move(request));
}

// The object the session's inventory holds now, or null.
inline const model::Object *inventoryObject(const console::ConsoleSession &session,
    model::Kind kind, std::string_view ns, std::string_view name)
{
    if (!session.inventory())
        return nullptr;
    return session.inventory()->snapshot()->object(kind, ns, name);
}

} // namespace dra::test
