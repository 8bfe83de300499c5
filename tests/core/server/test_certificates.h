// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Certificates for the client-certificate tests: a CA, and client certificates it signs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <QByteArray>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace dra::server::test {

struct Pem
{
    QByteArray certificate;
    QByteArray key;
};

inline QByteArray bioText(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, qsizetype(size));
}

// A certificate for `commonName` with `organizations`, signed by `issuer` (self-signed CA when
// null). EC P-256, valid for a day.
inline Pem makeCertificate(
    const std::string &commonName, const std::vector<std::string> &organizations, const Pem *issuer)
{
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *certificate = X509_new();
    X509_set_version(certificate, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(certificate),
        long(std::hash<std::string>()(commonName) & 0x7fffffff));
    X509_gmtime_adj(X509_getm_notBefore(certificate), -3600);
    X509_gmtime_adj(X509_getm_notAfter(certificate), 24 * 3600);
    X509_set_pubkey(certificate, key);
    X509_NAME *name = X509_get_subject_name(certificate);
    for (const std::string &organization : organizations)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
            reinterpret_cast<const unsigned char *>(organization.c_str()), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
        reinterpret_cast<const unsigned char *>(commonName.c_str()), -1, -1, 0);
    EVP_PKEY *signer = key;
    X509 *issuerCertificate = nullptr;
    if (issuer) {
        BIO *certificateBio
            = BIO_new_mem_buf(issuer->certificate.constData(), int(issuer->certificate.size()));
        BIO *keyBio = BIO_new_mem_buf(issuer->key.constData(), int(issuer->key.size()));
        issuerCertificate = PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr);
        signer = PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr);
        BIO_free(certificateBio);
        BIO_free(keyBio);
        X509_set_issuer_name(certificate, X509_get_subject_name(issuerCertificate));
    } else {
        X509_set_issuer_name(certificate, name);
    }
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuerCertificate ? issuerCertificate : certificate, certificate,
        nullptr, nullptr, 0);
    const char *constraints = issuer ? "critical,CA:FALSE" : "critical,CA:TRUE";
    const char *usage
        = issuer ? "critical,digitalSignature" : "critical,keyCertSign,digitalSignature";
    for (const auto &[nid, value] :
        { std::pair { NID_basic_constraints, constraints }, std::pair { NID_key_usage, usage } }) {
        X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
        X509_add_ext(certificate, extension, -1);
        X509_EXTENSION_free(extension);
    }
    if (issuer) {
        X509_EXTENSION *extension
            = X509V3_EXT_conf_nid(nullptr, &context, NID_ext_key_usage, "clientAuth");
        X509_add_ext(certificate, extension, -1);
        X509_EXTENSION_free(extension);
    }
    X509_sign(certificate, signer, EVP_sha256());
    BIO *certificateOut = BIO_new(BIO_s_mem());
    BIO *keyOut = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(certificateOut, certificate);
    PEM_write_bio_PrivateKey(keyOut, key, nullptr, nullptr, 0, nullptr, nullptr);
    Pem pem { bioText(certificateOut), bioText(keyOut) };
    BIO_free(certificateOut);
    BIO_free(keyOut);
    if (issuer) {
        EVP_PKEY_free(signer);
        X509_free(issuerCertificate);
    }
    X509_free(certificate);
    EVP_PKEY_free(key);
    return pem;
}

} // namespace dra::server::test
