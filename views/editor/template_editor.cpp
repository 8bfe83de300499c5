// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_editor.h"

#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

#include "views/editor/negative_control_panel.h"
#include "views/editor/template_form.h"
#include "views/editor/yaml_highlighter.h"

namespace dra::views {
namespace {

// The status line may be cut at the window's width: its tooltip has it whole.
void setStatus(QLabel *status, const QString &text)
{
    status->setText(text);
    status->setToolTip(text);
}

// The answer when the release asked for cannot be checked in (a version outside those modelled,
// an unknown or locked gate): said where the check goes.
alloc::TemplateCheck notChecked(const common::Error &error)
{
    alloc::TemplateCheck check;
    check.error = error.message.toStdString();
    return check;
}

} // namespace

TemplateEditor::TemplateEditor(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_result(new QTextBrowser(this))
    , m_negative(new NegativeControlPanel(this))
    , m_tabs(new QTabWidget(this))
    , m_form(new TemplateForm(m_editor, this))
    , m_sourceTabs(new QTabWidget(this))
    , m_status(new QLabel(this))
{
    m_status->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    // A long status is cut (its tooltip has it whole), never the reason the window grows wider
    // than a 1280-pixel screen.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Long CEL expressions wrap rather than run off the pane; off for who wants YAML's columns.
    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_editor->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    new YamlHighlighter(m_editor->document());
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(200);
    m_matchSoon.setSingleShot(true);
    m_matchSoon.setInterval(0);

    auto *openButton = new QPushButton(QStringLiteral("Open…"), this);
    auto *saveButton = new QPushButton(QStringLiteral("Save…"), this);
    openButton->setToolTip(QStringLiteral("Open a YAML or JSON file (Ctrl+O)"));
    saveButton->setToolTip(QStringLiteral("Save the text to a file (Ctrl+S)"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(openButton);
    bar->addWidget(saveButton);
    bar->addWidget(m_status, 1);
    m_wrap = new QCheckBox(QStringLiteral("Wrap long lines"), this);
    m_wrap->setChecked(true);
    m_wrap->setToolTip(QStringLiteral("Soft-wrap long lines such as CEL expressions"));
    connect(m_wrap, &QCheckBox::toggled, this, [this](bool wrap) {
        m_editor->setLineWrapMode(wrap ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    });
    bar->addWidget(m_wrap);
    m_release = new QComboBox(this);
    m_release->setToolTip(QStringLiteral(
        "The Kubernetes release to check the template in: its CEL environment, its feature "
        "gates, its allocator"));
    m_release->addItem(QStringLiteral("Cluster's release"), QString());
    for (int minor = release::kOldestModelledMinor; minor <= release::developmentReleaseMinor();
         ++minor)
        m_release->addItem(
            QStringLiteral("Kubernetes 1.%1").arg(minor), QStringLiteral("1.%1").arg(minor));
    m_gates = new QLineEdit(this);
    m_gates->setPlaceholderText(QStringLiteral("Feature gates"));
    m_gates->setToolTip(QStringLiteral(
        "DRA feature gates over the release's defaults, as kube-apiserver takes them: "
        "DRAListTypeAttributes=true,DRAConsumableCapacity=true"));
    m_gates->setClearButtonEnabled(true);
    m_gates->setMaximumWidth(220);
    bar->addWidget(m_release);
    bar->addWidget(m_gates);
    connect(m_release, &QComboBox::currentIndexChanged, this, &TemplateEditor::recheck);
    connect(m_gates, &QLineEdit::editingFinished, this, &TemplateEditor::recheck);
    auto *formScroll = new QScrollArea(this);
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    m_sourceTabs->addTab(formScroll, QStringLiteral("Form"));
    m_sourceTabs->addTab(m_editor, QStringLiteral("YAML"));
    m_sourceTabs->setTabToolTip(0,
        QStringLiteral("The template as fields, written into the YAML as you edit (Ctrl+Shift+F)"));
    m_sourceTabs->setTabToolTip(1, QStringLiteral("The template's YAML (Ctrl+Shift+F)"));
    m_sourceTabs->setCurrentIndex(1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_sourceTabs);
    m_tabs->addTab(m_result, QStringLiteral("Check"));
    m_tabs->addTab(m_negative, QStringLiteral("Negative control"));
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(openButton, &QPushButton::clicked, this, &TemplateEditor::open);
    connect(saveButton, &QPushButton::clicked, this, &TemplateEditor::save);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &TemplateEditor::recheck);
    connect(&m_matchSoon, &QTimer::timeout, this, &TemplateEditor::launchMatch);
    connect(&m_debounce, &QTimer::timeout, this, &TemplateEditor::launch);
    // The form re-reads typed YAML on the same debounce; its own writes it skips.
    connect(&m_debounce, &QTimer::timeout, m_form, &TemplateForm::refresh);
    setText(exampleTemplate());
}

void TemplateEditor::recheck()
{
    ++m_generation; // any result still running is for older text or another release
    m_matchSoon.start();
    m_debounce.start();
}

release::ReleaseChoice TemplateEditor::releaseOptions() const
{
    return { m_release->currentData().toString().toStdString(),
        m_gates->text().trimmed().toStdString() };
}

void TemplateEditor::toggleFormAndYaml()
{
    m_sourceTabs->setCurrentIndex(m_sourceTabs->currentIndex() == 0 ? 1 : 0);
}

QString TemplateEditor::exampleTemplate()
{
    return QStringLiteral(
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaimTemplate\n"
        "metadata:\n"
        "  name: one-gpu-40gi\n"
        "  namespace: default\n"
        "spec:\n"
        "  spec:\n"
        "    devices:\n"
        "      requests:\n"
        "      - name: gpu\n"
        "        exactly:\n"
        "          deviceClassName: gpu.nvidia.com\n"
        "          selectors:\n"
        "          - cel:\n"
        "              expression: "
        "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0\n");
}

void TemplateEditor::setSnapshot(inventory::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    QStringList classes;
    if (m_snapshot) {
        for (const auto &object : m_snapshot->objects(model::Kind::DeviceClass))
            classes.push_back(QString::fromStdString(object->meta.name));
    }
    classes.sort();
    m_form->setDeviceClasses(classes);
    ++m_generation;
    m_matchSoon.start();
    m_debounce.start();
}

void TemplateEditor::setText(const QString &text)
{
    m_editor->setPlainText(text);
    m_form->refresh(); // new text, not typing: no need to wait for the debounce
}

QString TemplateEditor::text() const
{
    return m_editor->toPlainText();
}

void TemplateEditor::launchMatch()
{
    if (!m_snapshot)
        return;
    if (m_matching) {
        m_matchAgain = true; // one more sweep, for the newest text, once this one is in
        return;
    }
    m_matching = true;
    ++m_running;
    const int generation = m_generation;
    auto *watcher = new QFutureWatcher<alloc::TemplateCheck>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        --m_running;
        m_matching = false;
        watcher->deleteLater();
        if (generation == m_generation && present(watcher->result(), generation))
            Q_EMIT matched(m_last);
        if (std::exchange(m_matchAgain, false))
            launchMatch();
    });
    watcher->setFuture(QtConcurrent::run([snapshot = m_snapshot, text = text().toStdString(),
                                             choice = releaseOptions()] {
        Result<release::ChosenRelease> chosen
            = release::chooseRelease(snapshot->kubernetesVersion(), choice);
        return chosen ? alloc::matchTemplate(*snapshot, text, *chosen) : notChecked(chosen.error());
    }));
}

void TemplateEditor::launch()
{
    if (!m_snapshot)
        return;
    const int generation = m_generation;
    setStatus(m_status, QStringLiteral("Simulating the allocation…"));
    auto *watcher = new QFutureWatcher<alloc::TemplateCheck>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        --m_running;
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        present(watcher->result(), generation);
        Q_EMIT checked(m_last);
    });
    ++m_running;
    m_negative->recompute(m_snapshot, text(), m_clusters, releaseOptions());
    watcher->setFuture(QtConcurrent::run([snapshot = m_snapshot, text = text().toStdString(),
                                             clusters = m_clusters, choice = releaseOptions()] {
        Result<release::ChosenRelease> chosen
            = release::chooseRelease(snapshot->kubernetesVersion(), choice);
        return chosen ? alloc::checkTemplate(snapshot, text, *clusters, *chosen)
                      : notChecked(chosen.error());
    }));
}

