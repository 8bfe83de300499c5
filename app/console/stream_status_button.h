// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <map>
#include <string>
#include <utility>

#include <QStringList>
#include <QToolButton>

#include "core/kube/stream_status.h"

class QLabel;

namespace dra::console {

// The right-hand end of the status bar: how current the mirror is in one line, and on a click
// every stream's state with the facts about the streams that need no action ("the cluster does
// not serve DeviceTaintRule"), which would otherwise crowd out what the user did or what is
// wrong.
class StreamStatusButton final : public QToolButton
{
    Q_OBJECT
public:
    explicit StreamStatusButton(QWidget *parent = nullptr);

    void setStream(const kube::StreamStatus &status);
    // A benign fact about the streams: in the popup only.
    void addNote(const QString &note);
    // How current the mirror is in one line ("" before any stream reported).
    QString summary() const;
    // The popup's text, one stream or note a line (plain text).
    QString details() const;
    const QStringList &notes() const { return m_notes; }

private:
    void refresh();

    std::map<std::pair<model::Kind, std::string>, kube::StreamStatus> m_streams;
    QStringList m_notes;
    QLabel *m_popupText;
};

} // namespace dra::console
