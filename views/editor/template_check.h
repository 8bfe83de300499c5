// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QString>

#include "core/alloc/template_check.h"

namespace dra::views {

// The template check (core/alloc, as `dractl template check` prints it) as HTML for the
// editor's result panel.
QString templateCheckHtml(const alloc::TemplateCheck &check);

} // namespace dra::views
