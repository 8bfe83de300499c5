// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The template form's field widgets and its list sections (tolerations, constraints, config):
// each widget shows one value of the form and hands an edit to TemplateForm::edit().
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "core/common/json_text.h"
#include "views/editor/cel_editor.h"
#include "views/editor/template_form.h"

namespace dra::views {

namespace {

using model::ClaimTemplateForm;
using model::FormToleration;

// Opens `expression` in the CEL editor; the edited text, or a null string when cancelled.
QString editSelector(QWidget *parent, const QString &expression)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QStringLiteral("Edit selector"));
    auto *editor = new CelEditor(&dialog);
    editor->setPlainText(expression);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(editor);
    layout->addWidget(buttons);
    dialog.resize(640, 240);
    // A selector is one expression: newlines typed for readability are kept, YAML quotes them.
    return dialog.exec() == QDialog::Accepted ? editor->expression() : QString();
}

} // namespace

QWidget *TemplateForm::textField(std::function<QString(ClaimTemplateForm &)> get,
    std::function<void(ClaimTemplateForm &, const QString &)> set, const QStringList &choices,
    bool editable)
{
    const auto store = [this, set](const QString &value) {
        edit([set, value](ClaimTemplateForm &f) { set(f, value); });
    };
    if (choices.isEmpty() && editable) {
        auto *line = new QLineEdit;
        connect(line, &QLineEdit::textEdited, this, store);
        m_refresh.push_back([line, get](ClaimTemplateForm &f) {
            if (const QString value = get(f); line->text() != value)
                line->setText(value);
        });
        return line;
    }
    auto *combo = new QComboBox;
    combo->addItems(choices);
    combo->setEditable(editable);
    if (editable) {
        combo->setInsertPolicy(QComboBox::NoInsert);
        connect(combo->lineEdit(), &QLineEdit::textEdited, this, store);
    }
    connect(combo, &QComboBox::activated, this,
        [combo, store](int index) { store(combo->itemText(index)); });
    m_refresh.push_back([combo, get](ClaimTemplateForm &f) {
        const QSignalBlocker blocker(combo);
        const QString value = get(f);
        if (!combo->isEditable() && combo->findText(value) < 0)
            combo->addItem(value); // a value the document has, though not one offered
        if (combo->currentText() != value)
            combo->setCurrentText(value);
    });
    return combo;
}

QWidget *TemplateForm::selectorField(Spec spec, int selector)
{
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    QWidget *line = textField(
        [spec, selector](
            ClaimTemplateForm &f) { return common::qs(spec(f).selectors[std::size_t(selector)]); },
        [spec, selector](ClaimTemplateForm &f, const QString &v) {
            spec(f).selectors[std::size_t(selector)] = v.toStdString();
        });
    line->setToolTip(
        QStringLiteral("CEL expression over `device`; the Check tab says what it matches"));
    layout->addWidget(line, 1);
    auto *cel = new QPushButton(QStringLiteral("CEL…"));
    cel->setToolTip(QStringLiteral("Edit the selector in the CEL editor"));
    connect(cel, &QPushButton::clicked, this, [this, spec, selector] {
        const QString edited
            = editSelector(this, common::qs(spec(m_form).selectors[std::size_t(selector)]));
        if (!edited.isNull())
            edit([spec, selector, edited](ClaimTemplateForm &f) {
                spec(f).selectors[std::size_t(selector)] = edited.toStdString();
            });
    });
    layout->addWidget(cel);
    layout->addWidget(button(QStringLiteral("−"), QStringLiteral("Remove this selector"),
        [spec, selector](ClaimTemplateForm &f) {
            auto &selectors = spec(f).selectors;
            selectors.erase(selectors.begin() + selector);
        }));
    return row;
}

QWidget *TemplateForm::button(
    const QString &text, const QString &tip, std::function<void(ClaimTemplateForm &)> change)
{
    auto *button = new QPushButton(text);
    button->setToolTip(tip);
    connect(button, &QPushButton::clicked, this, [this, change] { edit(change, true); });
    return button;
}