bool TemplateEditor::present(const alloc::TemplateCheck &check, int generation)
{
    // A simulated result already on screen for this text stays: a late sweep adds nothing.
    if (!check.simulated && m_last.simulated && m_shownGeneration == generation)
        return false;
    m_last = check;
    m_shownGeneration = generation;
    m_result->setHtml(templateCheckHtml(m_last));
    if (!m_last.error.empty())
        setStatus(
            m_status, QStringLiteral("Not checked: %1").arg(QString::fromStdString(m_last.error)));
    else if (m_last.simulated)
        setStatus(m_status,
            QStringLiteral(
                "Checked against revision %1 under %2 (matched in %3 ms, simulated in %4 ms)")
                .arg(m_snapshot->rev())
                .arg(QString::fromStdString(m_last.release))
                .arg(m_last.matchMs, 0, 'f', 1)
                .arg(m_last.simulationMs, 0, 'f', 1));
    else
        setStatus(m_status,
            QStringLiteral("Matched against revision %1 in %2 ms; simulating when you pause…")
                .arg(m_snapshot->rev())
                .arg(m_last.matchMs, 0, 'f', 1));
    return true;
}

bool TemplateEditor::openFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    setText(QString::fromUtf8(file.readAll()));
    m_file = path;
    return true;
}

bool TemplateEditor::saveFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text().toUtf8()) < 0) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    m_file = path;
    return true;
}

void TemplateEditor::open()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a claim template"),
        m_file, QStringLiteral("YAML or JSON (*.yaml *.yml *.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openFile(path, &error))
        QMessageBox::warning(this, QStringLiteral("Open"), error);
}

void TemplateEditor::save()
{
    const QString path
        = QFileDialog::getSaveFileName(this, QStringLiteral("Save the claim template"),
            m_file.isEmpty() ? QStringLiteral("template.yaml") : m_file,
            QStringLiteral("YAML (*.yaml *.yml)"));
    QString error;
    if (!path.isEmpty() && !saveFile(path, &error))
        QMessageBox::warning(this, QStringLiteral("Save"), error);
}

} // namespace dra::views
