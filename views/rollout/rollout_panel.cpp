// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/rollout/rollout_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStringListModel>
#include <QPainter>
#include <QPixmap>
#include <QSvgRenderer>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "views/common/theme.h"
#include "views/rollout/rollout_actions.h"
#include "views/rollout/rollout_audit_model.h"
#include "views/rollout/rollout_gate_model.h"
#include "views/rollout/rollout_timeline_model.h"

namespace dra::views {

namespace {

constexpr int kMaxMessages = 2000;

QGroupBox *rolloutBox(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(content);
    return box;
}

} // namespace

RolloutPanel::RolloutPanel(QWidget *parent)
    : QWidget(parent)
    , m_picker(new QComboBox(this))
    , m_list(new QListWidget(this))
    , m_drive(new QLabel(this))
    , m_chain(new QLabel(this))
    , m_error(new QLabel(this))
    , m_reason(new QLineEdit(this))
    , m_acceptInconclusive(new QCheckBox(QStringLiteral("Accept inconclusive gates"), this))
    , m_force(new QCheckBox(QStringLiteral("Force outside the maintenance window"), this))
    , m_governance(new QLabel(this))
    , m_timeline(new RolloutTimelineModel(this))
    , m_gates(new RolloutGateModel(this))
    , m_audit(new RolloutAuditModel(this))
    , m_messages(new QStringListModel(this))
    , m_timelineView(new QTableView(this))
    , m_gateView(new QTreeView(this))
    , m_auditView(new QTableView(this))
    , m_messageView(new QListView(this))
    , m_pictures(new QWidget(this))
    , m_picturesLayout(new QVBoxLayout(m_pictures))
{
    m_drive->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    m_chain->setTextFormat(Qt::PlainText);
    m_error->setTextFormat(Qt::PlainText);
    m_governance->setTextFormat(Qt::PlainText);
    m_governance->setWordWrap(true);
    m_governance->setObjectName(QStringLiteral("rolloutGovernance"));
    m_force->setObjectName(QStringLiteral("forceOutsideWindow"));
    m_force->setToolTip(
        QStringLiteral("Needs a reason; recorded in the history and the audit log"));
    m_force->setVisible(false);
    auto *layout = new QVBoxLayout(this);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(QStringLiteral("Rollout:"), this));
    m_picker->setMinimumContentsLength(30);
    m_picker->setPlaceholderText(QStringLiteral("No rollouts in the state file"));
    top->addWidget(m_picker, 1);
    auto *fromPlan = new QPushButton(QStringLiteral("Start from plan file…"), this);
    top->addWidget(fromPlan);
    layout->addLayout(top);

    m_list->setVisible(false);
    m_list->setMaximumHeight(160);
    layout->addWidget(m_list);

    auto *status = new QHBoxLayout;
    status->addWidget(m_drive, 1);
    status->addWidget(m_chain);
    layout->addLayout(status);
    m_governance->setVisible(false);
    layout->addWidget(m_governance);
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    layout->addWidget(m_error);

    auto *buttons = new QHBoxLayout;
    for (const VerbButton &b : verbButtons(RolloutSnapshot {})) {
        auto *button = new QPushButton(b.label, this);
        button->setEnabled(false);
        m_buttons[b.verb] = button;
        buttons->addWidget(button);
        const rollout::Verb verb = b.verb;
        connect(button, &QPushButton::clicked, this, [this, verb] { onVerbClicked(verb); });
    }
    m_buttons[rollout::Verb::Abort]->setStyleSheet(QStringLiteral("font-weight: bold"));
    buttons->addStretch(1);
    layout->addLayout(buttons);
    auto *options = new QHBoxLayout;
    m_reason->setPlaceholderText(QStringLiteral("Reason (kept in the history and the audit log)"));
    options->addWidget(m_reason, 1);
    options->addWidget(m_acceptInconclusive);
    options->addWidget(m_force);
    layout->addLayout(options);

    m_timelineView->setModel(m_timeline);
    m_timelineView->verticalHeader()->hide();
    m_timelineView->horizontalHeader()->setStretchLastSection(true);
    m_timelineView->setSelectionMode(QAbstractItemView::NoSelection);
    m_gateView->setModel(m_gates);
    m_gateView->setAlternatingRowColors(true);
    m_gateView->header()->setStretchLastSection(true);
    m_auditView->setModel(m_audit);
    m_auditView->verticalHeader()->hide();
    m_auditView->horizontalHeader()->setStretchLastSection(true);
    m_auditView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_messageView->setModel(m_messages);
    m_messageView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_messageView->setUniformItemSizes(true);

    auto *pictureScroll = new QScrollArea(this);
    pictureScroll->setWidgetResizable(true);
    pictureScroll->setWidget(m_pictures);
    pictureScroll->setMinimumWidth(260);

    auto *gateSplit = new QSplitter(Qt::Horizontal, this);
    gateSplit->addWidget(m_gateView);
    gateSplit->addWidget(pictureScroll);
    gateSplit->setStretchFactor(0, 3);
    gateSplit->setStretchFactor(1, 2);

