// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/editor/template_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextCursor>
#include <QVBoxLayout>

#include "core/common/json_text.h"
#include "views/common/theme.h"

namespace dra::views {

namespace {

using model::ClaimTemplateForm;
using model::FormDeviceSpec;

// What decides which widgets the form has: a re-read of the same shape only updates values, so
// the field being typed in keeps its focus and cursor.
std::string formShape(const ClaimTemplateForm &form)
{
    const auto spec = [](const FormDeviceSpec &s) {
        return "s" + std::to_string(s.selectors.size()) + "t"
            + std::to_string(s.tolerations.size());
    };
    std::string shape = form.kind + ";";
    for (const model::FormRequest &request : form.requests) {
        if (!request.firstAvailable) {
            shape += "E" + spec(request.exactly);
            continue;
        }
        shape += "F";
        for (const FormDeviceSpec &alternative : request.alternatives)
            shape += spec(alternative);
    }
    return shape + ";c" + std::to_string(form.constraints.size()) + "o"
        + std::to_string(form.config.size());
}

const QString kEditorOrigin = QStringLiteral("editor");

// A message the form cannot act on, in the theme's error colour as it is when the message comes.
void showError(QLabel *label, const QString &text)
{
    label->setStyleSheet(QStringLiteral("color: %1").arg(themeColors().errorText.name()));
    label->setText(text);
    label->show();
}

} // namespace

TemplateForm::TemplateForm(QPlainTextEdit *yaml, QWidget *parent)
    : QWidget(parent)
    , m_yaml(yaml)
    , m_errorLabel(new QLabel(this))
    , m_fields(new QWidget(this))
{
    m_errorLabel->setTextFormat(Qt::PlainText); // shows cluster data or messages about it
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_errorLabel);
    layout->addWidget(m_fields, 1);
    refresh();
}

void TemplateForm::setDeviceClasses(const QStringList &names)
{
    if (names == m_classes)
        return;
    m_classes = names;
    if (m_error.isEmpty() && !m_readText.isNull())
        rebuild(); // the class combos offer the new list
}

void TemplateForm::refresh()
{
    if (m_writing)
        return;
    const QString text = m_yaml->toPlainText();
    if (text == m_readText && !m_readText.isNull())
        return; // read already, or written by this form
    m_readText = text;
    Result<ClaimTemplateForm> form
        = model::readClaimTemplateForm(text.toStdString(), kEditorOrigin);
    if (!form) {
        setReadError(form.error().message);
        return;
    }
    const bool sameShape
        = m_error.isEmpty() && !m_refresh.empty() && formShape(*form) == formShape(m_form);
    m_form = std::move(*form);
    m_error.clear();
    m_errorLabel->hide();
    m_fields->setEnabled(true);
    if (sameShape)
        refreshFields();
    else
        rebuild();
}

void TemplateForm::setReadError(const QString &error)
{
    // The last good values stay visible, disabled, so nothing stale can be written.
    m_error = error;
    showError(m_errorLabel,
        QStringLiteral("The YAML does not read, so the form is not in sync: %1").arg(error));
    m_fields->setEnabled(false);
}

bool TemplateForm::edit(const std::function<void(ClaimTemplateForm &)> &edit, bool restructure)
{
    if (m_yaml->toPlainText() != m_readText)
        refresh(); // typed in the YAML since the last read: edit what is there now
    if (!m_error.isEmpty())
        return false;
    ClaimTemplateForm next = m_form;
    edit(next);
    Result<std::string> result
        = model::writeClaimTemplateForm(m_readText.toStdString(), next, kEditorOrigin);
    if (!result) {
        // An edit that cannot be written yet (parameters half typed): say so, keep the YAML.
        showError(m_errorLabel, result.error().message);
        m_form = std::move(next);
        return false;
    }
    m_errorLabel->hide();
    const QString text = QString::fromStdString(*result);
    // Read back what was written, so that new list elements know where they are in the document.
    Result<ClaimTemplateForm> reread = model::readClaimTemplateForm(*result, kEditorOrigin);
    m_form = reread ? std::move(*reread) : std::move(next);
    m_readText = text;
    if (text != m_yaml->toPlainText())
        replaceYaml(text);
    if (restructure)
        rebuild();
    Q_EMIT written();
    return true;
}

