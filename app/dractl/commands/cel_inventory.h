// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The devices `dractl cel eval` and `dractl bench cel` evaluate selectors on: a file
// (--inventory, a List or multi-document YAML with ResourceSlices) or the cache.
#pragma once

#include <string>
#include <vector>

#include <QCommandLineParser>
#include <QString>

#include "core/common/result.h"
#include "core/inventory/device.h"
#include "core/inventory/snapshot.h"
#include "core/model/object.h"

namespace dra::cli {

QCommandLineOption celInventoryOption(); // --inventory FILE

// How a command reads its --inventory file: the objects in it, or why not (commands differ in
// which objects they must be able to decode).
using ObjectsReader = Result<std::vector<model::Object>> (*)(const QString &path);

// The snapshot of --inventory, read with `read`, when set, else of the cache (--cache/--cluster,
// with the Kubernetes version the cache recorded for the cluster).
[[nodiscard]] Result<inventory::SnapshotPtr> loadSnapshotOf(
    const QCommandLineParser &parser, ObjectsReader read);

// loadSnapshotOf() for `cel eval`: every document of a modelled kind in the file must decode.
[[nodiscard]] Result<inventory::SnapshotPtr> loadCelSnapshot(const QCommandLineParser &parser);

// The devices of the ResourceSlices in `path`, in file order (slices as listed, devices as
// each slice publishes them), for benchmarks that must walk the file's order.
[[nodiscard]] Result<std::vector<inventory::Device>> loadDevicesInFileOrder(const QString &path);

} // namespace dra::cli
