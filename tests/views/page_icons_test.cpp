// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/common/page_icons.h"

#include <QImage>
#include <QPixmap>

#include <gtest/gtest.h>

namespace dra::views {
namespace {

// Pixels drawn in `colour` (any alpha) of the icon at `size`.
int strokePixels(const QIcon &icon, int size, const QColor &colour)
{
    const QImage image = icon.pixmap(size, size).toImage();
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            count += pixel.alpha() > 0 && pixel.red() == colour.red()
                && pixel.green() == colour.green() && pixel.blue() == colour.blue();
        }
    return count;
}

TEST(PageIconsTest, EveryPageHasItsOwnIconInTheGivenColour)
{
    const QColor stroke(0x20, 0x60, 0xc0);
    QStringList seen;
    for (const QString &page : pageIconNames()) {
        const QIcon icon = pageIcon(page, stroke);
        ASSERT_FALSE(icon.isNull()) << page.toStdString();
        EXPECT_GT(strokePixels(icon, 24, stroke), 10) << page.toStdString();
        EXPECT_GE(icon.availableSizes().size(), 3) << "sizes for HiDPI screens";
        const QImage image = icon.pixmap(24, 24).toImage();
        for (const QString &other : seen)
            EXPECT_NE(image, pageIcon(other, stroke).pixmap(24, 24).toImage())
                << page.toStdString() << " looks like " << other.toStdString();
        seen << page;
    }
    EXPECT_EQ(seen.size(), 12);
    EXPECT_TRUE(pageIcon(QStringLiteral("no-such-page"), stroke).isNull());
}

} // namespace
} // namespace dra::views
