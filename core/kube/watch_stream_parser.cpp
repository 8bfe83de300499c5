// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/watch_stream_parser.h"

namespace dra::kube {

using common::Error;

Result<WatchEvent> toWatchEvent(nlohmann::json &&document)
{
    if (!document.is_object())
        return fail(Error::Code::Parse, QStringLiteral("watch event is not a JSON object"));
    const auto type = document.find("type");
    const auto object = document.find("object");
    if (type == document.end() || !type->is_string() || object == document.end()
        || !object->is_object())
        return fail(Error::Code::Parse, QStringLiteral("watch event without type and object"));
    const std::string &name = type->get_ref<const std::string &>();
    WatchEvent event;
    if (name == "ADDED")
        event.type = WatchEvent::Type::Added;
    else if (name == "MODIFIED")
        event.type = WatchEvent::Type::Modified;
    else if (name == "DELETED")
        event.type = WatchEvent::Type::Deleted;
    else if (name == "BOOKMARK")
        event.type = WatchEvent::Type::Bookmark;
    else if (name == "ERROR")
        event.type = WatchEvent::Type::Error;
    else
        return fail(Error::Code::Parse,
            QStringLiteral("unknown watch event type \"%1\"").arg(QString::fromStdString(name)));
    event.object = std::move(*object);
    return event;
}

void WatchStreamParser::feed(QByteArrayView data)
{
    // Drop consumed bytes before growing, so a long-lived stream does not keep its history.
    if (m_start > 0 && m_start > m_buffer.size() / 2) {
        m_buffer.remove(0, m_start);
        m_pos -= m_start;
        m_start = 0;
    }
    m_buffer.append(data);
    scan();
}

void WatchStreamParser::scan()
{
    const char *bytes = m_buffer.constData();
    const qsizetype size = m_buffer.size();
    // A document cut short (a truncated event, the next one following on its own line) must not
    // swallow the documents after it: the scan stops it where JSON could not go on.
    const auto malformed = [this] {
        m_events.push_back(
            fail(Error::Code::Parse, QStringLiteral("malformed JSON in watch stream")));
        m_depth = 0;
        m_inString = false;
        m_escape = false;
        m_start = m_pos;
    };
    for (; m_pos < size; ++m_pos) {
        const char c = bytes[m_pos];
        if (m_depth == 0) {
            if (c == '{') {
                m_start = m_pos;
                m_depth = 1;
                m_last = '{';
            } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                m_events.push_back(
                    fail(Error::Code::Parse, QStringLiteral("unexpected byte in watch stream")));
                m_start = m_pos + 1;
            } else {
                m_start = m_pos + 1;
            }
            continue;
        }
        if (m_inString) {
            if (m_escape) {
                m_escape = false;
            } else if (c == '\\') {
                m_escape = true;
            } else if (c == '"') {
                m_inString = false;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                // JSON strings hold no raw control characters: the string was cut off.
                malformed();
                --m_pos; // read the byte again, outside any document
            }
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        const bool opens = c == '{' || c == '[';
        if ((opens && m_last != ':' && m_last != ',' && m_last != '[')
            || (c == '"' && m_last != '{' && m_last != ',' && m_last != ':' && m_last != '[')) {
            // A value where none may follow: what came before was cut off.
            malformed();
            --m_pos; // this byte may begin the next document
            continue;
        }
        m_last = c;
        if (c == '"')
            m_inString = true;
        else if (opens)
            ++m_depth;
        else if (c == '}' || c == ']') {
            if (--m_depth == 0) {
                nlohmann::json document
                    = nlohmann::json::parse(bytes + m_start, bytes + m_pos + 1, nullptr, false);
                if (document.is_discarded())
                    m_events.push_back(
                        fail(Error::Code::Parse, QStringLiteral("malformed JSON in watch stream")));
                else
                    m_events.push_back(toWatchEvent(std::move(document)));
                m_start = m_pos + 1;
            }
        }
    }
}

std::vector<Result<WatchEvent>> WatchStreamParser::takeEvents()
{
    return std::exchange(m_events, {});
}

} // namespace dra::kube
