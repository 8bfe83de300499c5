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

// Writes the whole scene to `path` as SVG (".svg") or a PNG at twice the scene's size (anything
// else). The error names the file and the reason.
[[nodiscard]] Result<void> exportScene(QGraphicsScene &scene, const QString &path);

} // namespace dra::views
