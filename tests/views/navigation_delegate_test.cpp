// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The sidebar shows each page's shortcut beside its name, and a long name never runs into it.
#include "views/common/navigation_delegate.h"

#include <QImage>
#include <QListWidget>
#include <QPainter>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

constexpr int kWidth = 200, kHeight = 24;

// One sidebar row painted by the delegate.
QImage paintRow(const QString &name, const QString &shortcut)
{
    QListWidget list;
    list.resize(kWidth, 100);
    auto *item = new QListWidgetItem(name, &list);
    item->setData(NavigationDelegate::ShortcutRole, shortcut);
    NavigationDelegate delegate;
    QStyleOptionViewItem option;
    option.initFrom(&list);
    option.rect = QRect(0, 0, kWidth, kHeight);
    option.widget = &list;
    QImage image(kWidth, kHeight, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    delegate.paint(&painter, option, list.model()->index(0, 0));
    return image;
}

QImage rightPart(const QImage &row, int width)
{
    return row.copy(kWidth - width, 0, width, kHeight);
}

bool hasInk(const QImage &image)
{
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixelColor(x, y) != QColor(Qt::white))
                return true;
    return false;
}

TEST(NavigationDelegateTest, TheShortcutIsDrawnAtTheRightOfTheRow)
{
    const QImage without = paintRow(QStringLiteral("Claims"), QString());
    const QImage with = paintRow(QStringLiteral("Claims"), QStringLiteral("Ctrl+4"));
    EXPECT_FALSE(hasInk(rightPart(without, 60))) << "a short name leaves the right empty";
    EXPECT_TRUE(hasInk(rightPart(with, 60))) << "the shortcut is drawn there";
}

TEST(NavigationDelegateTest, ALongNameIsCutBeforeTheShortcut)
{
    const QImage shortName = paintRow(QStringLiteral("Claims"), QStringLiteral("Ctrl+4"));
    const QImage longName
        = paintRow(QStringLiteral("Claims 18 · 1 pending · and a great deal more to say"),
            QStringLiteral("Ctrl+4"));
    // Where the shortcut is, both rows look the same: the long name stopped before it.
    EXPECT_EQ(rightPart(shortName, 50), rightPart(longName, 50));
}

} // namespace
} // namespace dra::views
