// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/request_head.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace dra::server {

namespace {

std::string lowerAscii(std::string_view text)
{
    std::string out(text);
    std::transform(
        out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string_view trimHeaderValue(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// RFC 9110's token: what a method and a header name are made of. Anything else (a space before
// the colon, a folded line) is read differently by other parsers, so it is refused.
bool isToken(std::string_view text)
{
    constexpr std::string_view punctuation = "!#$%&'*+-.^_`|~";
    return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || punctuation.find(c) != std::string_view::npos;
    });
}

// A header value with no CR, LF or NUL: a bare LF ends the line for some parsers.
bool isFieldValue(std::string_view text)
{
    return text.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

// A request target of visible characters: a space would make a second request line of the rest.
bool isTargetText(std::string_view text)
{
    return std::none_of(text.begin(), text.end(),
        [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; });
}

// The comma-separated items of a header value, trimmed, empty ones left out.
std::vector<std::string_view> listItems(std::string_view value)
{
    std::vector<std::string_view> items;
    size_t start = 0;
    while (start <= value.size()) {
        size_t end = value.find(',', start);
        if (end == std::string_view::npos)
            end = value.size();
        const std::string_view item = trimHeaderValue(value.substr(start, end - start));
        if (!item.empty())
            items.push_back(item);
        start = end + 1;
    }
    return items;
}

std::unexpected<HttpError> refuse(int status, std::string message)
{
    return std::unexpected(HttpError { status, std::move(message) });
}

} // namespace

std::expected<RequestHead, HttpError> parseRequestHead(std::string_view text)
{
    RequestHead head;
    Request &request = head.request;
    size_t lineEnd = text.find("\r\n");
    const std::string_view requestLine = text.substr(0, lineEnd);
    const size_t sp1 = requestLine.find(' ');
    const size_t sp2 = requestLine.rfind(' ');
    if (sp1 == std::string_view::npos || sp2 == sp1)
        return refuse(400, "malformed request line");
    request.method = std::string(requestLine.substr(0, sp1));
    request.target = std::string(requestLine.substr(sp1 + 1, sp2 - sp1 - 1));
    const std::string_view version = requestLine.substr(sp2 + 1);
    if (!isToken(request.method) || !isTargetText(request.target))
        return refuse(400, "malformed request line");
    if (version != "HTTP/1.1" && version != "HTTP/1.0")
        return refuse(505, "only HTTP/1.0 and HTTP/1.1 are supported");
    head.http10 = version == "HTTP/1.0";
    if (request.target.empty() || request.target.front() != '/')
        return refuse(400, "the request target must be an absolute path");
    const size_t question = request.target.find('?');
    request.path = percentDecode(std::string_view(request.target).substr(0, question), false);
    if (question != std::string::npos)
        request.query = QueryParams::parse(std::string_view(request.target).substr(question + 1));

    while (lineEnd != std::string_view::npos) {
        const size_t start = lineEnd + 2;
        lineEnd = text.find("\r\n", start);
        const std::string_view line = text.substr(
            start, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - start);
        if (line.empty())
            continue;
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || !isToken(line.substr(0, colon))
            || !isFieldValue(line.substr(colon + 1)))
            return refuse(400, "malformed header line");
        request.headers.push_back({ lowerAscii(line.substr(0, colon)),
            std::string(trimHeaderValue(line.substr(colon + 1))) });
    }
    const std::string connection = request.header("connection");
    head.keepAlive = head.http10 ? headerListContains(connection, "keep-alive")
                                 : !headerListContains(connection, "close");
    return head;
}

std::expected<BodyFraming, HttpError> bodyFraming(const std::vector<Header> &headers, bool http10)
{
    std::vector<std::string_view> codings;
    std::vector<std::string_view> lengths;
    bool transferEncoding = false;
    for (const Header &field : headers) {
        if (field.name == "transfer-encoding") {
            transferEncoding = true;
            for (std::string_view coding : listItems(field.value))
                codings.push_back(coding);
        } else if (field.name == "content-length") {
            const std::vector<std::string_view> items = listItems(field.value);
            lengths.insert(lengths.end(), items.begin(), items.end());
            if (items.empty())
                lengths.push_back({});
        }
    }
    if (transferEncoding) {
        if (!lengths.empty())
            return refuse(
                400, "both Transfer-Encoding and Content-Length: the body's length is ambiguous");
        if (http10)
            return refuse(400, "Transfer-Encoding in an HTTP/1.0 request");
        if (codings.empty() || !headerListContains(codings.back(), "chunked"))
            return refuse(400, "chunked must be the final transfer coding");
        if (codings.size() > 1)
            return refuse(501, "unsupported transfer encoding (only chunked)");
        return BodyFraming { BodyFraming::Kind::Chunked, 0 };
    }
    if (lengths.empty())
        return BodyFraming {};
    int64_t size = -1;
    for (std::string_view length : lengths) {
        // Digits only: from_chars would take a sign, which other parsers do not.
        int64_t value = -1;
        const bool digits = !length.empty()
            && std::all_of(
                length.begin(), length.end(), [](char c) { return c >= '0' && c <= '9'; });
        const auto [ptr, ec] = std::from_chars(length.data(), length.data() + length.size(), value);
        if (!digits || ec != std::errc() || ptr != length.data() + length.size()
            || (size >= 0 && value != size))
            return refuse(400, "invalid Content-Length");
        size = value;
    }
    return BodyFraming { BodyFraming::Kind::Length, size };
}

ChunkedBodyDecoder::ChunkedBodyDecoder(int64_t maxBodyBytes, int64_t maxTrailerBytes)
    : m_maxBodyBytes(maxBodyBytes)
    , m_maxTrailerBytes(maxTrailerBytes)
{
}

ChunkedBodyDecoder::Status ChunkedBodyDecoder::fail(int status, std::string message)
{
    m_state = State::Failed;
    m_error = HttpError { status, std::move(message) };
    return Status::Failed;
}

ChunkedBodyDecoder::Status ChunkedBodyDecoder::decode(QByteArray &in)
{
    for (;;) {
        switch (m_state) {
        case State::Size: {
            // A size line (with its extensions) over 1 KiB is refused, whether its end has
            // arrived or not: how the stream was split must not change the answer.
            constexpr qsizetype kMaxSizeLine = 1024;
            const qsizetype end = in.indexOf("\r\n");
            if (end < 0) {
                // The last byte may be the CR that ends the line.
                if (in.size() > kMaxSizeLine + 1)
                    return fail(400, "malformed chunked body");
                return Status::NeedMore;
            }
            if (end > kMaxSizeLine)
                return fail(400, "malformed chunked body");
            std::string_view line(in.constData(), size_t(end));
            line = line.substr(0, line.find(';')); // chunk extensions are ignored
            line = trimHeaderValue(line);
            int64_t size = 0;
            const auto [ptr, ec]
                = std::from_chars(line.data(), line.data() + line.size(), size, 16);
            if (ec != std::errc() || ptr != line.data() + line.size() || size < 0 || line.empty())
                return fail(400, "malformed chunked body");
            in.remove(0, end + 2);
            if (size > m_maxBodyBytes - m_body.size()) {
                // Draining the rest of a chunked body is not worth its own parser state.
                return fail(413, "request entity too large");
            }
            m_remaining = size;
            m_state = size == 0 ? State::Trailer : State::Data;
            m_trailerBytes = 0;
            break;
        }
        case State::Data: {
            if (in.size() < m_remaining + 2)
                return Status::NeedMore;
            if (in.at(m_remaining) != '\r' || in.at(m_remaining + 1) != '\n') {
                // Where the next chunk starts would be a guess another parser may not share.
                return fail(400, "malformed chunked body: a chunk is longer than its size");
            }
            m_body += in.left(m_remaining);
            in.remove(0, m_remaining + 2);
            m_state = State::Size;
            break;
        }
        case State::Trailer: {
            // The trailer is a head of its own, bounded as the request's head is.
            const qsizetype end = in.indexOf("\r\n");
            if (m_trailerBytes + (end < 0 ? in.size() : end + 2) > m_maxTrailerBytes)
                return fail(431, "request trailer fields too large");
            if (end < 0)
                return Status::NeedMore;
            m_trailerBytes += end + 2;
            in.remove(0, end + 2);
            if (end == 0)
                m_state = State::Done;
            break;
        }
        case State::Done:
            return Status::Done;
        case State::Failed:
            return Status::Failed;
        }
    }
}

} // namespace dra::server
