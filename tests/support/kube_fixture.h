// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Shared helpers of the kube tests: a temporary folder holding the kubeconfig fixtures of
// tests/data/kube with generated PKI filled in, and an event-loop spinner.
#pragma once

#include <functional>
#include <ostream>

#include <QString>
#include <QTemporaryDir>

#include "tests/support/test_pki.h"

// Readable QStrings in GoogleTest failure messages.
inline void PrintTo(const QString &text, std::ostream *out)
{
    *out << '"' << text.toStdString() << '"';
}

namespace dra::kube::test {

// The kubeconfig fixtures copied into a temporary folder, @...@ placeholders replaced:
// @CA_DATA@ (base64 of ca.certificate), @RSA_CERT_DATA@/@RSA_KEY_DATA@ (an RSA client, PKCS#1
// key), @EC_CERT_DATA@/@EC_KEY_PKCS8_DATA@ (an EC client, PKCS#8 key). pki/ holds ca.crt,
// client.crt and client.key (RSA); secrets/token holds "file-token".
class KubeconfigFixtures
{
public:
    KubeconfigFixtures();
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString dir() const { return m_dir.path(); }

    // Generated once per test run (RSA key generation is slow under sanitizers).
    static const Pem &ca();
    static const Pem &rsaClient();
    static const Pem &ecClient();

private:
    QTemporaryDir m_dir;
};

// Writes `text` to `path` (creating folders); mode 0700 when `executable`.
void writeFile(const QString &path, const QByteArray &text, bool executable = false);

// Runs the event loop until `done` holds or `timeoutMs` passes; returns `done()`.
bool spinUntil(const std::function<bool()> &done, int timeoutMs = 10000);

} // namespace dra::kube::test
