// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/console/stream_status_button.h"

#include <vector>

#include <QLabel>
#include <QMenu>
#include <QWidgetAction>

#include "core/kube/stream_summary.h"

namespace dra::console {

StreamStatusButton::StreamStatusButton(QWidget *parent)
    : QToolButton(parent)
    , m_popupText(new QLabel)
{
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_popupText->setTextFormat(Qt::PlainText); // stream reasons come from the cluster
    m_popupText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_popupText->setMargin(8);
    auto *menu = new QMenu(this);
    auto *action = new QWidgetAction(menu);
    action->setDefaultWidget(m_popupText);
    menu->addAction(action);
    setMenu(menu);
    setVisible(false);
}

void StreamStatusButton::setStream(const kube::StreamStatus &status)
{
    m_streams[{ status.kind, status.ns }] = status;
    refresh();
}

void StreamStatusButton::addNote(const QString &note)
{
    if (m_notes.contains(note))
        return;
    m_notes << note;
    refresh();
}

QString StreamStatusButton::details() const
{
    QStringList lines;
    for (const auto &[key, stream] : m_streams) {
        QString line = QStringLiteral("%1: %2, %3 objects")
                           .arg(stream.label(),
                               QString::fromLatin1(kube::streamStateName(stream.state).data(),
                                   qsizetype(kube::streamStateName(stream.state).size())))
                           .arg(stream.objects);
        if (!stream.reason.isEmpty())
            line += QStringLiteral(" — ") + stream.reason;
        lines << line;
    }
    if (!m_notes.isEmpty()) {
        if (!lines.isEmpty())
            lines << QString();
        lines << m_notes;
    }
    return lines.join(QLatin1Char('\n'));
}

QString StreamStatusButton::summary() const
{
    std::vector<kube::StreamStatus> streams;
    for (const auto &[key, stream] : m_streams)
        streams.push_back(stream);
    return streams.empty() ? QString() : kube::summarizeStreams(streams);
}

void StreamStatusButton::refresh()
{
    QString text = summary();
    if (text.isEmpty())
        text = QStringLiteral("streams");
    if (!m_notes.isEmpty())
        text += QStringLiteral(" · %1 note%2")
                    .arg(m_notes.size())
                    .arg(m_notes.size() == 1 ? QString() : QStringLiteral("s"));
    // While streams list, the summary can name many kinds: cut to a width the status bar can
    // give, the whole line in the tooltip and the popup.
    setToolTip(text + QStringLiteral("\nClick for every stream and notes about them"));
    setText(fontMetrics().elidedText(text, Qt::ElideRight, 420) + QStringLiteral(" ▾"));
    m_popupText->setText(details());
    setVisible(true);
}

} // namespace dra::console