QWidget *TemplateForm::tolerationRow(int request, int alternative, int toleration)
{
    using Ref = FormToleration &(*)(ClaimTemplateForm &, int, int, int);
    static constexpr Ref at = [](ClaimTemplateForm &f, int r, int a, int t) -> FormToleration & {
        model::FormRequest &req = f.requests[std::size_t(r)];
        model::FormDeviceSpec &spec = a < 0 ? req.exactly : req.alternatives[std::size_t(a)];
        return spec.tolerations[std::size_t(t)];
    };
    const auto get = [=](std::string FormToleration::*field) {
        return [=](ClaimTemplateForm &f) {
            return common::qs(at(f, request, alternative, toleration).*field);
        };
    };
    const auto set = [=](std::string FormToleration::*field) {
        return [=](ClaimTemplateForm &f, const QString &v) {
            at(f, request, alternative, toleration).*field = v.toStdString();
        };
    };
    auto *row = new QWidget;
    row->setObjectName(
        QStringLiteral("toleration-%1-%2-%3").arg(request).arg(alternative).arg(toleration));
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    QWidget *key = textField(get(&FormToleration::key), set(&FormToleration::key));
    key->setToolTip(QStringLiteral("Taint key; empty with Exists tolerates every key"));
    layout->addWidget(key, 2);
    layout->addWidget(textField(
        [=](ClaimTemplateForm &f) {
            const std::string &op = at(f, request, alternative, toleration).op;
            return op.empty() ? QStringLiteral("Equal") : common::qs(op);
        },
        [=](ClaimTemplateForm &f, const QString &v) {
            FormToleration &t = at(f, request, alternative, toleration);
            if (!(v == QLatin1String("Equal") && t.op.empty()))
                t.op = v.toStdString();
        },
        { QStringLiteral("Equal"), QStringLiteral("Exists") }, false));
    QWidget *value = textField(get(&FormToleration::value), set(&FormToleration::value));
    value->setToolTip(QStringLiteral("Taint value, with Equal"));
    layout->addWidget(value, 1);
    QWidget *effect = textField(get(&FormToleration::effect), set(&FormToleration::effect),
        { QString(), QStringLiteral("NoSchedule"), QStringLiteral("NoExecute"),
            QStringLiteral("None") },
        false);
    effect->setToolTip(QStringLiteral("Effect tolerated; empty tolerates every effect"));
    layout->addWidget(effect);
    QWidget *seconds = textField(
        [=](ClaimTemplateForm &f) {
            const auto &s = at(f, request, alternative, toleration).tolerationSeconds;
            return s ? QString::number(*s) : QString();
        },
        [=](ClaimTemplateForm &f, const QString &v) {
            bool ok = false;
            const qlonglong s = v.trimmed().toLongLong(&ok);
            auto &field = at(f, request, alternative, toleration).tolerationSeconds;
            if (v.trimmed().isEmpty())
                field.reset();
            else if (ok)
                field = s;
        });
    seconds->setToolTip(QStringLiteral("Seconds a NoExecute taint is tolerated; empty for ever"));
    layout->addWidget(seconds, 1);
    layout->addWidget(button(
        QStringLiteral("−"), QStringLiteral("Remove this toleration"), [=](ClaimTemplateForm &f) {
            model::FormRequest &req = f.requests[std::size_t(request)];
            auto &list
                = (alternative < 0 ? req.exactly : req.alternatives[std::size_t(alternative)])
                      .tolerations;
            list.erase(list.begin() + toleration);
        }));
    return row;
}