void TemplateForm::replaceYaml(const QString &text)
{
    const QString old = m_yaml->toPlainText();
    const qsizetype shorter = std::min(old.size(), text.size());
    qsizetype prefix = 0;
    while (prefix < shorter && old[prefix] == text[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (
        suffix < shorter - prefix && old[old.size() - 1 - suffix] == text[text.size() - 1 - suffix])
        ++suffix;
    // Only the changed span is replaced: the cursor and scroll position stay where the user had
    // them, and Ctrl+Z in the YAML undoes the whole form edit.
    m_writing = true;
    QTextCursor cursor(m_yaml->document());
    cursor.beginEditBlock();
    cursor.setPosition(int(prefix));
    cursor.setPosition(int(old.size() - suffix), QTextCursor::KeepAnchor);
    cursor.insertText(text.mid(prefix, text.size() - prefix - suffix));
    cursor.endEditBlock();
    m_writing = false;
}

void TemplateForm::rebuild()
{
    m_refresh.clear();
    auto *fields = new QWidget(this);
    fields->setObjectName(QStringLiteral("templateFormFields"));
    auto *layout = new QVBoxLayout(fields);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(metadataSection());
    for (int i = 0; i < int(m_form.requests.size()); ++i)
        layout->addWidget(requestSection(i));
    layout->addWidget(
        button(QStringLiteral("Add request"), QStringLiteral("Append a request for one device"),
            [this](ClaimTemplateForm &form) {
                model::addRequest(form, m_classes.value(0).toStdString());
            }),
        0, Qt::AlignLeft);
    layout->addWidget(constraintsSection());
    layout->addWidget(configSection());
    layout->addStretch(1);
    // The old widgets may be running the slot that asked for this: delete them later.
    this->layout()->replaceWidget(m_fields, fields);
    m_fields->hide();
    m_fields->setParent(nullptr); // out of findChild()'s reach at once
    m_fields->deleteLater();
    m_fields = fields;
    m_fields->setEnabled(m_error.isEmpty());
    refreshFields();
}

void TemplateForm::refreshFields()
{
    for (const Refresh &refresh : m_refresh)
        refresh(m_form);
}

QWidget *TemplateForm::metadataSection()
{
    auto *box = new QGroupBox(
        QStringLiteral("%1 (%2)").arg(common::qs(m_form.kind), common::qs(m_form.apiVersion)));
    auto *form = new QFormLayout(box);
    QWidget *name = textField([](ClaimTemplateForm &f) { return common::qs(f.name); },
        [](ClaimTemplateForm &f, const QString &v) { f.name = v.toStdString(); });
    name->setObjectName(QStringLiteral("name"));
    form->addRow(QStringLiteral("Name"), name);
    QWidget *ns = textField([](ClaimTemplateForm &f) { return common::qs(f.ns); },
        [](ClaimTemplateForm &f, const QString &v) { f.ns = v.toStdString(); });
    ns->setObjectName(QStringLiteral("namespace"));
    form->addRow(QStringLiteral("Namespace"), ns);
    return box;
}

QWidget *TemplateForm::requestSection(int request)
{
    auto *box = new QGroupBox(QStringLiteral("Request %1").arg(request + 1));
    box->setObjectName(QStringLiteral("request-%1").arg(request));
    auto *layout = new QVBoxLayout(box);
    auto *form = new QFormLayout;
    layout->addLayout(form);
    form->addRow(QStringLiteral("Name"),
        textField([request](ClaimTemplateForm &f) { return common::qs(f.requests[request].name); },
            [request](ClaimTemplateForm &f, const QString &v) {
                f.requests[request].name = v.toStdString();
            }));
    auto *mode = new QComboBox;
    mode->setObjectName(QStringLiteral("request-%1-mode").arg(request));
    mode->addItems({ QStringLiteral("exactly"), QStringLiteral("firstAvailable") });
    mode->setToolTip(
        QStringLiteral("exactly: one kind of device; firstAvailable: alternatives tried in order"));
    connect(mode, &QComboBox::activated, this, [this, request](int index) {
        edit(
            [request, index](ClaimTemplateForm &f) {
                model::setFirstAvailable(f.requests[request], index == 1);
            },
            true);
    });
    m_refresh.push_back([mode, request](ClaimTemplateForm &f) {
        const QSignalBlocker blocker(mode);
        mode->setCurrentIndex(f.requests[request].firstAvailable ? 1 : 0);
    });
    form->addRow(QStringLiteral("Mode"), mode);

    const model::FormRequest &current = m_form.requests[std::size_t(request)];
    if (!current.firstAvailable) {
        layout->addWidget(specSection(request, -1));
    } else {
        for (int i = 0; i < int(current.alternatives.size()); ++i)
            layout->addWidget(specSection(request, i));
        layout->addWidget(button(QStringLiteral("Add alternative"),
                              QStringLiteral("Append a lower-priority alternative"),
                              [this, request](ClaimTemplateForm &f) {
                                  model::addAlternative(
                                      f.requests[request], m_classes.value(0).toStdString());
                              }),
            0, Qt::AlignLeft);
    }
    layout->addWidget(
        button(QStringLiteral("Remove request"),
            QStringLiteral("Remove this request from the template"),
            [request](ClaimTemplateForm &f) { f.requests.erase(f.requests.begin() + request); }),
        0, Qt::AlignRight);
    return box;
}

QWidget *TemplateForm::specSection(int request, int alternative)
{
    const Spec spec = [request, alternative](ClaimTemplateForm &f) -> FormDeviceSpec & {
        model::FormRequest &r = f.requests[std::size_t(request)];
        return alternative < 0 ? r.exactly : r.alternatives[std::size_t(alternative)];
    };
    const QString prefix = alternative < 0
        ? QStringLiteral("request-%1-").arg(request)
        : QStringLiteral("request-%1-alternative-%2-").arg(request).arg(alternative);
    QWidget *box = alternative < 0
        ? new QWidget
        : new QGroupBox(QStringLiteral("Alternative %1").arg(alternative + 1));
    auto *form = new QFormLayout(box);
    if (alternative < 0)
        form->setContentsMargins(0, 0, 0, 0);
    else
        form->addRow(QStringLiteral("Name"),
            textField([spec](ClaimTemplateForm &f) { return common::qs(spec(f).name); },
                [spec](
                    ClaimTemplateForm &f, const QString &v) { spec(f).name = v.toStdString(); }));

    QWidget *deviceClass
        = textField([spec](ClaimTemplateForm &f) { return common::qs(spec(f).deviceClassName); },
            [spec](ClaimTemplateForm &f, const QString &v) {
                spec(f).deviceClassName = v.toStdString();
            },
            m_classes);
    deviceClass->setObjectName(prefix + QStringLiteral("class"));
    deviceClass->setToolTip(
        QStringLiteral("DeviceClasses of the inventory; any name may be typed"));
    form->addRow(QStringLiteral("Device class"), deviceClass);

    auto *selectors = new QVBoxLayout;
    for (int i = 0; i < int(spec(m_form).selectors.size()); ++i)
        selectors->addWidget(selectorField(spec, i));
    selectors->addWidget(
        button(QStringLiteral("Add selector"), QStringLiteral("Add a CEL selector"),
            [spec](
                ClaimTemplateForm &f) { spec(f).selectors.emplace_back("device.driver == \"\""); }),
        0, Qt::AlignLeft);
    form->addRow(QStringLiteral("Selectors"), selectors);

    QWidget *mode = textField(
        [spec](ClaimTemplateForm &f) {
            return spec(f).isAll() ? QStringLiteral("All") : QStringLiteral("ExactCount");
        },
        [spec](ClaimTemplateForm &f, const QString &v) {
            FormDeviceSpec &s = spec(f);
            if (!(v == QLatin1String("ExactCount") && s.allocationMode.empty()))
                s.allocationMode = v.toStdString(); // an absent mode stays absent when re-picked
        },
        { QStringLiteral("ExactCount"), QStringLiteral("All") }, false);
    mode->setObjectName(prefix + QStringLiteral("allocationMode"));
    form->addRow(QStringLiteral("Allocation mode"), mode);

    auto *count = new QSpinBox;
    count->setObjectName(prefix + QStringLiteral("count"));
    count->setRange(1, 1024);
    count->setToolTip(QStringLiteral("Number of devices with ExactCount"));
    connect(count, &QSpinBox::valueChanged, this, [this, spec](int value) {
        edit([spec, value](ClaimTemplateForm &f) { spec(f).count = value; });
    });
    m_refresh.push_back([count, spec](ClaimTemplateForm &f) {
        const QSignalBlocker blocker(count);
        count->setValue(int(spec(f).effectiveCount()));
        count->setEnabled(!spec(f).isAll());
    });
    form->addRow(QStringLiteral("Count"), count);

    if (alternative < 0) {
        auto *admin
            = new QCheckBox(QStringLiteral("Administrative access (ignores other allocations)"));
        admin->setObjectName(prefix + QStringLiteral("adminAccess"));
        connect(admin, &QCheckBox::clicked, this, [this, spec](bool on) {
            edit([spec, on](ClaimTemplateForm &f) { spec(f).adminAccess = on; });
        });
        m_refresh.push_back([admin, spec](ClaimTemplateForm &f) {
            const QSignalBlocker blocker(admin);
            admin->setChecked(spec(f).adminAccess);
        });
        form->addRow(QString(), admin);
    }

    auto *tolerations = new QVBoxLayout;
    for (int i = 0; i < int(spec(m_form).tolerations.size()); ++i)
        tolerations->addWidget(tolerationRow(request, alternative, i));
    tolerations->addWidget(
        button(QStringLiteral("Add toleration"), QStringLiteral("Tolerate a device taint"),
            [spec](ClaimTemplateForm &f) {
                spec(f).tolerations.push_back({ {}, "Exists", {}, "NoSchedule", std::nullopt, -1 });
            }),
        0, Qt::AlignLeft);
    form->addRow(QStringLiteral("Tolerations"), tolerations);

    QWidget *capacity = textField(
        [spec](ClaimTemplateForm &f) { return common::qs(model::capacityRequestsText(spec(f))); },
        [spec](ClaimTemplateForm &f, const QString &v) {
            model::setCapacityRequestsText(spec(f), v.toStdString());
        });
    capacity->setToolTip(
        QStringLiteral("Capacity consumed from shareable devices: name=quantity, comma separated"));
    form->addRow(QStringLiteral("Capacity"), capacity);

    if (alternative >= 0)
        form->addRow(QString(),
            button(QStringLiteral("Remove alternative"), QString(),
                [request, alternative](ClaimTemplateForm &f) {
                    auto &alternatives = f.requests[std::size_t(request)].alternatives;
                    alternatives.erase(alternatives.begin() + alternative);
                }));
    return box;
}

} // namespace dra::views
