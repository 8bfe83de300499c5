// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/common/result.h"

namespace dra::store {

// $XDG_CACHE_HOME/draconsole/cache.db, creating the folder. Any thread.
[[nodiscard]] Result<QString> defaultCachePath();

// $XDG_DATA_HOME/draconsole/state.db, creating the folder. Any thread.
[[nodiscard]] Result<QString> defaultStatePath();

} // namespace dra::store
