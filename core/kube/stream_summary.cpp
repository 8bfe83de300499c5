// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/stream_summary.h"

#include <map>

#include <QStringList>

namespace dra::kube {

QString summarizeStreams(const std::vector<StreamStatus> &streams)
{
    if (streams.empty())
        return QStringLiteral("connecting…");
    int watching = 0;
    QStringList listing;
    std::map<StreamState, QStringList> troubled;
    for (const StreamStatus &stream : streams) {
        switch (stream.state) {
        case StreamState::Watching:
            ++watching;
            break;
        case StreamState::Idle:
        case StreamState::Listing:
        case StreamState::Synced:
            listing << (stream.objects > 0
                    ? QStringLiteral("%1 %2 objects").arg(stream.label()).arg(stream.objects)
                    : stream.label());
            break;
        default:
            troubled[stream.state] << stream.label();
            break;
        }
    }
    QString text = QStringLiteral("%1/%2 streams watching").arg(watching).arg(streams.size());
    if (watching == int(streams.size()))
        return QStringLiteral("live: ") + text;
    if (!listing.isEmpty())
        text += QStringLiteral(" · listing %1").arg(listing.join(QStringLiteral(", ")));
    for (const auto &[state, labels] : troubled)
        text += QStringLiteral(" · %1: %2")
                    .arg(QString::fromUtf8(streamStateName(state)),
                        labels.join(QStringLiteral(", ")));
    return text;
}

} // namespace dra::kube
