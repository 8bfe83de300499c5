// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/mirror_metrics.h"

#include "core/server/request_metrics.h"

namespace dra::server {

namespace {

constexpr kube::StreamState kStates[] = { kube::StreamState::Idle, kube::StreamState::Listing,
    kube::StreamState::Synced, kube::StreamState::Watching, kube::StreamState::Stale,
    kube::StreamState::Forbidden, kube::StreamState::Error };

std::string streamLabels(const kube::StreamHealth::Entry &entry)
{
    return "kind=\"" + prometheus::escapeLabel(model::kindInfo(entry.status.kind).name)
        + "\",namespace=\"" + prometheus::escapeLabel(entry.status.ns) + "\"";
}

} // namespace

std::string mirrorMetrics(const kube::StreamHealth &health, int64_t nowMs)
{
    std::string out = prometheus::header("draconsole_mirror_stream_state", "gauge",
        "Where each mirrored stream stands: 1 for its current state.");
    for (const auto &[key, entry] : health.entries())
        for (const kube::StreamState state : kStates)
            out += "draconsole_mirror_stream_state{" + streamLabels(entry) + ",state=\""
                + std::string(kube::streamStateName(state)) + "\"} "
                + (entry.status.state == state ? "1" : "0") + "\n";
    const auto series = [&](const char *name, const char *type, const char *help, auto value) {
        out += prometheus::header(name, type, help);
        for (const auto &[key, entry] : health.entries())
            out += std::string(name) + "{" + streamLabels(entry) + "} " + value(entry) + "\n";
    };
    series("draconsole_mirror_stream_objects", "gauge", "Objects in the stream's last list.",
        [](const kube::StreamHealth::Entry &entry) {
            return std::to_string(entry.status.objects);
        });
    series("draconsole_mirror_stream_lag_seconds", "gauge",
        "Seconds since the stream last followed the cluster; 0 while it does.",
        [nowMs](const kube::StreamHealth::Entry &entry) {
            return prometheus::number(double(kube::StreamHealth::lagMs(entry, nowMs)) / 1000.0);
        });
    series("draconsole_mirror_stream_watch_restarts_total", "counter",
        "Times the stream's watch broke and was opened again.",
        [](const kube::StreamHealth::Entry &entry) { return std::to_string(entry.watchRestarts); });
    series("draconsole_mirror_stream_relists_total", "counter",
        "Times the stream listed again after its first list.",
        [](const kube::StreamHealth::Entry &entry) { return std::to_string(entry.relists); });
    return out;
}

} // namespace dra::server