    auto *upper = new QSplitter(Qt::Horizontal, this);
    upper->addWidget(rolloutBox(QStringLiteral("Stages"), m_timelineView, this));
    upper->addWidget(rolloutBox(QStringLiteral("Gates and evidence"), gateSplit, this));
    upper->setStretchFactor(1, 3);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(rolloutBox(QStringLiteral("Audit log"), m_auditView, this));
    lower->addWidget(rolloutBox(QStringLiteral("Controller"), m_messageView, this));
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(upper);
    vertical->addWidget(lower);
    layout->addWidget(vertical, 1);

    connect(m_picker, &QComboBox::currentIndexChanged, this, &RolloutPanel::chooseRollout);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        m_openedOne = true;
        Q_EMIT rolloutChosen(item->data(Qt::UserRole).toString());
    });
    connect(fromPlan, &QPushButton::clicked, this, &RolloutPanel::choosePlanFile);
    connect(m_gateView->selectionModel(), &QItemSelectionModel::currentChanged, this,
        &RolloutPanel::showPictures);
    showSnapshot(std::make_shared<const RolloutSnapshot>());
}

void RolloutPanel::showSnapshot(const RolloutSnapshotPtr &snapshot)
{
    if (!snapshot)
        return;
    const std::optional<rollout::GateKind> selected = selectedGate();
    m_snapshot = snapshot;

    m_updatingPicker = true;
    const QString openId
        = snapshot->state ? QString::fromStdString(snapshot->state->id) : QString();
    m_picker->clear();
    for (const RolloutSummary &summary : snapshot->rollouts)
        m_picker->addItem(
            QStringLiteral("%1 — %2 (%3)")
                .arg(QString::fromStdString(summary.id), QString::fromStdString(summary.workload),
                    QString::fromLatin1(rollout::stageName(summary.stage))),
            QString::fromStdString(summary.id));
    m_picker->setCurrentIndex(openId.isEmpty() ? -1 : m_picker->findData(openId));
    m_picker->setPlaceholderText(snapshot->rollouts.empty()
            ? QStringLiteral("No rollouts in the state file")
            : QStringLiteral("Choose one of the %1 rollouts in the state file")
                  .arg(snapshot->rollouts.size()));
    m_updatingPicker = false;
    showRolloutList(*snapshot);

    m_drive->setText(driveText(*snapshot));
    m_governance->setText(governanceText(*snapshot));
    m_governance->setVisible(!m_governance->text().isEmpty());
    m_force->setVisible(snapshot->plan && snapshot->plan->maintenanceWindow.has_value());
    m_chain->setText(snapshot->state ? auditChainText(snapshot->verification) : QString());
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(themeColors().errorText.name()));
    m_error->setText(snapshot->error ? snapshot->error->message : QString());
    m_error->setVisible(snapshot->error.has_value());
    for (const VerbButton &b : verbButtons(*snapshot)) {
        QPushButton *button = m_buttons.at(b.verb);
        button->setText(b.label);
        button->setEnabled(b.enabled);
        button->setToolTip(b.toolTip);
    }
    m_timeline->setSnapshot(snapshot);
    m_gates->setSnapshot(snapshot);
    m_audit->setSnapshot(snapshot);
    m_gateView->expandAll();
    m_gateView->resizeColumnToContents(0);
    if (selected)
        selectGate(*selected);
    showPictures();
    if (const int current = m_timeline->currentRow(); current >= 0)
        m_timelineView->scrollTo(m_timeline->index(current, 0));
    m_auditView->scrollToBottom();
}

