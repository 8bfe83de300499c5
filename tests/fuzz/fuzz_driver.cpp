// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/fuzz/fuzz_driver.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

namespace dra::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

std::string readFile(const std::filesystem::path &file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
        .count();
}

// Aborts the process when one input runs longer than the timeout: a parser that loops forever
// would otherwise stall the campaign without a report.
class Watchdog
{
public:
    explicit Watchdog(double timeoutSeconds)
        : m_timeoutMs(int64_t(timeoutSeconds * 1000))
        , m_thread([this] { watch(); })
    {
    }
    ~Watchdog()
    {
        m_stop = true;
        m_thread.join();
    }
    // `what` names the input (its file) and outlives the run.
    void started(const std::string *what)
    {
        m_what = what;
        m_startedMs = nowMs();
    }
    // How long the input took, in ms.
    int64_t finished()
    {
        const int64_t took = nowMs() - m_startedMs.load();
        m_startedMs = 0;
        return took;
    }

private:
    void watch()
    {
        while (!m_stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            const int64_t started = m_startedMs.load();
            if (started != 0 && nowMs() - started > m_timeoutMs) {
                std::fprintf(stderr, "hang: one input ran for more than %lld ms (%s)\n",
                    static_cast<long long>(m_timeoutMs), m_what.load()->c_str());
                std::abort();
            }
        }
    }

    int64_t m_timeoutMs;
    std::atomic<const std::string *> m_what { nullptr };
    std::atomic<int64_t> m_startedMs { 0 };
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
};

// One random edit (or a few) of `input`, sometimes spliced with `other`.
std::string mutate(std::string input, const std::string &other, const Dictionary &tokens,
    size_t maxBytes, std::mt19937_64 &rng)
{
    const auto pick
        = [&](size_t n) { return n == 0 ? size_t { 0 } : static_cast<size_t>(rng() % n); };
    const auto token = [&]() -> std::string_view {
        return tokens.empty() ? std::string_view(" ") : tokens[pick(tokens.size())];
    };
    const int edits = 1 + static_cast<int>(pick(4));
    for (int i = 0; i < edits; ++i) {
        const size_t at = pick(input.size() + 1);
        switch (pick(8)) {
        case 0: // insert a token
            input.insert(at, token());
            break;
        case 1: // erase a run
            if (!input.empty())
                input.erase(std::min(at, input.size() - 1), 1 + pick(8));
            break;
        case 2: // flip a bit
            if (!input.empty())
                input[std::min(at, input.size() - 1)] ^= static_cast<char>(1u << pick(8));
            break;
        case 3: // a random byte
            input.insert(at, 1, static_cast<char>(pick(256)));
            break;
        case 4: // duplicate a run (nesting, long chains, repeated fields)
            if (!input.empty()) {
                const size_t from = pick(input.size());
                input.insert(at, input.substr(from, 1 + pick(32)));
            }
            break;
        case 5: // splice with another input
            if (!other.empty())
                input = input.substr(0, at) + other.substr(pick(other.size()));
            break;
        case 6: // cut short (a truncated stream or file)
            if (pick(4) == 0)
                input.resize(at);
            break;
        default: // replace a run with a token
            if (!input.empty())
                input.replace(std::min(at, input.size() - 1), 1 + pick(6), token());
            break;
        }
    }
    if (input.size() > maxBytes)
        input.resize(maxBytes);
    return input;
}

void usage(std::string_view name)
{
    std::cerr << "usage: " << name << " CORPUS...  (replay)\n"
              << "       " << name
              << " --mutate SECONDS [--seed N] [--save DIR] [--timeout SECONDS] CORPUS...\n";
}

} // namespace

