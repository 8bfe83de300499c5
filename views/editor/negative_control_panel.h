// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <QWidget>

#include "core/alloc/negative_control.h"
#include "core/inventory/snapshot.h"
#include "core/alloc/simulation_cluster.h"

class QLabel;
class QPlainTextEdit;

namespace dra::views {

// The negative control of the text in the editor, as `dractl negative-control` makes it.
struct NegativeControlResult
{
    std::string error; // the text does not read as a claim, or no inventory
    std::optional<alloc::NegativeControl> control;
    QString yaml; // the negative control's manifest
};

// Builds the negative control of a ResourceClaimTemplate or ResourceClaim text against the
// snapshot (core/alloc does the work). Any thread.
NegativeControlResult negativeControlFor(const inventory::SnapshotPtr &snapshot,
    std::string_view text, alloc::SimulationClusterCache &clusters,
    const release::ReleaseChoice &choice = {});

// The editor's "Negative control" tab: the generated manifest, ready to copy or save, and its
// check: devices the original matches, devices the negative control matches (none), and why
// the allocator leaves it Pending. Computed off the GUI thread, and only while the tab is shown:
// it runs an allocation simulation, which a keystroke in the editor must not pay for when nobody
// looks. A result for older text is dropped.
class NegativeControlPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit NegativeControlPanel(QWidget *parent = nullptr);

    // Recomputes for `text` on `snapshot` now if the panel is shown, else when it next is.
    // In the release chooseRelease() picks from the snapshot's version and `choice` (the
    // editor's target release).
    void recompute(const inventory::SnapshotPtr &snapshot, const QString &text,
        std::shared_ptr<alloc::SimulationClusterCache> clusters,
        const release::ReleaseChoice &choice = {});
    const NegativeControlResult &lastResult() const { return m_last; }
    QString manifestText() const;
    QString summaryText() const;

Q_SIGNALS:
    void updated();

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Input
    {
        inventory::SnapshotPtr snapshot;
        std::string text;
        std::shared_ptr<alloc::SimulationClusterCache> clusters;
        release::ReleaseChoice choice;
    };
    void run();
    void display(NegativeControlResult result);

    QLabel *m_summary;
    QPlainTextEdit *m_manifest;
    NegativeControlResult m_last;
    std::optional<Input> m_pending; // the input not computed yet
    int m_generation = 0;
};

} // namespace dra::views
