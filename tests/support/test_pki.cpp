// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/support/test_pki.h"

#include <memory>
#include <string>

#include <QHostAddress>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "core/common/c_ptr.h"

namespace dra::kube::test {

namespace {

using PKeyPtr = common::CPtr<EVP_PKEY, EVP_PKEY_free>;
using X509Ptr = common::CPtr<X509, X509_free>;
using BioPtr = common::CPtr<BIO, BIO_free_all>;

PKeyPtr newKey(KeyType type)
{
    return PKeyPtr(type == KeyType::Rsa ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256"));
}

QByteArray drain(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, int(size));
}

void extension(X509 *certificate, X509 *issuer, int nid, const std::string &value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(nullptr, &context, nid, value.c_str());
    X509_add_ext(certificate, ext, -1);
    X509_EXTENSION_free(ext);
}

Pem build(EVP_PKEY *key, X509 *issuerCert, EVP_PKEY *issuerKey, const QByteArray &commonName,
    const QStringList &hosts, bool ca)
{
    X509Ptr certificate(X509_new());
    X509_set_version(certificate.get(), 2);
    uint64_t serial = 0;
    RAND_bytes(reinterpret_cast<unsigned char *>(&serial), sizeof serial);
    ASN1_INTEGER_set_uint64(
        X509_get_serialNumber(certificate.get()), (serial & 0x7fffffffffffffffULL) | 1);
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), 86400L * 30);
    X509_set_pubkey(certificate.get(), key);
    X509_NAME *name = X509_get_subject_name(certificate.get());
    if (!ca && hosts.isEmpty())
        X509_NAME_add_entry_by_txt(
            name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>("testers"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
        reinterpret_cast<const unsigned char *>(commonName.constData()), -1, -1, 0);
    X509_set_issuer_name(certificate.get(), issuerCert ? X509_get_subject_name(issuerCert) : name);
    X509 *issuer = issuerCert ? issuerCert : certificate.get();
    if (ca) {
        extension(certificate.get(), issuer, NID_basic_constraints, "critical,CA:TRUE");
        extension(certificate.get(), issuer, NID_key_usage,
            "critical,keyCertSign,cRLSign,digitalSignature");
    } else {
        extension(certificate.get(), issuer, NID_basic_constraints, "critical,CA:FALSE");
        extension(
            certificate.get(), issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
        extension(certificate.get(), issuer, NID_ext_key_usage,
            hosts.isEmpty() ? "clientAuth" : "serverAuth");
        if (!hosts.isEmpty()) {
            std::string names;
            for (const QString &host : hosts)
                names += (names.empty() ? "" : ",")
                    + std::string(QHostAddress(host).isNull() ? "DNS:" : "IP:")
                    + host.toStdString();
            extension(certificate.get(), issuer, NID_subject_alt_name, names);
        }
    }
    X509_sign(certificate.get(), issuerKey ? issuerKey : key, EVP_sha256());

    BioPtr certBio(BIO_new(BIO_s_mem())), keyBio(BIO_new(BIO_s_mem())),
        tradBio(BIO_new(BIO_s_mem()));
    PEM_write_bio_X509(certBio.get(), certificate.get());
    PEM_write_bio_PrivateKey(keyBio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    PEM_write_bio_PrivateKey_traditional(tradBio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    return Pem { drain(certBio.get()), drain(keyBio.get()), drain(tradBio.get()) };
}

PKeyPtr readKey(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return PKeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

X509Ptr readCert(const QByteArray &pem)
{
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return X509Ptr(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

} // namespace

Pem makeCa(const QByteArray &commonName, KeyType type)
{
    PKeyPtr key = newKey(type);
    return build(key.get(), nullptr, nullptr, commonName, {}, true);
}

Pem makeLeaf(const Pem &ca, const QByteArray &commonName, const QStringList &hosts, KeyType type)
{
    PKeyPtr key = newKey(type);
    PKeyPtr caKey = readKey(ca.key);
    X509Ptr caCert = readCert(ca.certificate);
    return build(key.get(), caCert.get(), caKey.get(), commonName, hosts, false);
}

} // namespace dra::kube::test
