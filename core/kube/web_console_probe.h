// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <optional>

#include <QByteArrayView>
#include <QUrl>

#include "core/kube/client_config.h"

class QObject;

namespace dra::kube {

class RestClient;

// DRA Console's own servers (`dractl serve` in every mode, the desktop's demo cluster) serve the
// web console at /ui/ beside the Kubernetes API; a kube-apiserver does not. A client of such a
// server can offer the same cluster in a browser.

// Whether `html` is the web console's page: it names itself with
// <meta name="application-name" content="DRA Console">.
bool isWebConsolePage(QByteArrayView html);

// Asks the server `client` talks to for /ui/. `done` gets the console's address
// ("https://host:port/ui/", under the server URL's own path, if any) when the answer is the web
// console's page, and nullopt for anything else: an error status, another page, no answer. Runs
// on `client`'s thread; `done` is not called once `context` is gone.
void probeWebConsole(
    RestClient &client, QObject *context, std::function<void(const std::optional<QUrl> &)> done);

// The address to open in a browser: `console` at `route` ("/overview"), with the context's bearer
// token after the route in the fragment when it has a static one. The fragment never reaches
// the server, and the page takes the token out of the address bar once it has read it.
QUrl webConsoleLink(const QUrl &console, const ClientConfig &client,
    const QString &route = QStringLiteral("/overview"));

} // namespace dra::kube
