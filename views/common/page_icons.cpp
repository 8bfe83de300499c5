// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/page_icons.h"

#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>

namespace dra::views {
namespace {

// 24×24 outlines; "currentColor" is replaced by the stroke colour.
const char *shapeOf(const QString &page)
{
    static const std::pair<const char *, const char *> shapes[] = {
        { "overview",
            "<rect x='3' y='3' width='7' height='7' rx='1'/><rect x='14' y='3' width='7' "
            "height='7' rx='1'/><rect x='3' y='14' width='7' height='7' rx='1'/><rect x='14' "
            "y='14' width='7' height='7' rx='1'/>" },
        { "devices",
            "<rect x='6' y='6' width='12' height='12' rx='1'/><rect x='9.5' y='9.5' width='5' "
            "height='5'/><path d='M9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4'/>" },
        { "topology",
            "<circle cx='12' cy='5' r='2.5'/><circle cx='5' cy='19' r='2.5'/><circle cx='19' "
            "cy='19' r='2.5'/><path d='M11 7.2 6.2 16.8M13 7.2l4.8 9.6M7.5 19h9'/>" },
        { "claims",
            "<path d='M3 7a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v3a2 2 0 0 0 0 4v3a2 2 0 0 0-2 2H5a2 2 "
            "0 0 0-2-2v-3a2 2 0 0 0 0-4z'/><path d='M9 9h6M9 15h6'/>" },
        { "templates", "<path d='M6 2h9l5 5v15H6z'/><path d='M15 2v5h5M9 12h7M9 16h7'/>" },
        { "editor", "<path d='M4 20h4L19 9l-4-4L4 16z'/><path d='M13.5 6.5l4 4M14 20h6'/>" },
        { "lint", "<path d='M12 3 2 20h20z'/><path d='M12 9v5M12 16.5v1'/>" },
        { "readiness", "<circle cx='12' cy='12' r='9'/><path d='M7.5 12.5l3 3 6-6.5'/>" },
        { "free", "<circle cx='12' cy='12' r='9'/><path d='M12 12V3M12 12l7 5'/>" },
        { "rollouts", "<path d='M4 17l5-5 4 4 7-7'/><path d='M15 9h5v5'/>" },
        // A workload moving from one box (the device plugin) to another (DRA).
        { "migration",
            "<rect x='2' y='7' width='6' height='10' rx='1'/><rect x='16' y='7' width='6' "
            "height='10' rx='1'/><path d='M9.5 12h5M12 9.5l2.5 2.5-2.5 2.5'/>" },
        // A key: who may use what.
        { "access", "<circle cx='7.5' cy='12' r='4.5'/><path d='M12 12h10M18 12v4M21.5 12v3'/>" },
    };
    for (const auto &[name, shape] : shapes)
        if (page == QLatin1String(name))
            return shape;
    return nullptr;
}

} // namespace

QStringList pageIconNames()
{
    return { QStringLiteral("overview"), QStringLiteral("devices"), QStringLiteral("topology"),
        QStringLiteral("claims"), QStringLiteral("templates"), QStringLiteral("editor"),
        QStringLiteral("lint"), QStringLiteral("readiness"), QStringLiteral("free"),
        QStringLiteral("rollouts"), QStringLiteral("migration"), QStringLiteral("access") };
}

QIcon pageIcon(const QString &page, const QColor &stroke)
{
    const char *shape = shapeOf(page);
    if (!shape)
        return {};
    const QByteArray svg = QByteArrayLiteral("<svg xmlns='http://www.w3.org/2000/svg' "
                                             "viewBox='0 0 24 24' fill='none' stroke='")
        + stroke.name().toLatin1()
        + QByteArrayLiteral("' stroke-width='1.8' stroke-linecap='round' "
                            "stroke-linejoin='round'>")
        + QByteArray(shape) + QByteArrayLiteral("</svg>");
    QSvgRenderer renderer(svg);
    QIcon icon;
    // Sizes for 1×, 1.5× and 2× screens at the list's 16 and 24 pixel icons.
    for (int size : { 16, 24, 32, 48 }) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace dra::views
