// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <string_view>

#include <QMetaType>
#include <QString>

#include "core/model/kind.h"
#include "core/model/object_record.h"

namespace dra::kube {

// Where one mirrored stream (a kind, cluster-wide or in one namespace) stands.
enum class StreamState {
    Idle, // not started
    Listing, // reading the full list; the cache may lag behind the cluster
    Synced, // the list is in the cache; the watch is not open yet
    Watching, // live: the cache follows the cluster
    Stale, // the watch broke; the cache holds the last state seen and we are reconnecting
    Forbidden, // the user may not list or watch it (RBAC)
    Error, // failing for another reason, given with the state
};

// "listing", "synced", ... as stored in the cache's streams table.
std::string_view streamStateName(StreamState state);

// One stream's state, as reflectors report it and the cache stores it.
struct StreamStatus
{
    model::Kind kind = model::Kind::Unknown;
    std::string ns; // "" for cluster-wide
    StreamState state = StreamState::Idle;
    QString reason;
    std::string apiVersion;
    std::string resourceVersion;
    int objects = 0; // listed so far (while listing) or in the last list
    // Watch events that could not be read, since the stream started: each ended its watch,
    // which resumed from the last change applied so the event came again.
    int malformedEvents = 0;

    // "ResourceClaims in ml" / "ResourceSlices": for status lines.
    QString label() const;
    // The cache row of this state.
    model::StreamRecord record() const;
};

} // namespace dra::kube

Q_DECLARE_METATYPE(dra::kube::StreamStatus)
