// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QColor>
#include <QIcon>
#include <QString>
#include <QStringList>

namespace dra::views {

// The console's own line icons for its pages, drawn from SVG in `stroke` (the palette's text
// colour, so both themes read them) at every size a HiDPI screen asks for. `page` is one of
// pageIconNames(); any other name gives a null icon.
QIcon pageIcon(const QString &page, const QColor &stroke);
// "overview", "devices", "topology", "claims", "templates", "editor", "lint", "readiness",
// "free", "rollouts", "migration", "access": the sidebar's order.
QStringList pageIconNames();

} // namespace dra::views
