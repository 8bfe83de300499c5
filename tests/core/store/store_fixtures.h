// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Objects and batches for the store tests and the crash writer: ResourceSlices whose JSON
// lists the same devices as their device rows, as the model layer will produce them.
#pragma once

#include <string>

#include "core/model/object_record.h"

namespace dra::store::test {

inline constexpr const char *kResourceGroup = "resource.k8s.io";

common::ObjectKey sliceKey(const std::string &name);
common::ObjectKey claimKey(const std::string &ns, const std::string &name);

// A ResourceSlice of driver gpu.example.com with `deviceCount` GPUs named gpu-0..; `node` empty
// makes it network-attached. `label` ends up in metadata.labels, to make a modified copy.
model::ObjectRecord makeSlice(const std::string &name, const std::string &node, int deviceCount,
    const std::string &resourceVersion, const std::string &label = {});
model::ObjectRecord makeClaim(const std::string &ns, const std::string &name,
    const std::string &resourceVersion, const std::string &label = {});

model::Change added(model::ObjectRecord object);
model::Change modified(model::ObjectRecord object);
// A deletion carrying only the key, as after a relist.
model::Change deletedKey(const common::ObjectKey &key);

// The crash writer's batch number `index` (from 1) for cluster kCrashCluster: adds
// kCrashSlices slices "b<index>-s<j>" with 1 to 4 devices each, relabels "b<index-1>-s0" with
// the label "<index>", deletes "b<index-2>-s1" and records list version "<index>", so a reader
// can tell from any state which batches are fully present.
inline constexpr const char *kCrashCluster = "crash";
inline constexpr int kCrashSlices = 150;
model::WatchBatch crashBatch(int index);
std::string crashSliceName(int index, int slice);
int crashSliceDevices(int slice);

} // namespace dra::store::test