Dictionary join(const Dictionary &a, const Dictionary &b)
{
    Dictionary out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

int runFuzzDriver(int argc, char **argv, const Target &target)
{
    double seconds = 0;
    double timeout = 10;
    uint64_t seed = 1;
    std::filesystem::path saveDir;
    std::vector<std::filesystem::path> roots;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == "--mutate" && i + 1 < argc)
                seconds = std::stod(argv[++i]);
            else if (arg == "--seed" && i + 1 < argc)
                seed = std::stoull(argv[++i]);
            else if (arg == "--save" && i + 1 < argc)
                saveDir = argv[++i];
            else if (arg == "--timeout" && i + 1 < argc)
                timeout = std::stod(argv[++i]);
            else if (arg.starts_with("--")) {
                usage(target.name);
                return 2;
            } else
                roots.emplace_back(arg);
        }
    } catch (const std::exception &) {
        usage(target.name);
        return 2;
    }
    const std::string currentFile = std::string(target.name) + "_current.txt";
    Watchdog watchdog(timeout);
    const auto runOne = [&](const std::string &data, const std::string &what) {
        watchdog.started(&what);
        target.testOne(reinterpret_cast<const uint8_t *>(data.data()), data.size());
        return watchdog.finished();
    };

    std::vector<std::string> inputs;
    for (const std::filesystem::path &root : roots) {
        if (!std::filesystem::exists(root)) {
            std::cerr << root.string() << ": no such file or folder\n";
            return 2;
        }
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(root)) {
            for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            }
        } else {
            files.push_back(root);
        }
        std::sort(files.begin(), files.end());
        for (const auto &file : files) {
            inputs.push_back(readFile(file));
            const std::string path = file.string();
            runOne(inputs.back(), path);
        }
    }
    std::cout << target.name << ": replayed " << inputs.size() << " inputs\n";
    if (seconds <= 0)
        return 0;
    if (inputs.empty()) {
        std::cerr << "--mutate needs at least one input to start from\n";
        return 2;
    }

    std::mt19937_64 rng(seed);
    const auto started = Clock::now();
    const auto deadline = started + std::chrono::duration<double>(seconds);
    size_t executions = 0;
    size_t saved = 0;
    int64_t slowestMs = 0;
    std::vector<std::string> pool = inputs;
    while (Clock::now() < deadline) {
        for (int batch = 0; batch < 64; ++batch) {
            const std::string &base = pool[rng() % pool.size()];
            const std::string &other = pool[rng() % pool.size()];
            std::string mutant = mutate(base, other, target.dictionary, target.maxInputBytes, rng);
            {
                std::ofstream current(currentFile, std::ios::binary | std::ios::trunc);
                current << mutant;
            }
            slowestMs = std::max(slowestMs, runOne(mutant, currentFile));
            ++executions;
            // Keep some mutants as bases so that edits accumulate, with a bounded pool.
            if (rng() % 16 == 0) {
                if (pool.size() < 4096)
                    pool.push_back(mutant);
                else
                    pool[inputs.size() + rng() % (pool.size() - inputs.size())] = mutant;
                if (!saveDir.empty() && saved < 200 && rng() % 64 == 0) {
                    std::filesystem::create_directories(saveDir);
                    std::ofstream(saveDir / ("mutant_" + std::to_string(saved++)), std::ios::binary)
                        << mutant;
                }
            }
        }
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    std::cout << target.name << ": mutated " << executions << " inputs in " << elapsed << " s ("
              << static_cast<long long>(double(executions) / elapsed) << "/s, seed " << seed
              << ", slowest input " << slowestMs << " ms), no crash, hang or sanitizer report\n";
    return 0;
}

