// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Certificates and keys made at test time, so no secret ever sits in the repository.
#pragma once

#include <QByteArray>
#include <QStringList>

namespace dra::kube::test {

enum class KeyType { Rsa, Ec };

struct Pem
{
    QByteArray certificate;
    QByteArray key; // PKCS#8 ("PRIVATE KEY")
    QByteArray keyTraditional; // PKCS#1 ("RSA PRIVATE KEY") or SEC1 ("EC PRIVATE KEY")
};

// A self-signed CA.
Pem makeCa(const QByteArray &commonName, KeyType type = KeyType::Ec);
// A certificate signed by `ca`: a server certificate for `hosts` (IPs and DNS names), or a
// client certificate (CN = user, O = group) when `hosts` is empty.
Pem makeLeaf(const Pem &ca, const QByteArray &commonName, const QStringList &hosts,
    KeyType type = KeyType::Ec);

} // namespace dra::kube::test
