// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QByteArrayView>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace dra::kube {

// One event of a watch stream: {"type": ..., "object": {...}}.
struct WatchEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error };
    Type type = Type::Added;
    nlohmann::json object;
};

// Splits a watch response body into events as bytes arrive. Like client-go's JSON framer it
// reads consecutive JSON documents whether or not they end in a newline, so it accepts any
// chunking. A malformed document (also one cut short, with the next event after it) or an
// unknown type is an error entry, and the documents after it are read as before; the stream
// should then be restarted from the last good resourceVersion, as client-go does.
class WatchStreamParser final
{
public:
    void feed(QByteArrayView data);
    // The events (or errors) completed so far, in order; each returned once.
    std::vector<Result<WatchEvent>> takeEvents();
    // Bytes of an incomplete document still buffered.
    qsizetype pendingBytes() const { return m_buffer.size() - m_start; }

private:
    void scan();

    QByteArray m_buffer;
    qsizetype m_start = 0; // where the current document begins
    qsizetype m_pos = 0; // how far scanning got
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
    char m_last = 0; // the last byte outside strings in the current document
    std::vector<Result<WatchEvent>> m_events;
};

// The event of one parsed JSON document.
[[nodiscard]] Result<WatchEvent> toWatchEvent(nlohmann::json &&document);

} // namespace dra::kube
