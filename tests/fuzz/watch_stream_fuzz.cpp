// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for the watch-stream parser (core/kube/watch_stream_parser.h). The input is a
// watch response body. It is fed whole to one parser, and to another in pieces cut at points
// the input's first byte chooses; as the parser accepts any chunking, both must give the same
// events and errors, and nothing may stay buffered once a document has ended. The driver:
// fuzz_driver.h.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/kube/watch_stream_parser.h"
#include "tests/fuzz/fuzz_driver.h"

namespace {

[[noreturn]] void violated(const char *what)
{
    std::fprintf(stderr, "invariant violated: %s\n", what);
    std::abort();
}

bool sameEvents(const std::vector<dra::Result<dra::kube::WatchEvent>> &a,
    const std::vector<dra::Result<dra::kube::WatchEvent>> &b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].has_value() != b[i].has_value())
            return false;
        if (a[i] && (a[i]->type != b[i]->type || a[i]->object != b[i]->object))
            return false;
        if (!a[i] && a[i].error().message != b[i].error().message)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));

    dra::kube::WatchStreamParser whole;
    whole.feed(input);
    const auto wholeEvents = whole.takeEvents();
    if (whole.pendingBytes() < 0 || whole.pendingBytes() > input.size())
        violated("pendingBytes() out of range");

    // Pieces: the first byte picks a step (1 to 16 bytes) and a phase; a few cuts fall at
    // newlines too, where real chunk boundaries usually are.
    const uint8_t first = size > 0 ? data[0] : 0;
    const qsizetype step = 1 + (first & 15);
    dra::kube::WatchStreamParser split;
    std::vector<dra::Result<dra::kube::WatchEvent>> splitEvents;
    qsizetype at = 0;
    qsizetype next = (first >> 4) % step;
    while (at < input.size()) {
        qsizetype cut = std::min(next, input.size());
        if (first & 0x80) {
            const qsizetype newline = input.sliced(at).indexOf('\n');
            if (newline >= 0)
                cut = std::min(cut, at + newline + 1);
        }
        cut = std::max(cut, at + 1);
        split.feed(input.sliced(at, cut - at));
        for (auto &event : split.takeEvents())
            splitEvents.push_back(std::move(event));
        at = cut;
        next = at + step;
        if (split.pendingBytes() < 0)
            violated("pendingBytes() negative");
    }
    split.feed({}); // an empty read changes nothing
    for (auto &event : split.takeEvents())
        splitEvents.push_back(std::move(event));

    if (!sameEvents(wholeEvents, splitEvents))
        violated("the events depend on how the stream is split");
    if (split.pendingBytes() != whole.pendingBytes())
        violated("the bytes left depend on how the stream is split");
    if (!split.takeEvents().empty())
        violated("events returned twice");
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(
        argc, argv, { "watch_stream_fuzz", &LLVMFuzzerTestOneInput, dra::fuzz::jsonTokens() });
}
#endif
