// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/user_tokens.h"

namespace dra::server {

bool sameSecret(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

void UserTokens::add(std::string token, model::UserIdentity user)
{
    m_entries.push_back({ std::move(token), std::move(user) });
}

void UserTokens::replaceToken(std::string_view name, std::string token)
{
    for (Entry &entry : m_entries)
        if (entry.user.name == name)
            entry.token = token;
}

std::optional<model::UserIdentity> UserTokens::find(std::string_view token) const
{
    std::optional<model::UserIdentity> found;
    for (const Entry &entry : m_entries)
        if (sameSecret(entry.token, token) && !found)
            found = entry.user;
    return found;
}

} // namespace dra::server
