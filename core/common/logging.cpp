// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/logging.h"

Q_LOGGING_CATEGORY(lcModel, "dra.model", QtWarningMsg)
Q_LOGGING_CATEGORY(lcStore, "dra.store", QtWarningMsg)
Q_LOGGING_CATEGORY(lcKube, "dra.kube", QtWarningMsg)
Q_LOGGING_CATEGORY(lcCel, "dra.cel", QtWarningMsg)
Q_LOGGING_CATEGORY(lcInventory, "dra.inventory", QtWarningMsg)
Q_LOGGING_CATEGORY(lcServer, "dra.server", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSandbox, "dra.sandbox", QtWarningMsg)
