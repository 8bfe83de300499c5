// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QGraphicsView>

#include "core/common/result.h"

namespace dra::views {

class TopologyScene;

// Shows a TopologyScene: Ctrl+wheel zooms about the cursor, fit-to-window on demand, and
// export of the whole drawing as PNG or SVG.
class TopologyView final : public QGraphicsView
{
    Q_OBJECT
public:
    explicit TopologyView(TopologyScene *scene, QWidget *parent = nullptr);

    void zoomBy(qreal factor);
    void fitAll();

protected:
    void wheelEvent(QWheelEvent *event) override;
};

// Writes the scene's node to `path`: as SVG (".svg") the core SVG writer's document, byte for
// byte what `dractl topology NODE -o svg` prints; anything else as a PNG of the scene at twice
// its size. The error names the file and the reason.
[[nodiscard]] Result<void> exportScene(TopologyScene &scene, const QString &path);

} // namespace dra::views
