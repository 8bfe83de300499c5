// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>

#include <QToolButton>
#include <QUrl>

#include "core/kube/client_config.h"

namespace dra::console {

// The status bar's way to the same cluster in a browser. Hidden until the session finds that its
// server serves the web console (the demo cluster, a `dractl serve`); then a click opens the
// console signed in with the context's token, and its menu copies the address (without the
// token, for sharing).
class WebConsoleButton final : public QToolButton
{
    Q_OBJECT
public:
    explicit WebConsoleButton(QWidget *parent = nullptr);

    // Shows the button for the console at `console`, reached as `client` reaches its server.
    void setConsole(const QUrl &console, const kube::ClientConfig &client);
    // The console's address, and the link a click opens (with the token, when the context has
    // one); both empty while hidden.
    const QUrl &address() const { return m_address; }
    const QUrl &link() const { return m_link; }

    // Opens link() in the desktop's browser; false with a status message when none would.
    bool openInBrowser();
    // What opens a link: QDesktopServices::openUrl (the user's browser) unless replaced, as a
    // test does to see the link without starting a browser.
    using Opener = std::function<bool(const QUrl &)>;
    void setOpener(Opener opener) { m_opener = std::move(opener); }
    void copyAddress();

Q_SIGNALS:
    // Something for the status bar ("Copied …", "No browser …").
    void message(const QString &text);

private:
    QUrl m_address;
    QUrl m_link;
    Opener m_opener;
};

} // namespace dra::console
