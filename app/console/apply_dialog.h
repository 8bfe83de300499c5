// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <vector>

#include <QDialog>

#include "core/kube/client_config.h"
#include "core/kube/server_side_apply.h"
#include "core/model/manifest_reader.h"

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace dra::console {

class ClusterApply;

// "Apply to cluster…": asks the server for a dry run of the editor's objects, shows the diff of
// what would change, and applies on confirmation — `dractl diff` then `dractl apply`, in a
// dialog. The cluster work runs on ClusterApply's thread.
class ApplyDialog final : public QDialog
{
    Q_OBJECT
public:
    // `text` is the manifest; `origin` names it in errors (the file, or "editor").
    ApplyDialog(kube::ClientConfig config, const QString &text, const QString &origin,
        QWidget *parent = nullptr);

    QString diffText() const;
    QString statusText() const;

Q_SIGNALS:
    // The dry run, then (after Apply) the real run, have answered.
    void dryRunDone();
    void applyDone();

private:
    void onFinished(const std::vector<kube::ApplyOutcome> &outcomes);
    void applyNow();

    std::vector<model::ManifestDocument> m_documents;
    ClusterApply *m_apply;
    QLabel *m_status;
    QPlainTextEdit *m_diff;
    QDialogButtonBox *m_buttons;
    QPushButton *m_applyButton;
    std::string m_namespace; // the context's, for objects that name none
    bool m_dryRun = true;
};

} // namespace dra::console
