// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QList>
#include <QNetworkReply>
#include <QSslError>
#include <QString>

namespace dra::kube {

// What a failed request says about trying it again. kubectl gives up at once on everything;
// a mirror retries, but only what waiting can fix.
enum class FailureClass {
    Transient, // connection refused or reset, timeouts, DNS, 429, 5xx: back off and retry
    Permanent, // a server certificate that does not verify, a client identity that cannot be
               // used, credentials refused: retrying changes nothing until the user acts
};

// For a reply that failed below HTTP. A failed TLS handshake (an unknown CA, a tls-server-name
// or host the certificate does not name, an expired certificate, a client certificate the
// server or TLS refuses) is permanent; everything else on the network path is transient.
FailureClass classifyNetworkFailure(QNetworkReply::NetworkError error);

// For an HTTP status that ends a request. 401 is permanent: RestClient reports it only after
// retrying with fresh credentials wherever fresh ones can exist (exec plugin, token file).
// 403 (RBAC) and 404 (not served) are handled by their callers and are transient here, as are
// 408, 429 and every 5xx.
FailureClass classifyHttpStatus(int status);

// The reason of a TLS handshake that did not verify, worded as kubectl (Go's crypto/x509)
// words it, with Qt's own text after it: "tls: failed to verify certificate: x509:
// certificate signed by unknown authority (The issuer certificate ... could not be found)".
// `verifiedName` is the name checked (tls-server-name, else the server's host).
QString describeTlsFailure(const QList<QSslError> &errors, const QString &verifiedName);

} // namespace dra::kube
