// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/stream_status.h"

#include "core/common/json_text.h"

namespace dra::kube {

std::string_view streamStateName(StreamState state)
{
    switch (state) {
    case StreamState::Idle:
        return "idle";
    case StreamState::Listing:
        return "listing";
    case StreamState::Synced:
        return "synced";
    case StreamState::Watching:
        return "watching";
    case StreamState::Stale:
        return "stale";
    case StreamState::Forbidden:
        return "forbidden";
    case StreamState::Error:
        return "error";
    }
    return "error";
}

QString StreamStatus::label() const
{
    const model::KindInfo &info = model::kindInfo(kind);
    QString text = common::qs(info.name);
    if (!ns.empty())
        text += QStringLiteral(" in ") + common::qs(ns);
    return text;
}

model::StreamRecord StreamStatus::record() const
{
    const model::KindInfo &info = model::kindInfo(kind);
    model::StreamRecord out;
    out.group = std::string(info.group);
    out.kind = std::string(info.name);
    out.ns = ns;
    out.state = std::string(streamStateName(state));
    out.reason = reason.toStdString();
    out.apiVersion = apiVersion;
    out.resourceVersion = resourceVersion;
    return out;
}

} // namespace dra::kube
