// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/object_key.h"

namespace dra::common {

std::string ObjectKey::display() const
{
    std::string out = kind;
    out += ' ';
    if (!ns.empty()) {
        out += ns;
        out += '/';
    }
    out += name;
    return out;
}

} // namespace dra::common

size_t std::hash<dra::common::ObjectKey>::operator()(
    const dra::common::ObjectKey &key) const noexcept
{
    const std::hash<std::string> h;
    size_t seed = h(key.group);
    for (const std::string *part : { &key.kind, &key.ns, &key.name })
        seed ^= h(*part) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
    return seed;
}
