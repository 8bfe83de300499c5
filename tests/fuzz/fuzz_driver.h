// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The main every fuzz target shares. A target is a libFuzzer-style entry point,
// `LLVMFuzzerTestOneInput(data, size)`, that feeds the bytes to one parser and returns 0; a
// crash, a hang or a sanitizer report is a bug. Its main calls runFuzzDriver(), which
//   - replays every file under the folders (or the single files) it is given: ctest runs it
//     over the target's checked-in corpus, and a crashing input is replayed the same way;
//   - with `--mutate SECONDS [--seed N] [--save DIR] [--timeout SECONDS] CORPUS...` mutates
//     the corpus inputs (byte edits, the target's dictionary tokens, splices) until SECONDS
//     have passed, with no fuzzing engine needed. The input being tried is written to
//     `<target>_current.txt` in the working folder first, so the one that crashed or hung can be
//     replayed; an input running longer than the timeout (10 s) aborts the run as a hang. At the
//     end it prints how many inputs ran and for how long.
// Built with -DDRA_FUZZ_NO_MAIN, a target links with AFL++'s or libFuzzer's own driver instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dra::fuzz {

// Byte sequences the mutator inserts so that mutants get past a format's lexer.
using Dictionary = std::vector<std::string_view>;

// Pieces of HTTP/1.1 request heads: methods, versions, header names and values, separators.
const Dictionary &httpTokens();
// Pieces of JSON: punctuation, literals, numbers at the edges, escapes, Kubernetes field names.
const Dictionary &jsonTokens();
// Pieces of YAML: indentation, document markers, block and flow syntax, tags, anchors, scalars
// the YAML 1.1 resolver treats specially, Kubernetes field names.
const Dictionary &yamlTokens();

// `a` followed by `b`.
Dictionary join(const Dictionary &a, const Dictionary &b);

struct Target
{
    // The target's name ("http_request_fuzz"); names the file holding the current input.
    std::string_view name;
    int (*testOne)(const uint8_t *data, size_t size) = nullptr;
    Dictionary dictionary;
    // Mutants are cut to this length.
    size_t maxInputBytes = 12 * 1024;
};

// Parses the command line described above and runs. Returns the process' exit code.
int runFuzzDriver(int argc, char **argv, const Target &target);

} // namespace dra::fuzz
