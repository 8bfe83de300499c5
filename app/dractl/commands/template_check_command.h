// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QStringList>

namespace dra::cli {

// dractl template check FILE... [--inventory F | --cache C --cluster N] [-o text|json]:
// `arguments[0]` is the command ("template check").
int runTemplateCheck(const QStringList &arguments);

} // namespace dra::cli
