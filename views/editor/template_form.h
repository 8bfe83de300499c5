// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <vector>

#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/model/claim_template_form.h"

class QLabel;
class QPlainTextEdit;

namespace dra::views {

// The claim template as a form (requests, exactly / firstAvailable, count, allocation mode,
// selectors, tolerations, capacity, constraints, config), kept in sync with a YAML editor it
// does not own. Editing a field writes the YAML through model::writeClaimTemplateForm as one
// undo step; refresh() re-reads the YAML. While the YAML does not read, the form is disabled,
// shows why and keeps its last good values; it never writes over text it has not read.
// GUI thread.
class TemplateForm final : public QWidget
{
    Q_OBJECT
public:
    explicit TemplateForm(QPlainTextEdit *yaml, QWidget *parent = nullptr);

    // Re-reads the YAML (call it debounced after edits). A no-op for text the form wrote itself.
    void refresh();
    // DeviceClass names offered for each request's class (editable: a class may not exist yet).
    void setDeviceClasses(const QStringList &names);

    const model::ClaimTemplateForm &form() const { return m_form; }
    // Why the YAML does not read, empty when it does.
    QString error() const { return m_error; }

    // Applies `edit` to the form and writes it into the YAML; `restructure` rebuilds the fields
    // (a request, alternative, selector, toleration, constraint or config added or removed).
    // False, with error() set, when the YAML no longer reads or the edit cannot be written.
    bool edit(
        const std::function<void(model::ClaimTemplateForm &)> &edit, bool restructure = false);

Q_SIGNALS:
    // The form was written into the YAML.
    void written();

private:
    // One field: how to show the form's value in its widget.
    using Refresh = std::function<void(model::ClaimTemplateForm &)>;

    void rebuild();
    void refreshFields();
    void setReadError(const QString &error);
    // Replaces only the part of the YAML that changed, in one undo step.
    void replaceYaml(const QString &text);

    QWidget *metadataSection();
    QWidget *requestSection(int request);
    QWidget *specSection(int request, int alternative); // alternative -1: `exactly`
    QWidget *tolerationRow(int request, int alternative, int toleration);
    QWidget *constraintsSection();
    QWidget *configSection();

    // Field widgets bound to the form: `get` shows the value, `set` stores an edit.
    using Spec = std::function<model::FormDeviceSpec &(model::ClaimTemplateForm &)>;
    QWidget *textField(std::function<QString(model::ClaimTemplateForm &)> get,
        std::function<void(model::ClaimTemplateForm &, const QString &)> set,
        const QStringList &choices = {}, bool editable = true);
    QWidget *selectorField(Spec spec, int selector);
    QWidget *button(const QString &text, const QString &tip,
        std::function<void(model::ClaimTemplateForm &)> edit);

    QPlainTextEdit *m_yaml;
    QLabel *m_errorLabel;
    QWidget *m_fields;
    model::ClaimTemplateForm m_form;
    QString m_readText; // the YAML m_form was read from (or wrote)
    QString m_error;
    QStringList m_classes;
    std::vector<Refresh> m_refresh;
    bool m_writing = false; // replaceYaml() is changing the text: not a user edit
};

} // namespace dra::views