QWidget *TemplateForm::constraintsSection()
{
    auto *box = new QGroupBox(QStringLiteral("Constraints"));
    auto *layout = new QVBoxLayout(box);
    for (int i = 0; i < int(m_form.constraints.size()); ++i) {
        auto *form = new QFormLayout;
        form->addRow(QStringLiteral("Requests"),
            textField(
                [i](ClaimTemplateForm &f) {
                    return common::qs(
                        model::requestListText(f.constraints[std::size_t(i)].requests));
                },
                [i](ClaimTemplateForm &f, const QString &v) {
                    f.constraints[std::size_t(i)].requests
                        = model::parseRequestList(v.toStdString());
                }));
        form->addRow(QStringLiteral("Same attribute"),
            textField(
                [i](ClaimTemplateForm &f) {
                    return common::qs(f.constraints[std::size_t(i)].matchAttribute);
                },
                [i](ClaimTemplateForm &f, const QString &v) {
                    f.constraints[std::size_t(i)].matchAttribute = v.toStdString();
                }));
        form->addRow(QStringLiteral("Distinct attribute"),
            textField(
                [i](ClaimTemplateForm &f) {
                    return common::qs(f.constraints[std::size_t(i)].distinctAttribute);
                },
                [i](ClaimTemplateForm &f, const QString &v) {
                    f.constraints[std::size_t(i)].distinctAttribute = v.toStdString();
                }));
        form->addRow(QString(),
            button(QStringLiteral("Remove constraint"), QString(),
                [i](ClaimTemplateForm &f) { f.constraints.erase(f.constraints.begin() + i); }));
        layout->addLayout(form);
    }
    layout->addWidget(
        button(QStringLiteral("Add constraint"),
            QStringLiteral("Devices of some requests must share (or differ in) an attribute"),
            [](ClaimTemplateForm &f) { f.constraints.emplace_back(); }),
        0, Qt::AlignLeft);
    return box;
}

QWidget *TemplateForm::configSection()
{
    auto *box = new QGroupBox(QStringLiteral("Config"));
    auto *layout = new QVBoxLayout(box);
    for (int i = 0; i < int(m_form.config.size()); ++i) {
        auto *form = new QFormLayout;
        form->addRow(QStringLiteral("Requests"),
            textField(
                [i](ClaimTemplateForm &f) {
                    return common::qs(model::requestListText(f.config[std::size_t(i)].requests));
                },
                [i](ClaimTemplateForm &f, const QString &v) {
                    f.config[std::size_t(i)].requests = model::parseRequestList(v.toStdString());
                }));
        form->addRow(QStringLiteral("Driver"),
            textField(
                [i](ClaimTemplateForm &f) { return common::qs(f.config[std::size_t(i)].driver); },
                [i](ClaimTemplateForm &f, const QString &v) {
                    f.config[std::size_t(i)].driver = v.toStdString();
                }));
        auto *parameters = new QPlainTextEdit;
        parameters->setToolTip(QStringLiteral("Opaque driver parameters, as JSON"));
        parameters->setMaximumHeight(120);
        connect(parameters, &QPlainTextEdit::textChanged, this, [this, parameters, i] {
            const std::string text = parameters->toPlainText().toStdString();
            edit([i, text](ClaimTemplateForm &f) { f.config[std::size_t(i)].parameters = text; });
        });
        m_refresh.push_back([parameters, i](ClaimTemplateForm &f) {
            const QString value = common::qs(f.config[std::size_t(i)].parameters);
            if (parameters->hasFocus() || parameters->toPlainText() == value)
                return; // the JSON being typed is not reformatted under the cursor
            const QSignalBlocker blocker(parameters);
            parameters->setPlainText(value);
        });
        form->addRow(QStringLiteral("Parameters"), parameters);
        form->addRow(QString(),
            button(QStringLiteral("Remove config"), QString(),
                [i](ClaimTemplateForm &f) { f.config.erase(f.config.begin() + i); }));
        layout->addLayout(form);
    }
    layout->addWidget(
        button(QStringLiteral("Add config"), QStringLiteral("Opaque parameters for a driver"),
            [](ClaimTemplateForm &f) {
                f.config.push_back({ {}, {}, "{}", -1 });
            }),
        0, Qt::AlignLeft);
    return box;
}

} // namespace dra::views
