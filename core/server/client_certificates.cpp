// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/client_certificates.h"

#include <QFile>

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "core/common/c_ptr.h"

namespace dra::server {

namespace {

using common::Error;

using X509Ptr = common::CPtr<X509, X509_free>;
using StorePtr = common::CPtr<X509_STORE, X509_STORE_free>;
using StoreContextPtr = common::CPtr<X509_STORE_CTX, X509_STORE_CTX_free>;
struct ChainFree
{
    void operator()(STACK_OF(X509) * chain) const { sk_X509_free(chain); }
};
using ChainPtr = std::unique_ptr<STACK_OF(X509), ChainFree>;

X509Ptr fromDer(const QByteArray &der)
{
    const unsigned char *data = reinterpret_cast<const unsigned char *>(der.constData());
    return X509Ptr(d2i_X509(nullptr, &data, long(der.size())));
}

// The text of every subject entry `nid` (CN, O) of a certificate.
QStringList subjectEntries(X509 *certificate, int nid)
{
    QStringList values;
    X509_NAME *subject = X509_get_subject_name(certificate);
    for (int at = X509_NAME_get_index_by_NID(subject, nid, -1); at >= 0;
         at = X509_NAME_get_index_by_NID(subject, nid, at)) {
        unsigned char *utf8 = nullptr;
        const int length = ASN1_STRING_to_UTF8(
            &utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, at)));
        if (length >= 0)
            values << QString::fromUtf8(reinterpret_cast<const char *>(utf8), length);
        OPENSSL_free(utf8);
    }
    return values;
}

} // namespace

struct ClientCertificateAuthority::Impl
{
    StorePtr store;
    QList<QSslCertificate> certificates;
};

ClientCertificateAuthority::ClientCertificateAuthority(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{
}

ClientCertificateAuthority::~ClientCertificateAuthority() = default;
ClientCertificateAuthority::ClientCertificateAuthority(
    ClientCertificateAuthority &&) noexcept = default;

Result<ClientCertificateAuthority> ClientCertificateAuthority::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return dra::fail(Error::Code::NotFound,
            QStringLiteral("%1: cannot read the client CA: %2").arg(path, file.errorString()));
    return fromPem(file.readAll(), path);
}

Result<ClientCertificateAuthority> ClientCertificateAuthority::fromPem(
    const QByteArray &pem, const QString &origin)
{
    auto impl = std::make_unique<Impl>();
    impl->certificates = QSslCertificate::fromData(pem, QSsl::Pem);
    if (impl->certificates.isEmpty())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral("%1: no PEM certificate in the client CA bundle").arg(origin));
    impl->store.reset(X509_STORE_new());
    for (const QSslCertificate &certificate : impl->certificates) {
        X509Ptr x509 = fromDer(certificate.toDer());
        if (!x509 || X509_STORE_add_cert(impl->store.get(), x509.get()) != 1)
            return dra::fail(Error::Code::Invalid,
                QStringLiteral("%1: a certificate of the client CA bundle is unusable")
                    .arg(origin));
    }
    return ClientCertificateAuthority(std::move(impl));
}

Result<ClientIdentity> ClientCertificateAuthority::verify(
    const std::vector<QByteArray> &chain) const
{
    if (chain.empty())
        return dra::fail(Error::Code::Unauthorized, QStringLiteral("no client certificate"));
    X509Ptr leaf = fromDer(chain.front());
    if (!leaf)
        return dra::fail(
            Error::Code::Unauthorized, QStringLiteral("unreadable client certificate"));
    ChainPtr intermediates(sk_X509_new_null());
    std::vector<X509Ptr> owned;
    for (size_t i = 1; i < chain.size(); ++i) {
        if (X509Ptr certificate = fromDer(chain[i])) {
            sk_X509_push(intermediates.get(), certificate.get());
            owned.push_back(std::move(certificate));
        }
    }
    StoreContextPtr context(X509_STORE_CTX_new());
    if (!context
        || X509_STORE_CTX_init(context.get(), d->store.get(), leaf.get(), intermediates.get()) != 1)
        return dra::fail(
            Error::Code::Internal, QStringLiteral("cannot verify a client certificate"));
    X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_CLIENT);
    if (X509_verify_cert(context.get()) != 1)
        return dra::fail(Error::Code::Unauthorized,
            QStringLiteral("verifying the client certificate failed: %1")
                .arg(QString::fromUtf8(
                    X509_verify_cert_error_string(X509_STORE_CTX_get_error(context.get())))));
    const QStringList names = subjectEntries(leaf.get(), NID_commonName);
    if (names.isEmpty() || names.front().isEmpty())
        return dra::fail(Error::Code::Unauthorized,
            QStringLiteral("the client certificate has no common name to use as the user"));
    return ClientIdentity { names.front(), subjectEntries(leaf.get(), NID_organizationName) };
}

QList<QSslCertificate> ClientCertificateAuthority::certificates() const
{
    return d->certificates;
}

} // namespace dra::server
