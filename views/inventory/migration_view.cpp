// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/migration_view.h"

#include <algorithm>

#include <QClipboard>
#include <QFontDatabase>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/common/json_text.h"
#include "views/common/table_layout.h"
#include "views/common/theme.h"

namespace dra::views {
namespace {

using common::qs;

constexpr int kColumnCount = MigrationView::NodesColumn + 1;
constexpr int kKeyRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;
// A text block grows with its text up to this many lines, then scrolls.
constexpr int kMaxBlockLines = 18;

// A label that shows what the cluster says literally and wraps.
QLabel *plainLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

void embolden(QLabel *label)
{
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
}

// "1 nvidia.com/gpu (main), 2 nvidia.com/mig-1g.10gb (worker)".
QString asksText(const alloc::LegacyWorkload &workload)
{
    QStringList parts;
    for (const alloc::ExtendedRequest &request : workload.requests)
        parts << QStringLiteral("%1 %2 (%3)")
                     .arg(request.count)
                     .arg(qs(request.resource), qs(request.container));
    return parts.join(QStringLiteral(", "));
}

// "node-a, node-b (2)": the nodes and, where more than one, the pods placed there.
QString nodesText(const alloc::MigrationVerdict &verdict)
{
    QStringList parts;
    for (const auto &[node, pods] : verdict.nodes)
        parts << (pods > 1 ? QStringLiteral("%1 (%2)").arg(qs(node)).arg(pods) : qs(node));
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(", "));
}

QColor migrationVerdictColor(const alloc::WorkloadMigration &workload)
{
    const ThemeColors &colors = themeColors();
    if (workload.proposal.form == alloc::MigrationForm::None)
        return colors.mutedText;
    return workload.verdict.fits ? colors.okText : colors.errorText;
}

// The verdict as the pane says it: what fits where, or why not.
QString verdictDetails(const alloc::WorkloadMigration &workload)
{
    const alloc::MigrationVerdict &verdict = workload.verdict;
    if (workload.proposal.form == alloc::MigrationForm::None)
        return QStringLiteral("No proposal — %1").arg(qs(verdict.reason));
    if (!verdict.fits)
        return QStringLiteral("Does not fit — %1").arg(qs(verdict.reason));
    QString out
        = QStringLiteral("Fits — %1 pod(s) on %2").arg(verdict.placed).arg(nodesText(verdict));
    if (!verdict.reason.empty())
        out += QLatin1Char('\n') + qs(verdict.reason);
    return out;
}

void setBlockText(QWidget *box, QPlainTextEdit *edit, const QString &value)
{
    edit->setPlainText(value);
    box->setVisible(!value.isEmpty());
    // As tall as the text, up to kMaxBlockLines: the pane scrolls, not each block.
    const int lines = std::clamp(int(value.count(QLatin1Char('\n'))) + 1, 2, kMaxBlockLines);
    const QFontMetrics metrics(edit->font());
    edit->setFixedHeight(metrics.lineSpacing() * lines + 2 * edit->frameWidth()
        + int(2 * edit->document()->documentMargin()) + 4);
}

} // namespace

MigrationView::MigrationView(QWidget *parent)
    : QWidget(parent)
    , m_headline(plainLabel(this))
    , m_empty(plainLabel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_workloads(new QTreeWidget(m_splitter))
    , m_detailsArea(new QScrollArea(m_splitter))
{
    embolden(m_headline);
    m_empty->setText(
        QStringLiteral("No workload asks for extended resources: nothing to migrate."));
    m_empty->hide();

    m_workloads->setColumnCount(kColumnCount);
    m_workloads->setHeaderLabels({ QStringLiteral("Workload"), QStringLiteral("Asks"),
        QStringLiteral("Proposal"), QStringLiteral("Verdict"), QStringLiteral("Nodes") });
    m_workloads->setRootIsDecorated(false);
    m_workloads->setUniformRowHeights(true);
    m_workloads->setAlternatingRowColors(true);
    m_workloads->setSelectionMode(QAbstractItemView::SingleSelection);
    m_workloads->header()->setStretchLastSection(true);
    m_workloads->setColumnWidth(WorkloadColumn, 280);
    m_workloads->setColumnWidth(AsksColumn, 220);
    m_workloads->setColumnWidth(ProposalColumn, 160);
    m_workloads->setColumnWidth(VerdictColumn, 100);
    connect(m_workloads, &QTreeWidget::currentItemChanged, this, &MigrationView::showDetails);

    auto *details = new QWidget(m_detailsArea);
    auto *layout = new QVBoxLayout(details);
    m_title = plainLabel(details);
    embolden(m_title);
    m_facts = plainLabel(details);
    m_verdict = plainLabel(details);
    layout->addWidget(m_title);
    layout->addWidget(m_facts);
    layout->addWidget(m_verdict);
    m_proposal = proposalPane(details);
    for (QWidget *widget :
        { static_cast<QWidget *>(m_proposal.reason), static_cast<QWidget *>(m_proposal.notes),
            m_proposal.manifests.box, m_proposal.change.box })
        layout->addWidget(widget);
    m_alternativeBox
        = new QGroupBox(QStringLiteral("ResourceClaimTemplate form (for a RolloutPlan)"), details);
    auto *alternativeLayout = new QVBoxLayout(m_alternativeBox);
    m_alternative = proposalPane(m_alternativeBox);
    for (QWidget *widget :
        { static_cast<QWidget *>(m_alternative.reason), static_cast<QWidget *>(m_alternative.notes),
            m_alternative.manifests.box, m_alternative.change.box })
        alternativeLayout->addWidget(widget);
    layout->addWidget(m_alternativeBox);
    layout->addStretch(1);
    m_detailsArea->setWidget(details);
    m_detailsArea->setWidgetResizable(true);
    m_detailsArea->setFrameShape(QFrame::NoFrame);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);

    auto *page = new QVBoxLayout(this);
    page->addWidget(m_headline);
    page->addWidget(m_empty);
    page->addWidget(m_splitter, 1);
    m_headline->setText(QStringLiteral("Planning the migration…"));
    showDetails();
}

