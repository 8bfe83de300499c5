// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/common/result.h"
#include "core/store/state_db.h"

namespace dra::rollout {

// Opens the state file as its writer, waiting up to `waitMs` while another process holds the
// writer lock. A rollout controller holds the lock only for each short write, so that verbs
// given from other processes can be written in between; they wait here for their turn.
// Blocks the calling thread while it waits.
[[nodiscard]] Result<store::StateDb> openStateWriter(const QString &path, int waitMs = 10'000);

} // namespace dra::rollout
