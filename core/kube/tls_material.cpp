// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/tls_material.h"

#include <memory>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "core/common/c_ptr.h"

namespace dra::kube {

namespace {

using common::Error;

using PKeyPtr = common::CPtr<EVP_PKEY, EVP_PKEY_free>;
using X509Ptr = common::CPtr<X509, X509_free>;
using BioPtr = common::CPtr<BIO, BIO_free_all>;

BioPtr memoryBio(const QByteArray &data)
{
    return BioPtr(BIO_new_mem_buf(data.constData(), int(data.size())));
}

// Never prompts: a key protected by a passphrase is an error, not a terminal read.
int noPassphrase(char *, int, int, void *)
{
    return -1;
}

PKeyPtr readKey(const QByteArray &pem)
{
    BioPtr bio = memoryBio(pem);
    PKeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, noPassphrase, nullptr));
    ERR_clear_error(); // failures are reported by the caller; do not leave them for Qt's backend
    return key;
}

QByteArray traditionalPem(EVP_PKEY *key)
{
    BioPtr bio(BIO_new(BIO_s_mem()));
    if (!PEM_write_bio_PrivateKey_traditional(
            bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr))
        return {};
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return QByteArray(data, int(size));
}

} // namespace

Result<QList<QSslCertificate>> parseCertificates(const QByteArray &pem, const QString &what)
{
    if (!pem.contains("-----BEGIN CERTIFICATE-----"))
        return fail(Error::Code::Invalid,
            what + QStringLiteral(": no PEM certificate (-----BEGIN CERTIFICATE-----) in it"));
    const QList<QSslCertificate> certificates = QSslCertificate::fromData(pem, QSsl::Pem);
    if (certificates.isEmpty() || certificates.first().isNull())
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": the PEM certificate does not parse"));
    return certificates;
}

Result<QSslKey> parsePrivateKey(const QByteArray &pem, const QString &what)
{
    if (pem.contains("ENCRYPTED"))
        return fail(Error::Code::Unsupported,
            what
                + QStringLiteral(
                    ": the private key is encrypted; kubeconfig keys must not have a passphrase"));
    PKeyPtr key = readKey(pem);
    if (!key)
        return fail(Error::Code::Invalid, what + QStringLiteral(": not a PEM private key"));
    QSsl::KeyAlgorithm algorithm;
    switch (EVP_PKEY_get_base_id(key.get())) {
    case EVP_PKEY_RSA:
        algorithm = QSsl::Rsa;
        break;
    case EVP_PKEY_EC:
        algorithm = QSsl::Ec;
        break;
    default:
        return fail(Error::Code::Unsupported,
            what
                + QStringLiteral(": %1 keys are not supported (use an RSA or EC key)")
                      .arg(QString::fromLatin1(OBJ_nid2sn(EVP_PKEY_get_base_id(key.get())))));
    }
    // Qt's backend reads the traditional forms (RSA PRIVATE KEY, EC PRIVATE KEY) reliably; PKCS#8
    // ("PRIVATE KEY") is what openssl and cert-manager write by default.
    const QByteArray traditional = traditionalPem(key.get());
    QSslKey qtKey(traditional, algorithm, QSsl::Pem, QSsl::PrivateKey);
    if (qtKey.isNull())
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": the private key could not be loaded"));
    return qtKey;
}

Result<void> checkKeyMatchesCertificate(
    const QByteArray &certificatePem, const QByteArray &keyPem, const QString &what)
{
    BioPtr bio = memoryBio(certificatePem);
    X509Ptr certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    PKeyPtr key = readKey(keyPem);
    ERR_clear_error();
    if (!certificate || !key)
        return fail(
            Error::Code::Invalid, what + QStringLiteral(": the certificate or key does not parse"));
    if (X509_check_private_key(certificate.get(), key.get()) != 1) {
        ERR_clear_error();
        return fail(Error::Code::Invalid,
            what + QStringLiteral(": the private key does not match the certificate"));
    }
    return {};
}

} // namespace dra::kube
