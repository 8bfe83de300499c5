// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dra::model {

using StringPairs = std::vector<std::pair<std::string, std::string>>;

// A controlling or owning object, from metadata.ownerReferences.
struct OwnerReference
{
    std::string apiVersion, kind, name, uid;
    bool controller = false;
};

// The parts of metadata the console reads. Everything else stays in the raw JSON.
struct ObjectMeta
{
    std::string name;
    std::string ns;
    std::string uid;
    std::string resourceVersion; // opaque: kept to resume watches, never compared
    int64_t generation = 0;
    std::string creationTimestamp; // RFC 3339 as sent
    std::string deletionTimestamp;
    StringPairs labels;
    StringPairs annotations;
    std::vector<OwnerReference> ownerReferences;

    // The value of a label, or nullptr.
    const std::string *label(std::string_view key) const
    {
        for (const auto &[k, v] : labels)
            if (k == key)
                return &v;
        return nullptr;
    }
};

} // namespace dra::model
