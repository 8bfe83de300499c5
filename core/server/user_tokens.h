// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/rbac_policy.h"

namespace dra::server {

// Compares in time independent of where the first difference is, so a token cannot be guessed
// byte by byte from response times.
bool sameSecret(std::string_view a, std::string_view b);

// Bearer tokens and the users they authenticate as, like kube-apiserver's --token-auth-file:
// the demo cluster's table of users. Plain value.
class UserTokens final
{
public:
    struct Entry
    {
        std::string token;
        model::UserIdentity user;
    };

    void add(std::string token, model::UserIdentity user);
    // Gives user `name` a new token; the old one stops working (a rotated service-account token).
    void replaceToken(std::string_view name, std::string token);
    // The user of `token`; every entry is compared, in constant time each.
    std::optional<model::UserIdentity> find(std::string_view token) const;
    const std::vector<Entry> &entries() const { return m_entries; }

private:
    std::vector<Entry> m_entries;
};

} // namespace dra::server
