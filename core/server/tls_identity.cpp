// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/tls_identity.h"

#include <memory>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QSaveFile>
#include <QSslCertificate>
#include <QSslKey>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "core/common/c_ptr.h"

namespace dra::server {

namespace {

using common::Error;

using PKeyPtr = common::CPtr<EVP_PKEY, EVP_PKEY_free>;
using X509Ptr = common::CPtr<X509, X509_free>;
using BioPtr = common::CPtr<BIO, BIO_free_all>;

std::unexpected<Error> tlsError(const QString &what)
{
    return dra::fail(Error::Code::Internal,
        QStringLiteral("cannot create the server certificate: %1").arg(what));
}

bool addExtension(X509 *certificate, int nid, const std::string &value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

QByteArray bioText(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, size);
}

Result<QByteArray> readFile(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1: cannot read the %2: %3").arg(path, what, file.errorString()));
    return file.readAll();
}

} // namespace

Result<QSslConfiguration> TlsIdentity::serverConfiguration() const
{
    const QList<QSslCertificate> chain = QSslCertificate::fromData(certificatePem, QSsl::Pem);
    if (chain.isEmpty())
        return dra::fail(
            Error::Code::Invalid, QStringLiteral("the server certificate is not valid PEM"));
    QSslKey key(keyPem, QSsl::Ec, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(keyPem, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("the server key is not a PEM EC or RSA private key"));
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(key);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
    return configuration;
}

Result<TlsIdentity> generateSelfSigned(const QStringList &hosts)
{
    PKeyPtr key(EVP_EC_gen("P-256"));
    if (!key)
        return tlsError(QStringLiteral("EC key generation failed"));
    X509Ptr certificate(X509_new());
    if (!certificate)
        return tlsError(QStringLiteral("out of memory"));
    X509_set_version(certificate.get(), 2);
    unsigned char serial[16];
    if (RAND_bytes(serial, sizeof serial) != 1)
        return tlsError(QStringLiteral("no randomness"));
    serial[0] &= 0x7f; // a positive serial number
    BIGNUM *number = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate.get()));
    BN_free(number);
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -60 * 60);
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 10L * 365 * 24 * 60 * 60);
    X509_set_pubkey(certificate.get(), key.get());
    X509_NAME *name = X509_get_subject_name(certificate.get());
    X509_NAME_add_entry_by_txt(
        name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("DRA Console"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
        reinterpret_cast<const unsigned char *>("dractl serve"), -1, -1, 0);
    X509_set_issuer_name(certificate.get(), name);

    std::string altNames;
    for (const QString &host : hosts) {
        if (!altNames.empty())
            altNames += ",";
        altNames += (QHostAddress(host).isNull() ? "DNS:" : "IP:") + host.toStdString();
    }
    // Self-signed and used as its own CA by kubeconfigs (certificate-authority-data).
    if (!addExtension(certificate.get(), NID_subject_alt_name, altNames)
        || !addExtension(certificate.get(), NID_basic_constraints, "critical,CA:TRUE")
        || !addExtension(certificate.get(), NID_key_usage, "critical,digitalSignature,keyCertSign")
        || !addExtension(certificate.get(), NID_ext_key_usage, "serverAuth")
        || !addExtension(certificate.get(), NID_subject_key_identifier, "hash"))
        return tlsError(QStringLiteral("cannot add certificate extensions"));
    if (X509_sign(certificate.get(), key.get(), EVP_sha256()) == 0)
        return tlsError(QStringLiteral("signing failed"));

    BioPtr certificateBio(BIO_new(BIO_s_mem()));
    BioPtr keyBio(BIO_new(BIO_s_mem()));
    if (!PEM_write_bio_X509(certificateBio.get(), certificate.get())
        || !PEM_write_bio_PrivateKey(
            keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr))
        return tlsError(QStringLiteral("PEM encoding failed"));
    return TlsIdentity { bioText(certificateBio.get()), bioText(keyBio.get()) };
}

