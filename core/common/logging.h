// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QLoggingCategory>

// One category per module; enable with QT_LOGGING_RULES="dra.store.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcModel)
Q_DECLARE_LOGGING_CATEGORY(lcStore)
Q_DECLARE_LOGGING_CATEGORY(lcKube)
Q_DECLARE_LOGGING_CATEGORY(lcCel)
Q_DECLARE_LOGGING_CATEGORY(lcInventory)
Q_DECLARE_LOGGING_CATEGORY(lcServer)
Q_DECLARE_LOGGING_CATEGORY(lcSandbox)
