// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/theme.h"

#include <algorithm>
#include <cmath>

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
    .free = QColor(0x8f, 0xd1, 0x9e),
    .partlyUsed = QColor(0xf2, 0xc9, 0x4c),
    .unmapped = QColor(0xd0, 0xd0, 0xd0),
    .text = QColor(0x1f, 0x23, 0x28),
    .mutedText = QColor(0x5f, 0x68, 0x73),
    .frame = QColor(0x8c, 0x95, 0x9f),
    .groupFill = QColor(0xf3, 0xf5, 0xf7),
    .linkNvlink = QColor(0x76, 0x4b, 0xc4),
    .linkPcie = QColor(0x3b, 0x7d, 0xd8),
    .selection = QColor(0x0b, 0x5c, 0xd5),
    .okText = QColor(0x17, 0x6f, 0x30),
    .warningText = QColor(0x7d, 0x54, 0x00),
    .errorText = QColor(0xc6, 0x28, 0x28),
};
const ThemeColors kDark {
    .free = QColor(0x2e, 0x7d, 0x4f),
    .partlyUsed = QColor(0xa8, 0x7c, 0x12),
    .unmapped = QColor(0x55, 0x58, 0x5d),
    .text = QColor(0xdf, 0xe1, 0xe5),
    .mutedText = QColor(0x9a, 0xa0, 0xa6),
    .frame = QColor(0x6f, 0x73, 0x7a),
    .groupFill = QColor(0x32, 0x35, 0x39),
    .linkNvlink = QColor(0xb3, 0x8c, 0xf5),
    .linkPcie = QColor(0x6c, 0xa7, 0xf5),
    .selection = QColor(0x58, 0x9d, 0xf6),
    .okText = QColor(0x4e, 0xc4, 0x6a),
    .warningText = QColor(0xe3, 0xa7, 0x2f),
    .errorText = QColor(0xff, 0x6b, 0x6b),
};

// WCAG 2's relative luminance of one sRGB channel.
double linearChannel(int value)
{
    const double c = value / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double relativeLuminance(const QColor &color)
{
    return 0.2126 * linearChannel(color.red()) + 0.7152 * linearChannel(color.green())
        + 0.0722 * linearChannel(color.blue());
}

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

double contrastRatio(const QColor &a, const QColor &b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textColorOn(const QColor &fill)
{
    const QColor black(Qt::black), white(Qt::white);
    return contrastRatio(black, fill) >= contrastRatio(white, fill) ? black : white;
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