MigrationView::TextBlock MigrationView::textBlock(const QString &title, QWidget *parent)
{
    TextBlock block;
    block.box = new QWidget(parent);
    auto *layout = new QVBoxLayout(block.box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *head = new QHBoxLayout;
    auto *label = new QLabel(title, block.box);
    embolden(label);
    block.copy = new QPushButton(QStringLiteral("Copy"), block.box);
    block.copy->setToolTip(QStringLiteral("Copy %1 to the clipboard").arg(title.toLower()));
    head->addWidget(label);
    head->addStretch(1);
    head->addWidget(block.copy);
    block.text = new QPlainTextEdit(block.box);
    block.text->setReadOnly(true);
    block.text->setLineWrapMode(QPlainTextEdit::NoWrap);
    block.text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addLayout(head);
    layout->addWidget(block.text);
    QPlainTextEdit *edit = block.text;
    connect(block.copy, &QPushButton::clicked, edit,
        [edit] { QGuiApplication::clipboard()->setText(edit->toPlainText()); });
    block.box->hide();
    return block;
}

MigrationView::ProposalPane MigrationView::proposalPane(QWidget *parent)
{
    ProposalPane pane;
    pane.reason = plainLabel(parent);
    pane.notes = plainLabel(parent);
    pane.manifests = textBlock(QStringLiteral("Manifests to apply"), parent);
    pane.change = textBlock(QStringLiteral("Pod template change"), parent);
    return pane;
}

QString MigrationView::workloadKey(const alloc::LegacyWorkload &workload)
{
    return QStringLiteral("%1/%2/%3").arg(qs(workload.ns), qs(workload.kind), qs(workload.name));
}

QString MigrationView::verdictText(const alloc::WorkloadMigration &workload)
{
    if (workload.proposal.form == alloc::MigrationForm::None)
        return QStringLiteral("no proposal");
    return workload.verdict.fits ? QStringLiteral("fits") : QStringLiteral("does not fit");
}

void MigrationView::setPlan(alloc::MigrationPlan plan)
{
    m_plan = std::move(plan);
    const size_t fitting = size_t(std::count_if(m_plan.workloads.begin(), m_plan.workloads.end(),
        [](const alloc::WorkloadMigration &w) { return w.verdict.fits; }));
    m_headline->setText(
        QStringLiteral("%1 at revision %2 · %3 · %4 · %5 workload(s), %6 fit · workloads from: %7")
            .arg(m_plan.cluster.empty() ? QStringLiteral("(unnamed)") : qs(m_plan.cluster))
            .arg(m_plan.rev)
            .arg(qs(m_plan.release.text()),
                m_plan.release.gates.extendedResource
                    ? QStringLiteral("extended resources served by DRA")
                    : QStringLiteral("no DRA-backed extended resources"))
            .arg(m_plan.workloads.size())
            .arg(fitting)
            .arg(qs(m_plan.source.text)));

    const QString selected = selectedWorkload();
    QTreeWidgetItem *current = nullptr;
    {
        const QSignalBlocker blocker(m_workloads);
        m_workloads->clear();
        for (size_t i = 0; i < m_plan.workloads.size(); ++i) {
            const alloc::WorkloadMigration &w = m_plan.workloads[i];
            auto *item = new QTreeWidgetItem(m_workloads);
            const QString key = workloadKey(w.workload);
            item->setData(WorkloadColumn, kKeyRole, key);
            item->setData(WorkloadColumn, kIndexRole, qulonglong(i));
            item->setText(WorkloadColumn,
                QStringLiteral("%1 %2/%3")
                    .arg(qs(w.workload.kind), qs(w.workload.ns), qs(w.workload.name)));
            item->setText(AsksColumn, asksText(w.workload));
            item->setText(ProposalColumn, qs(alloc::migrationFormName(w.proposal.form)));
            item->setText(VerdictColumn, verdictText(w));
            item->setForeground(VerdictColumn, migrationVerdictColor(w));
            item->setText(NodesColumn, nodesText(w.verdict));
            for (int column = 0; column < kColumnCount; ++column)
                item->setToolTip(column, plainToolTip(item->text(column)));
            if (!w.verdict.reason.empty())
                item->setToolTip(VerdictColumn, plainToolTip(qs(w.verdict.reason)));
            if (key == selected || !current)
                current = item;
        }
        if (current)
            m_workloads->setCurrentItem(current);
    }
    const bool empty = m_plan.workloads.empty();
    m_empty->setVisible(empty);
    m_splitter->setVisible(!empty);
    showDetails();
}

void MigrationView::setError(const QString &message)
{
    m_plan = {};
    m_headline->setText(QStringLiteral("⚠ %1").arg(message));
    {
        const QSignalBlocker blocker(m_workloads);
        m_workloads->clear();
    }
    m_empty->hide();
    m_splitter->show();
    showDetails();
}

QString MigrationView::headline() const
{
    return m_headline->text();
}

QString MigrationView::emptyText() const
{
    return m_empty->text();
}

bool MigrationView::isEmptyShown() const
{
    return !m_empty->isHidden();
}

QString MigrationView::selectedWorkload() const
{
    const QTreeWidgetItem *item = m_workloads->currentItem();
    return item ? item->data(WorkloadColumn, kKeyRole).toString() : QString();
}

bool MigrationView::selectWorkload(const QString &key)
{
    for (int i = 0; i < m_workloads->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_workloads->topLevelItem(i);
        if (item->data(WorkloadColumn, kKeyRole).toString() == key) {
            m_workloads->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

void MigrationView::showProposal(
    ProposalPane &pane, const QString &title, const alloc::MigrationProposal &proposal)
{
    // The manifests as `dractl migrate plan -o json` and the web page give them.
    const nlohmann::json json = alloc::toJson(proposal);
    pane.reason->setText(
        QStringLiteral("%1 %2 — %3")
            .arg(title, qs(alloc::migrationFormName(proposal.form)), qs(proposal.reason)));
    QStringList notes;
    for (const std::string &note : proposal.notes)
        notes << qs(note);
    pane.notes->setText(notes.join(QLatin1Char('\n')));
    pane.notes->setVisible(!notes.isEmpty());
    setBlockText(
        pane.manifests.box, pane.manifests.text, qs(json.value("manifests", std::string())));
    setBlockText(pane.change.box, pane.change.text,
        proposal.podTemplateChange.is_null() ? QString()
                                             : qs(proposal.podTemplateChange.dump(2, ' ', false,
                                                 nlohmann::json::error_handler_t::replace)));
}

void MigrationView::showDetails()
{
    const QTreeWidgetItem *item = m_workloads->currentItem();
    const size_t index = item ? size_t(item->data(WorkloadColumn, kIndexRole).toULongLong())
                              : m_plan.workloads.size();
    m_detailsArea->setVisible(index < m_plan.workloads.size());
    if (index >= m_plan.workloads.size())
        return;
    const alloc::WorkloadMigration &w = m_plan.workloads[index];
    m_title->setText(QStringLiteral("%1 %2/%3")
                         .arg(qs(w.workload.kind), qs(w.workload.ns), qs(w.workload.name)));
    m_facts->setText(QStringLiteral("%1 pod(s) · from %2 · asks %3")
                         .arg(w.workload.replicas)
                         .arg(qs(w.workload.source), asksText(w.workload)));
    m_verdict->setText(verdictDetails(w));
    QPalette palette = m_verdict->palette();
    palette.setColor(QPalette::WindowText, migrationVerdictColor(w));
    m_verdict->setPalette(palette);
    showProposal(m_proposal, QStringLiteral("Proposal:"), w.proposal);
    m_alternativeBox->setVisible(w.claimTemplate.has_value());
    if (w.claimTemplate)
        showProposal(m_alternative, QStringLiteral("Alternative:"), *w.claimTemplate);
}

QString MigrationView::details() const
{
    if (m_detailsArea->isHidden())
        return {};
    QStringList lines;
    for (const QLabel *label : { m_title, m_facts, m_verdict, m_proposal.reason, m_proposal.notes })
        if (!label->isHidden() && !label->text().isEmpty())
            lines << label->text();
    if (!m_alternativeBox->isHidden())
        for (const QLabel *label : { m_alternative.reason, m_alternative.notes })
            if (!label->isHidden() && !label->text().isEmpty())
                lines << label->text();
    return lines.join(QLatin1Char('\n'));
}

QString MigrationView::shownText(bool alternative, TextBlock ProposalPane::*block) const
{
    const TextBlock &shown = (alternative ? m_alternative : m_proposal).*block;
    if (m_detailsArea->isHidden() || (alternative && m_alternativeBox->isHidden())
        || shown.box->isHidden())
        return {};
    return shown.text->toPlainText();
}

QString MigrationView::manifests(bool alternative) const
{
    return shownText(alternative, &ProposalPane::manifests);
}

QString MigrationView::podTemplateChange(bool alternative) const
{
    return shownText(alternative, &ProposalPane::change);
}

} // namespace dra::views