const Dictionary &httpTokens()
{
    static const Dictionary tokens = { "GET ", "HEAD ", "POST ", "PUT ", "PATCH ", "DELETE ",
        "OPTIONS ", "CONNECT ", "G\tET ", " HTTP/1.1", " HTTP/1.0", " HTTP/2.0", " HTTP/1.1\r\n",
        "\r\n", "\r\n\r\n", "\n", "\r", " ", "\t", ":", ": ", ",", ";", "/", "?", "&", "=", "#",
        "%", "%2F", "%2e%2e", "%00", "%zz", "+", "..", "/../", "/api/v1/namespaces",
        "/apis/resource.k8s.io/v1/resourceslices", "/ui/", "/ws", "?watch=true",
        "&resourceVersion=0", "?limit=500&continue=", "Host: ", "host:localhost\r\n",
        "Content-Length: ", "content-length:0\r\n", "Content-Length: 5, 5\r\n",
        "Content-Length: +5\r\n", "Content-Length: 99999999999999999999\r\n",
        "Transfer-Encoding: ", "Transfer-Encoding: chunked\r\n",
        "Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: chunked, identity\r\n",
        "chunked", "Connection: ", "Connection: close\r\n", "Connection: keep-alive, Upgrade\r\n",
        "Upgrade: websocket\r\n", "upgrade", "websocket", "Origin: ", "Origin: null\r\n",
        "Origin: http://localhost:8080\r\n", "Origin: https://[::1]:443\r\n",
        "Origin: http://user@evil.example\r\n", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        "Sec-WebSocket-Version: 13\r\n",
        "Sec-WebSocket-Protocol: ", "base64url.bearer.authorization.k8s.io.",
        "base64url.bearer.authorization.k8s.io.dG9rZW4", "base64url.bearer.authorization.k8s.io.!!",
        "v4.channel.k8s.io", "Authorization: Bearer ",
        "Accept: application/json;as=Table;g=meta.k8s.io;v=v1\r\n", "0\r\n\r\n", "5\r\nhello\r\n",
        "ffffffffffffffff\r\n", "7fffffffffffffff\r\n", "-1\r\n", "a;ext=1\r\n", "0x10\r\n",
        "X-Trailer: 1\r\n", "\x7f", "\x80", "\xff", std::string_view("\0", 1) };
    return tokens;
}

const Dictionary &jsonTokens()
{
    static const Dictionary tokens = { "{", "}", "[", "]", ":", ",", "\"", "\"\"", "\\", "\\\"",
        "\\u0000", "\\ud800", "\\udc00\\ud800", "\\n", "\\/", "null", "true", "false", "0", "-0",
        "1", "-1", "1.5", "1e308", "1e309", "-1e-400", "9223372036854775807", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "0.1e+1", "01", "NaN", "\"type\"",
        "\"object\"", "\"ADDED\"", "\"MODIFIED\"", "\"DELETED\"", "\"BOOKMARK\"", "\"ERROR\"",
        "\"apiVersion\"", "\"kind\"", "\"metadata\"", "\"name\"", "\"namespace\"",
        "\"resourceVersion\"", "\"items\"", "\"spec\"", "\"status\"", "\"List\"",
        "\"resource.k8s.io/v1\"", "\"ResourceSlice\"", "\"ResourceClaim\"", "\"devices\"",
        "\"attributes\"", "\"capacity\"", "\"labels\"", "{\"a\":", "[[[[[[[[", "]]]]]]]]",
        "{\"type\":\"ADDED\",\"object\":{}}", "\n", " ", "\t", "\r\n", "\xef\xbb\xbf", "\xc3\xa9",
        "\xf0\x9f\x98\x80", "\xff", "\xc0\xaf" };
    return tokens;
}

const Dictionary &yamlTokens()
{
    static const Dictionary tokens = { "\n", "\n  ", "\n    ", "  ", "\t", "---\n", "...\n",
        "--- |\n", "- ", "\n- ", ": ", ":", "? ", ", ", "{", "}", "[", "]", "#", " # c", "|", "|-",
        ">", ">+", "|2", "&a ", "*a", "<<: *a", "!!str ", "!!int ", "!!map", "!!binary ",
        "!custom ", "%YAML 1.2\n", "%TAG ! tag:x,2000:\n", "'", "''", "\"", "\\x41", "\\u00e9",
        "\\", "~", "null", "Null", "NULL", "true", "yes", "no", "on", "off", "y", "n", "0x1F",
        "0o17", "0755", "0b101", "1_000", "1e3", "1.10", ".inf", "-.Inf", ".nan", "1:30",
        "2024-01-01", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1Gi",
        "500m", "apiVersion: ", "kind: ", "metadata:", "name: ", "namespace: ", "labels:",
        "annotations:", "spec:", "items:", "apiVersion: v1\n", "kind: List\n",
        "apiVersion: resource.k8s.io/v1\n", "kind: ResourceSlice\n", "kind: ResourceClaim\n",
        "kind: DeviceClass\n", "devices:", "attributes:", "capacity:", "version:", "string:",
        "int:", "bool:", "value:", "selectors:", "cel:", "expression: ", "\xef\xbb\xbf", "\xc3\xa9",
        "\xff", "\r\n", std::string_view("\0", 1) };
    return tokens;
}

} // namespace dra::fuzz
