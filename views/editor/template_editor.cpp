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
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "views/editor/yaml_highlighter.h"

namespace dra::views {

TemplateEditor::TemplateEditor(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_result(new QTextBrowser(this))
    , m_status(new QLabel(this))
{
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    new YamlHighlighter(m_editor->document());
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(200);

    auto *openButton = new QPushButton(QStringLiteral("Open…"), this);
    auto *saveButton = new QPushButton(QStringLiteral("Save…"), this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(openButton);
    bar->addWidget(saveButton);
    bar->addWidget(m_status, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_editor);
    splitter->addWidget(m_result);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(openButton, &QPushButton::clicked, this, &TemplateEditor::open);
    connect(saveButton, &QPushButton::clicked, this, &TemplateEditor::save);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        ++m_generation; // any result still running is for older text
        m_debounce.start();
    });
    connect(&m_debounce, &QTimer::timeout, this, &TemplateEditor::launch);
    m_editor->setPlainText(exampleTemplate());
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
        "              expression: device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0\n");
}

void TemplateEditor::setSnapshot(inventory::SnapshotPtr snapshot)
{
    m_snapshot = std::move(snapshot);
    ++m_generation;
    m_debounce.start();
}

void TemplateEditor::setText(const QString &text)
{
    m_editor->setPlainText(text);
}

QString TemplateEditor::text() const
{
    return m_editor->toPlainText();
}

void TemplateEditor::launch()
{
    if (!m_snapshot)
        return;
    const int generation = m_generation;
    m_status->setText(QStringLiteral("Checking against the inventory…"));
    auto *watcher = new QFutureWatcher<TemplateCheck>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        --m_running;
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_last = watcher->result();
        m_result->setHtml(templateCheckHtml(m_last));
        m_status->setText(m_last.error.empty() ? QStringLiteral("Checked against revision %1").arg(m_snapshot->rev())
                                               : QStringLiteral("The text does not read as a claim template"));
        Q_EMIT checked(m_last);
    });
    ++m_running;
    watcher->setFuture(QtConcurrent::run([snapshot = m_snapshot, text = text().toStdString(), clusters = m_clusters] {
        return checkTemplate(snapshot, text, *clusters);
    }));
}

void TemplateEditor::open()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open a claim template"), {},
                                                      QStringLiteral("YAML or JSON (*.yaml *.yml *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, QStringLiteral("Open"), QStringLiteral("%1: %2").arg(path, file.errorString()));
        return;
    }
    setText(QString::fromUtf8(file.readAll()));
}

void TemplateEditor::save()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save the claim template"),
                                                      QStringLiteral("template.yaml"), QStringLiteral("YAML (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text().toUtf8()) < 0)
        QMessageBox::warning(this, QStringLiteral("Save"), QStringLiteral("%1: %2").arg(path, file.errorString()));
}

} // namespace dra::views
