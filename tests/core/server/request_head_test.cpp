// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/request_head.h"

#include <string>

#include <gtest/gtest.h>

using dra::server::ChunkedBodyDecoder;

namespace {

struct Decoded
{
    ChunkedBodyDecoder::Status status;
    int errorStatus;
    QByteArray body;
};

// Decodes `bytes` arriving in pieces of `piece` bytes (all at once when 0).
Decoded decodeInPieces(const QByteArray &bytes, qsizetype piece)
{
    ChunkedBodyDecoder decoder(1024 * 1024, 64 * 1024);
    QByteArray in;
    auto status = ChunkedBodyDecoder::Status::NeedMore;
    for (qsizetype at = 0; at < bytes.size() && status == ChunkedBodyDecoder::Status::NeedMore;) {
        const qsizetype n = piece == 0 ? bytes.size() : piece;
        in += bytes.mid(at, n);
        at += n;
        status = decoder.decode(in);
    }
    return { status, decoder.error().status, decoder.body() };
}

} // namespace

// How a chunk-size line is read must not depend on how TCP cut the stream: a line of 1 KiB
// (the size and its extensions) is read, a longer one refused, arriving whole or byte by byte.
TEST(ChunkedBodyDecoderTest, SizeLineLimitHoldsWhateverTheSplit)
{
    const QByteArray atLimit
        = QByteArray(1023, '0') + "5\r\nhello\r\n0\r\n\r\n"; // a size line of 1,024 bytes
    for (const qsizetype piece : { 0, 1, 7 }) {
        const Decoded decoded = decodeInPieces(atLimit, piece);
        EXPECT_EQ(decoded.status, ChunkedBodyDecoder::Status::Done) << "pieces of " << piece;
        EXPECT_EQ(decoded.body, "hello") << "pieces of " << piece;
    }

    const QByteArray overLimit = "5;" + QByteArray(1023, 'x') + "\r\nhello\r\n0\r\n\r\n";
    for (const qsizetype piece : { 0, 1, 7 }) {
        const Decoded decoded = decodeInPieces(overLimit, piece);
        EXPECT_EQ(decoded.status, ChunkedBodyDecoder::Status::Failed) << "pieces of " << piece;
        EXPECT_EQ(decoded.errorStatus, 400) << "pieces of " << piece;
    }
}
