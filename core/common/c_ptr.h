// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>

namespace dra::common {

// Owns a C library object (OpenSSL's X509, EVP_PKEY, BIO, ...) and frees it with the library's
// own function: `using X509Ptr = common::CPtr<X509, X509_free>;`.
template <auto Free> struct FreeWith
{
    template <typename T> void operator()(T *p) const { Free(p); }
};

template <typename T, auto Free> using CPtr = std::unique_ptr<T, FreeWith<Free>>;

} // namespace dra::common
