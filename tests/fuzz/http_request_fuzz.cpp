// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for what `dractl serve` reads of a request before any controller sees it
// (core/server/request_head.h, websocket_gateway.h). The input is what a client sends: a head
// up to its blank line, then the body. The head is parsed; the body's framing is decided and a
// chunked body decoded, once whole and again byte by byte and in pieces its length and last byte
// choose, which must agree; the WebSocket checks run on the request, and the head with its bearer
// subprotocols removed must parse again with none left. The driver: fuzz_driver.h.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <QByteArray>

#include "core/server/request_head.h"
#include "core/server/websocket_gateway.h"
#include "tests/fuzz/fuzz_driver.h"

namespace {

// Stops the run with a message: an invariant of the code under test does not hold.
[[noreturn]] void violated(const char *what)
{
    std::fprintf(stderr, "invariant violated: %s\n", what);
    std::abort();
}

// Small limits, so that the fuzzer reaches the 413 and 431 paths with small inputs.
constexpr int64_t kMaxBody = 512;
constexpr int64_t kMaxTrailer = 256;

using Status = dra::server::ChunkedBodyDecoder::Status;

// Decodes `rest` arriving in pieces of 1 to 8 bytes whose sizes come from the bits of
// `splitSeed` (0: one byte at a time) and checks that the outcome is the one of `whole`, the
// decoder that had every byte at once.
void decodeInPieces(QByteArrayView rest, uint8_t splitSeed,
    const dra::server::ChunkedBodyDecoder &whole, Status wholeStatus, const QByteArray &wholeLeft)
{
    dra::server::ChunkedBodyDecoder pieces(kMaxBody, kMaxTrailer);
    QByteArray buffer;
    auto status = Status::NeedMore;
    qsizetype at = 0;
    int step = 0;
    while (at < rest.size() && status == Status::NeedMore) {
        const qsizetype piece = splitSeed == 0 ? 1 : 1 + ((splitSeed >> (step++ % 6)) & 7);
        buffer.append(rest.sliced(at, std::min(piece, rest.size() - at)));
        at += piece;
        status = pieces.decode(buffer);
    }
    if (status != wholeStatus)
        violated("a chunked body decodes differently when split");
    if (status == Status::Done) {
        if (pieces.body() != whole.body())
            violated("a chunked body's bytes differ when split");
        if (buffer + rest.sliced(std::min(at, rest.size())).toByteArray() != wholeLeft)
            violated("the bytes after a chunked body differ when split");
    }
    if (status == Status::Failed && pieces.error().status != whole.error().status)
        violated("a chunked body fails differently when split");
}

void decodeChunked(QByteArrayView rest, uint8_t splitSeed)
{
    dra::server::ChunkedBodyDecoder whole(kMaxBody, kMaxTrailer);
    QByteArray left = rest.toByteArray();
    const Status status = whole.decode(left);
    if (status == Status::Done && whole.body().size() > kMaxBody)
        violated("a chunked body exceeds the limit");
    decodeInPieces(rest, 0, whole, status, left);
    if (splitSeed != 0)
        decodeInPieces(rest, splitSeed, whole, status, left);
}

void checkWebSocket(const dra::server::Request &request, std::string_view rawHead)
{
    (void)dra::server::isWebSocketUpgrade(request);
    (void)dra::server::isCrossSiteWebSocket(request);
    (void)dra::server::bearerTokenFromProtocols(request);
    (void)dra::server::acceptsMediaType(request.header("accept"), { "as=Table", "g=meta.k8s.io" });

    const QByteArray rewritten = dra::server::withoutBearerProtocols(
        QByteArray(rawHead.data(), qsizetype(rawHead.size())));
    if (!rewritten.endsWith("\r\n\r\n"))
        violated("a rewritten head does not end with a blank line");
    const auto again = dra::server::parseRequestHead(
        std::string_view(rewritten.constData(), size_t(rewritten.size() - 4)));
    if (!again)
        violated("a head without its bearer subprotocols no longer parses");
    if (again->request.method != request.method || again->request.target != request.target)
        violated("removing bearer subprotocols changed the request line");
    const QByteArray prefix
        = QByteArray::fromStdString(std::string(dra::server::kBearerProtocolPrefix));
    for (const dra::server::Header &field : again->request.headers) {
        if (field.name != "sec-websocket-protocol")
            continue;
        for (const QByteArray &item : QByteArray::fromStdString(field.value).split(',')) {
            if (item.trimmed().startsWith(prefix))
                violated("a bearer subprotocol survived its removal");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const size_t end = input.find("\r\n\r\n");
    const std::string_view rawHead = input.substr(0, end);
    const auto head = dra::server::parseRequestHead(rawHead);
    if (!head) {
        if (head.error().status != 400 && head.error().status != 505)
            violated("a malformed head is answered with neither 400 nor 505");
        return 0;
    }
    const dra::server::Request &request = head->request;
    if (request.target.empty() || request.target.front() != '/')
        violated("a request target that is not an absolute path was accepted");
    checkWebSocket(request, rawHead);
    for (const auto &[name, value] : request.query.items())
        (void)request.query.values(name);

    const auto framing = dra::server::bodyFraming(request.headers, head->http10);
    if (!framing || end == std::string_view::npos)
        return 0;
    if (framing->kind == dra::server::BodyFraming::Kind::Length && framing->length < 0)
        violated("a negative Content-Length was accepted");
    if (framing->kind == dra::server::BodyFraming::Kind::Chunked) {
        const std::string_view rest = input.substr(end + 4);
        decodeChunked(QByteArrayView(rest.data(), qsizetype(rest.size())),
            uint8_t(size * 31 + data[size - 1]));
    }
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "http_request_fuzz", &LLVMFuzzerTestOneInput, dra::fuzz::httpTokens(), 8 * 1024 });
}
#endif
