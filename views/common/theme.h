// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

class QApplication;

namespace dra::views {

enum class Theme { Light, Dark };

// Qt 6.4 cannot ask the platform for its colour scheme, so the theme is judged from the palette
// the platform gave: a dark window background means the user runs a dark desktop.
Theme themeOfPalette(const QPalette &palette);

// "light" / "dark", and back (anything else reads as Light).
QString themeName(Theme theme);
Theme themeFromName(const QString &name);

// Switches the application to the Fusion style with our palette for `theme`; widgets that paint
// their own colours read themeColors() and repaint on QEvent::PaletteChange.
void applyTheme(QApplication &app, Theme theme);

// The theme applyTheme() set last (Light before the first call).
Theme currentTheme();

// The colours that carry meaning in the views: allocation state and link provenance. One place,
// so the topology, the tiles and the tables agree.
struct ThemeColors
{
    QColor free; // a device nobody holds (a fill)
    QColor partlyUsed; // a GPU some of whose MIG slices are held (a fill)
    QColor unmapped; // an imported GPU no DRA device maps to (a fill)
    QColor text, mutedText, frame, groupFill, linkNvlink, linkPcie, selection;
    // Text that carries a verdict: free / passed / fits, warning / blocked / inconclusive,
    // error / failed. Each reads at WCAG AA (4.5:1) on the theme's Base, AlternateBase and
    // Window, so a state is never told by a colour nobody can read.
    QColor okText, warningText, errorText;
};
const ThemeColors &themeColors();

// The WCAG 2 contrast ratio of two opaque colours: 1 (the same) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b);

// Black or white, whichever reads better on `fill`; either reaches at least 4.58:1 on any fill,
// so text drawn on a holder's or a state's colour stays readable in both themes.
QColor textColorOn(const QColor &fill);

// A stable, readable colour per holder (a claim "ns/name"), so one claim's devices share a colour
// across every view.
QColor holderColor(const QString &claim);

} // namespace dra::views
