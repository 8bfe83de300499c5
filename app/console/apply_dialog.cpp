// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/apply_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/console/cluster_apply.h"

namespace dra::console {

ApplyDialog::ApplyDialog(
    kube::ClientConfig config, const QString &text, const QString &origin, QWidget *parent)
    : QDialog(parent)
    , m_apply(new ClusterApply(config, this))
    , m_status(new QLabel(this))
    , m_diff(new QPlainTextEdit(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
    , m_applyButton(m_buttons->addButton(QStringLiteral("Apply"), QDialogButtonBox::AcceptRole))
{
    m_status->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    setWindowTitle(QStringLiteral("Apply to %1").arg(config.context));
    resize(820, 560);
    m_status->setWordWrap(true);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_applyButton->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_diff, 1);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_applyButton, &QPushButton::clicked, this, &ApplyDialog::applyNow);
    connect(m_apply, &ClusterApply::finished, this, &ApplyDialog::onFinished);

    // Nothing goes to the server while any document of the text is broken.
    model::ManifestSet manifests = model::readManifestText(text.toStdString(), origin);
    if (!manifests.problems.empty() || manifests.documents.empty()) {
        QStringList problems;
        for (const model::ManifestProblem &problem : manifests.problems)
            problems << problem.message();
        m_status->setText(problems.isEmpty()
                ? QStringLiteral("%1 holds no object to apply.").arg(origin)
                : problems.join(QLatin1Char('\n')));
        return;
    }
    m_documents = std::move(manifests.documents);
    m_status->setText(QStringLiteral("Asking %1 for a server-side dry run…").arg(config.context));
    kube::ApplyOptions options;
    options.dryRunOnly = true;
    m_namespace = config.ns.toStdString();
    options.defaultNamespace = m_namespace;
    options.fieldManager = "draconsole";
    m_apply->run(m_documents, options);
}

QString ApplyDialog::diffText() const
{
    return m_diff->toPlainText();
}

QString ApplyDialog::statusText() const
{
    return m_status->text();
}

void ApplyDialog::onFinished(const std::vector<kube::ApplyOutcome> &outcomes)
{
    QString diff;
    QStringList lines;
    bool changes = false, errors = false;
    for (const kube::ApplyOutcome &outcome : outcomes) {
        diff += QString::fromStdString(outcome.diff);
        lines << kube::outcomeLine(outcome, m_dryRun);
        changes = changes || outcome.changes();
        errors = errors || outcome.result == kube::ApplyOutcome::Result::Error;
    }
    m_diff->setPlainText(diff.isEmpty() ? QStringLiteral("(no differences)") : diff);
    if (m_dryRun) {
        m_status->setText(lines.join(QLatin1Char('\n'))
            + (errors ? QStringLiteral("\nThe server refused some objects; nothing was applied.")
                    : changes ? QStringLiteral("\nApply these changes?")
                              : QStringLiteral("\nThe cluster already holds this.")));
        m_applyButton->setEnabled(changes && !errors);
        Q_EMIT dryRunDone();
        return;
    }
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_buttons->button(QDialogButtonBox::Cancel)->setText(QStringLiteral("Close"));
    Q_EMIT applyDone();
}

void ApplyDialog::applyNow()
{
    m_dryRun = false;
    m_applyButton->setEnabled(false);
    m_status->setText(QStringLiteral("Applying…"));
    kube::ApplyOptions options;
    options.defaultNamespace = m_namespace;
    options.fieldManager = "draconsole";
    m_apply->run(m_documents, options);
}

} // namespace dra::console