Result<TlsIdentity> loadIdentity(const QString &certificatePath, const QString &keyPath)
{
    Result<QByteArray> certificate = readFile(certificatePath, QStringLiteral("TLS certificate"));
    if (!certificate)
        return dra::fail(certificate.error());
    Result<QByteArray> key = readFile(keyPath, QStringLiteral("TLS key"));
    if (!key)
        return dra::fail(key.error());
    TlsIdentity identity { *certificate, *key };
    if (Result<QSslConfiguration> check = identity.serverConfiguration(); !check)
        return dra::fail(check.error().withContext(certificatePath));
    return identity;
}

Result<void> writePrivateFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return dra::fail(Error::Code::Internal,
            QStringLiteral("%1: cannot write: %2").arg(path, file.errorString()));
    // Restrict before the secret is written, so it is never readable by others.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(data);
    if (!file.commit())
        return dra::fail(Error::Code::Internal,
            QStringLiteral("%1: cannot write: %2").arg(path, file.errorString()));
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return {};
}

Result<TlsIdentity> loadOrCreateIdentity(const QString &dir, const QStringList &hosts)
{
    const QString certificatePath = dir + QStringLiteral("/serve.crt");
    const QString keyPath = dir + QStringLiteral("/serve.key");
    if (QFileInfo::exists(certificatePath) && QFileInfo::exists(keyPath))
        return loadIdentity(certificatePath, keyPath);
    Result<TlsIdentity> identity = generateSelfSigned(hosts);
    if (!identity)
        return identity;
    if (Result<void> written = writePrivateFile(keyPath, identity->keyPem); !written)
        return dra::fail(written.error());
    if (Result<void> written = writePrivateFile(certificatePath, identity->certificatePem);
        !written)
        return dra::fail(written.error());
    return identity;
}

Result<std::string> loadOrCreateToken(const QString &path, bool create)
{
    if (QFileInfo::exists(path) || !create) {
        Result<QByteArray> text = readFile(path, QStringLiteral("token file"));
        if (!text)
            return dra::fail(text.error());
        const QByteArray token = text->split('\n').value(0).trimmed();
        if (token.isEmpty())
            return dra::fail(
                Error::Code::Invalid, QStringLiteral("%1: the token file is empty").arg(path));
        return token.toStdString();
    }
    Result<std::string> token = randomToken();
    if (!token)
        return dra::fail(token.error());
    if (Result<void> written = writePrivateFile(path, QByteArray::fromStdString(*token) + '\n');
        !written)
        return dra::fail(written.error());
    return token;
}

Result<std::string> randomToken()
{
    unsigned char random[32];
    if (RAND_bytes(random, sizeof random) != 1)
        return dra::fail(
            Error::Code::Internal, QStringLiteral("no randomness for the bearer token"));
    return QByteArray(reinterpret_cast<const char *>(random), sizeof random).toHex().toStdString();
}

QByteArray kubeconfigText(const std::string &serverUrl, const QByteArray &caPem,
    const std::string &token, const std::string &name)
{
    return kubeconfigText(serverUrl, caPem, { { name, token, {} } });
}

QByteArray kubeconfigText(const std::string &serverUrl, const QByteArray &caPem,
    const std::vector<KubeconfigContext> &contexts)
{
    if (contexts.empty())
        return {};
    const QByteArray cluster = QByteArray::fromStdString(contexts.front().name);
    QByteArray text = "apiVersion: v1\nkind: Config\nclusters:\n- name: " + cluster
        + "\n  cluster:\n    server: " + QByteArray::fromStdString(serverUrl) + "\n";
    if (!caPem.isEmpty())
        text += "    certificate-authority-data: " + caPem.toBase64() + "\n";
    text += "users:\n";
    for (const KubeconfigContext &context : contexts) {
        text += "- name: " + QByteArray::fromStdString(context.name) + "\n  user:";
        text += context.token.empty()
            ? QByteArray(" {}\n")
            : "\n    token: " + QByteArray::fromStdString(context.token) + "\n";
    }
    text += "contexts:\n";
    for (const KubeconfigContext &context : contexts) {
        const QByteArray name = QByteArray::fromStdString(context.name);
        text += "- name: " + name + "\n  context:\n    cluster: " + cluster + "\n    user: " + name
            + "\n";
        if (!context.ns.empty())
            text += "    namespace: " + QByteArray::fromStdString(context.ns) + "\n";
    }
    text += "current-context: " + cluster + "\n";
    return text;
}

} // namespace dra::server
