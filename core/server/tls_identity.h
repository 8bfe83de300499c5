// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QSslConfiguration>
#include <QString>
#include <QStringList>

#include "core/common/result.h"

namespace dra::server {

// The server's certificate and private key, PEM-encoded.
struct TlsIdentity
{
    QByteArray certificatePem;
    QByteArray keyPem;

    // A server-side TLS configuration (TLS 1.2+) presenting this identity; Invalid when the
    // PEM does not parse.
    [[nodiscard]] Result<QSslConfiguration> serverConfiguration() const;
};

// A new self-signed EC P-256 certificate valid for ten years for `hosts` (IP addresses and
// DNS names, e.g. "127.0.0.1", "localhost"), usable as its own CA in a kubeconfig. Any thread.
[[nodiscard]] Result<TlsIdentity> generateSelfSigned(const QStringList &hosts);

// Reads a certificate and key from PEM files (--tls-cert / --tls-key).
[[nodiscard]] Result<TlsIdentity> loadIdentity(
    const QString &certificatePath, const QString &keyPath);

// The identity kept in `dir` (serve.crt, serve.key), made on first use; files are mode 0600.
[[nodiscard]] Result<TlsIdentity> loadOrCreateIdentity(
    const QString &dir, const QStringList &hosts);

// The bearer token kept in `path` (random, 32 bytes as hex), made on first use with mode 0600.
// An existing file's first line is used as it is (--token-file).
[[nodiscard]] Result<std::string> loadOrCreateToken(const QString &path, bool create);

// A new random bearer token: 32 bytes as hex.
[[nodiscard]] Result<std::string> randomToken();

// Writes `data` to `path` readable by the owner only (0600), replacing it atomically.
[[nodiscard]] Result<void> writePrivateFile(const QString &path, const QByteArray &data);

// A kubeconfig for `serverUrl` trusting `caPem`, with `token` unless empty; context `name`.
QByteArray kubeconfigText(const std::string &serverUrl, const QByteArray &caPem,
    const std::string &token, const std::string &name);

// One context of a kubeconfig for several users of one server: its name (also the user's),
// bearer token (empty: none) and namespace (empty: none).
struct KubeconfigContext
{
    std::string name, token, ns;
};
// A kubeconfig with one cluster (named after the first context) and a context per entry of
// `contexts`, the first current.
QByteArray kubeconfigText(const std::string &serverUrl, const QByteArray &caPem,
    const std::vector<KubeconfigContext> &contexts);

} // namespace dra::server
