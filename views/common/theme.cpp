// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace dra::views {
namespace {

Theme g_theme = Theme::Light;

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x8f, 0x94));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x58, 0x9d, 0xf6));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    for (auto role : { QPalette::Text, QPalette::ButtonText, QPalette::WindowText })
        p.setColor(QPalette::Disabled, role, QColor(0x6f, 0x73, 0x7a));
    return p;
}

const ThemeColors kLight {
    QColor(0x8f, 0xd1, 0x9e),
    QColor(0xf2, 0xc9, 0x4c),
    QColor(0xd0, 0xd0, 0xd0),
    QColor(0x1f, 0x23, 0x28),
    QColor(0x6a, 0x73, 0x7d),
    QColor(0x8c, 0x95, 0x9f),
    QColor(0xf3, 0xf5, 0xf7),
    QColor(0x76, 0x4b, 0xc4),
    QColor(0x3b, 0x7d, 0xd8),
    QColor(0x0b, 0x5c, 0xd5),
};
const ThemeColors kDark {
    QColor(0x2e, 0x7d, 0x4f),
    QColor(0xa8, 0x7c, 0x12),
    QColor(0x55, 0x58, 0x5d),
    QColor(0xdf, 0xe1, 0xe5),
    QColor(0x9a, 0xa0, 0xa6),
    QColor(0x6f, 0x73, 0x7a),
    QColor(0x32, 0x35, 0x39),
    QColor(0xb3, 0x8c, 0xf5),
    QColor(0x6c, 0xa7, 0xf5),
    QColor(0x58, 0x9d, 0xf6),
};

} // namespace

Theme themeOfPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? Theme::Dark : Theme::Light;
}

QString themeName(Theme theme)
{
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

Theme themeFromName(const QString &name)
{
    return name == QLatin1String("dark") ? Theme::Dark : Theme::Light;
}

void applyTheme(QApplication &app, Theme theme)
{
    g_theme = theme;
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    app.setPalette(theme == Theme::Dark ? darkPalette() : app.style()->standardPalette());
}

Theme currentTheme()
{
    return g_theme;
}

const ThemeColors &themeColors()
{
    return g_theme == Theme::Dark ? kDark : kLight;
}

QColor holderColor(const QString &claim)
{
    // Golden-angle hues spread neighbouring hashes apart; saturation and value suit both themes.
    const uint hash = qHash(claim);
    const int hue = int((hash % 360u) * 137u % 360u);
    return QColor::fromHsv(
        hue, g_theme == Theme::Dark ? 140 : 110, g_theme == Theme::Dark ? 200 : 235);
}

} // namespace dra::views
