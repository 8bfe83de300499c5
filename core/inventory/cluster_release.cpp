// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/cluster_release.h"

#include "core/inventory/snapshot.h"
#include "core/release/release_choice.h"

namespace dra::inventory {

cel::SelectorOptions storedSelectorOptions(const Snapshot &snapshot)
{
    return { release::recordedRelease(snapshot.kubernetesVersion()), /*stored=*/true };
}

cel::SelectorOptions newSelectorOptions(const Snapshot &snapshot)
{
    return { release::recordedRelease(snapshot.kubernetesVersion()), /*stored=*/false };
}

} // namespace dra::inventory
