// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/web_console_button.h"

#include <QAction>
#include <QClipboard>
#include <QDesktopServices>
#include <QGuiApplication>
#include <QMenu>

#include "core/kube/web_console_probe.h"

namespace dra::console {

WebConsoleButton::WebConsoleButton(QWidget *parent)
    : QToolButton(parent)
    , m_opener([](const QUrl &url) { return QDesktopServices::openUrl(url); })
{
    setAutoRaise(true);
    setText(QStringLiteral("🌐 Web console"));
    setPopupMode(QToolButton::MenuButtonPopup);
    auto *menu = new QMenu(this);
    menu->addAction(QStringLiteral("Open in browser"), this, &WebConsoleButton::openInBrowser);
    menu->addAction(QStringLiteral("Copy address"), this, &WebConsoleButton::copyAddress);
    setMenu(menu);
    connect(this, &QToolButton::clicked, this, &WebConsoleButton::openInBrowser);
    hide();
}

void WebConsoleButton::setConsole(const QUrl &console, const kube::ClientConfig &client)
{
    m_address = console;
    m_link = kube::webConsoleLink(console, client);
    setToolTip(QStringLiteral("This cluster in a browser: %1\n%2")
                   .arg(m_address.toString(),
                       client.token.isEmpty()
                           ? QStringLiteral("The page asks for a bearer token.")
                           : QStringLiteral("Opens signed in with this context's token; the page "
                                            "takes it out of the address bar.")));
    show();
}

bool WebConsoleButton::openInBrowser()
{
    if (m_link.isEmpty())
        return false;
    if (m_opener(m_link)) {
        Q_EMIT message(QStringLiteral("Opened the web console at %1").arg(m_address.toString()));
        return true;
    }
    Q_EMIT message(QStringLiteral("No browser opened %1; copy the address from this button's menu")
                       .arg(m_address.toString()));
    return false;
}

void WebConsoleButton::copyAddress()
{
    if (m_address.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(m_address.toString());
    Q_EMIT message(QStringLiteral("Copied %1").arg(m_address.toString()));
}

} // namespace dra::console