void RolloutPanel::showRolloutList(const RolloutSnapshot &snapshot)
{
    m_openedOne = m_openedOne || snapshot.state.has_value();
    m_list->clear();
    m_list->setVisible(!snapshot.state && !snapshot.rollouts.empty());
    if (snapshot.state)
        return;
    const RolloutSummary *active = nullptr;
    for (const RolloutSummary &summary : snapshot.rollouts) {
        const bool settled = rollout::isSettled(summary.stage);
        auto *item = new QListWidgetItem(
            QStringLiteral("%1 — %2 (%3%4)")
                .arg(QString::fromStdString(summary.id), QString::fromStdString(summary.workload),
                    QString::fromLatin1(rollout::stageName(summary.stage)),
                    summary.updatedAt > 0
                        ? QStringLiteral(", updated %1")
                              .arg(QDateTime::fromMSecsSinceEpoch(summary.updatedAt)
                                       .toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                        : QString()),
            m_list);
        item->setData(Qt::UserRole, QString::fromStdString(summary.id));
        if (!settled && (!active || summary.updatedAt > active->updatedAt))
            active = &summary;
    }
    // Arriving on the page: the rollout under way is the one to look at; with none under way,
    // the list above says what the state file holds.
    if (active && !m_openedOne) {
        m_openedOne = true;
        Q_EMIT rolloutChosen(QString::fromStdString(active->id));
    }
}

void RolloutPanel::appendMessage(const QString &text)
{
    const int row = m_messages->rowCount();
    if (row >= kMaxMessages)
        m_messages->removeRows(0, row - kMaxMessages + 1);
    const int at = m_messages->rowCount();
    m_messages->insertRows(at, 1);
    m_messages->setData(m_messages->index(at),
        QString(QDateTime::currentDateTimeUtc().toString(QStringLiteral("HH:mm:ss ")) + text));
    m_messageView->scrollToBottom();
}

QPushButton *RolloutPanel::button(rollout::Verb verb) const
{
    const auto it = m_buttons.find(verb);
    return it == m_buttons.end() ? nullptr : it->second;
}

bool RolloutPanel::trigger(rollout::Verb verb)
{
    QPushButton *b = button(verb);
    if (!b || !b->isEnabled())
        return false;
    b->click();
    return true;
}

int RolloutPanel::pictureCount() const
{
    int count = 0;
    for (const QLabel *label : m_pictures->findChildren<QLabel *>())
        count += label->objectName() == QLatin1String("gatePicture") ? 1 : 0;
    return count;
}

void RolloutPanel::selectGate(rollout::GateKind kind)
{
    const QModelIndex index = m_gates->gateIndex(kind);
    if (index.isValid())
        m_gateView->setCurrentIndex(index);
}

std::optional<rollout::GateKind> RolloutPanel::selectedGate() const
{
    QModelIndex index = m_gateView->currentIndex();
    if (!index.isValid())
        return std::nullopt;
    while (index.parent().isValid())
        index = index.parent();
    return rollout::gateFromName(index.data(RolloutGateModel::GateRole).toString().toStdString());
}

void RolloutPanel::chooseRollout(int index)
{
    if (m_updatingPicker || index < 0)
        return;
    m_openedOne = true;
    Q_EMIT rolloutChosen(m_picker->itemData(index).toString());
}

void RolloutPanel::choosePlanFile()
{
    const QString file
        = QFileDialog::getOpenFileName(this, QStringLiteral("Start a rollout from a plan"),
            m_planDirectory, QStringLiteral("Rollout plans (*.yaml *.yml);;All files (*)"));
    if (!file.isEmpty())
        Q_EMIT startFromPlanRequested(file);
}

void RolloutPanel::onVerbClicked(rollout::Verb verb)
{
    VerbRequest request;
    request.verb = verb;
    request.reason = m_reason->text().trimmed().toStdString();
    request.acceptInconclusive = m_acceptInconclusive->isChecked();
    request.force = !m_force->isHidden() && m_force->isChecked();
    if (verb == rollout::Verb::RetryGate && m_snapshot) {
        request.gate = gateToRetry(*m_snapshot, selectedGate());
        if (!request.gate)
            return appendMessage(QStringLiteral("no gate to retry in this stage"));
    }
    m_reason->clear();
    m_force->setChecked(false);
    Q_EMIT verbRequested(request);
}

void RolloutPanel::showPictures()
{
    for (QWidget *old : m_pictures->findChildren<QWidget *>(Qt::FindDirectChildrenOnly))
        delete old;
    QModelIndex index = m_gateView->currentIndex();
    while (index.isValid() && index.parent().isValid())
        index = index.parent();
    if (!index.isValid() && m_gates->rowCount() > 0) {
        // Nothing chosen: the first gate with pictures (the node gate's topology).
        for (int row = 0; row < m_gates->rowCount() && !index.isValid(); ++row)
            if (!m_gates->index(row, 0).data(RolloutGateModel::PicturesRole).toMap().isEmpty())
                index = m_gates->index(row, 0);
    }
    const QVariantMap pictures
        = index.isValid() ? index.data(RolloutGateModel::PicturesRole).toMap() : QVariantMap();
    for (auto it = pictures.begin(); it != pictures.end(); ++it) {
        auto *title = new QLabel(it.key(), m_pictures);
        title->setTextFormat(Qt::PlainText);
        title->setStyleSheet(QStringLiteral("font-weight: bold"));
        m_picturesLayout->addWidget(title);
        auto *picture = new QLabel(m_pictures);
        picture->setObjectName(QStringLiteral("gatePicture"));
        QSvgRenderer renderer(it.value().toByteArray());
        if (renderer.isValid()) {
            const QSize size = renderer.defaultSize().isValid()
                ? renderer.defaultSize().boundedTo(QSize(1200, 900))
                : QSize(400, 300);
            QPixmap pixmap(size);
            pixmap.fill(Qt::white);
            QPainter painter(&pixmap);
            renderer.render(&painter);
            painter.end();
            picture->setPixmap(pixmap);
        } else {
            picture->setText(QStringLiteral("(the picture is not valid SVG)"));
        }
        m_picturesLayout->addWidget(picture);
    }
    if (pictures.isEmpty()) {
        auto *none = new QLabel(QStringLiteral("No pictures for this gate"), m_pictures);
        // Said in italics rather than greyed out: disabled text is too faint to read.
        QFont italic = none->font();
        italic.setItalic(true);
        none->setFont(italic);
        m_picturesLayout->addWidget(none);
    }
}

} // namespace dra::views
