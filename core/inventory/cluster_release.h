// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Which CEL environment a snapshot's selectors are compiled in: that of the cluster's own
// release (recorded with the snapshot; the newest this build knows when it is not), as its
// scheduler and API server compile them.
#pragma once

#include "core/cel/dra_environment.h"

namespace dra::inventory {

class Snapshot;

// For expressions already in the cluster (DeviceClass, ResourceClaim and DeviceTaintRule
// selectors): everything the release's binaries know, limited only at run time.
cel::SelectorOptions storedSelectorOptions(const Snapshot &snapshot);

// For a selector a user is writing for the cluster: what the release's enabled gates declare,
// rejected over the estimated cost limit, as kube-apiserver checks a new object.
cel::SelectorOptions newSelectorOptions(const Snapshot &snapshot);

} // namespace dra::inventory
