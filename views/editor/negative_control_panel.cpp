// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/negative_control_panel.h"

#include <QFontDatabase>
#include <QFutureWatcher>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/model/manifest_reader.h"
#include "core/model/yaml_codec.h"
#include "views/common/html_text.h"
#include "views/common/theme.h"
#include "views/editor/yaml_highlighter.h"

namespace dra::views {

NegativeControlResult negativeControlFor(const inventory::SnapshotPtr &snapshot,
    std::string_view text, alloc::SimulationClusterCache &clusters,
    const release::ReleaseChoice &choice)
{
    NegativeControlResult result;
    const model::ManifestSet manifests = model::readManifestText(text, QStringLiteral("editor"));
    if (!manifests.problems.empty()) {
        result.error = manifests.problems.front().message().toStdString();
        return result;
    }
    if (manifests.documents.empty()) {
        result.error = "the editor holds no object yet";
        return result;
    }
    Result<alloc::SimulationCluster> cluster = clusters.of(snapshot, choice);
    if (!cluster) {
        result.error = cluster.error().message.toStdString();
        return result;
    }
    Result<alloc::NegativeControl> control = alloc::negativeControl(
        *cluster->cluster, cluster->release, manifests.documents.front().object);
    if (!control) {
        result.error = control.error().message.toStdString();
        return result;
    }
    result.yaml = QString::fromStdString(model::jsonToYaml(control->manifest));
    result.control = std::move(*control);
    return result;
}

NegativeControlPanel::NegativeControlPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_manifest(new QPlainTextEdit(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_manifest->setReadOnly(true);
    m_manifest->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_manifest->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new YamlHighlighter(m_manifest->document());
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_manifest, 1);
}

void NegativeControlPanel::recompute(const inventory::SnapshotPtr &snapshot, const QString &text,
    std::shared_ptr<alloc::SimulationClusterCache> clusters, const release::ReleaseChoice &choice)
{
    if (!snapshot)
        return;
    m_pending = Input { snapshot, text.toStdString(), std::move(clusters), choice };
    if (isVisible())
        run();
}

void NegativeControlPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_pending)
        run();
}

void NegativeControlPanel::run()
{
    const int generation = ++m_generation;
    auto *watcher = new QFutureWatcher<NegativeControlResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation)
            display(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([input = *std::exchange(m_pending, std::nullopt)] {
        return negativeControlFor(input.snapshot, input.text, *input.clusters, input.choice);
    }));
}

QString NegativeControlPanel::manifestText() const
{
    return m_manifest->toPlainText();
}

QString NegativeControlPanel::summaryText() const
{
    return m_summary->text();
}

void NegativeControlPanel::display(NegativeControlResult result)
{
    m_last = std::move(result);
    m_manifest->setPlainText(m_last.yaml);
    if (!m_last.control) {
        m_summary->setText(QStringLiteral("<p style='color:%1'>No negative control: %2</p>")
                               .arg(themeColors().errorText.name(), escapedHtml(m_last.error)));
        Q_EMIT updated();
        return;
    }
    const alloc::NegativeControl &control = *m_last.control;
    const QString colour
        = (control.proves() ? themeColors().okText : themeColors().errorText).name();
    QString html = QStringLiteral(
        "<p>Original matches <b>%1</b> device(s); negative control matches <b>%2</b>.</p>")
                       .arg(control.originalMatches)
                       .arg(control.negativeMatches);
    if (!control.pendingReason.empty())
        html += QStringLiteral("<p>Pending: %1</p>").arg(escapedHtml(control.pendingReason));
    for (const alloc::NegativeRequest &request : control.requests)
        html += QStringLiteral("<p><i>%1</i>: %2</p>")
                    .arg(escapedHtml(request.name), escapedHtml(request.method));
    html += QStringLiteral("<p style='color:%1'><b>%2</b></p>")
                .arg(colour, escapedHtml(control.verdict()));
    m_summary->setText(html);
    Q_EMIT updated();
}

} // namespace dra::views
