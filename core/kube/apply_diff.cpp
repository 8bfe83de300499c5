// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/apply_diff.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/yaml_codec.h"

namespace dra::kube {
namespace {

using nlohmann::json;

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// One line of the edit script: ' ' kept, '-' removed from `before`, '+' added from `after`.
struct Edit
{
    char op;
    std::string_view line;
    int beforeLine, afterLine; // 0-based positions before this edit
};

// The edit script from a longest-common-subsequence table. Manifests are a few hundred lines,
// so the quadratic table is small; beyond a bound the texts are shown as replaced wholesale
// rather than stalling the caller.
std::vector<Edit> editScript(
    const std::vector<std::string_view> &a, const std::vector<std::string_view> &b)
{
    std::vector<Edit> edits;
    const size_t n = a.size(), m = b.size();
    constexpr size_t kMaxCells = 16u * 1024 * 1024;
    if (n * m > kMaxCells) {
        for (size_t i = 0; i < n; ++i)
            edits.push_back({ '-', a[i], int(i), 0 });
        for (size_t j = 0; j < m; ++j)
            edits.push_back({ '+', b[j], int(n), int(j) });
        return edits;
    }
    // lcs[i][j]: length of the LCS of a[i..] and b[j..].
    std::vector<int> lcs((n + 1) * (m + 1), 0);
    const auto at = [&](size_t i, size_t j) -> int & { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            edits.push_back({ ' ', a[i], int(i), int(j) });
            ++i, ++j;
        } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
            // Removals before additions, as diff(1) prints a changed line.
            edits.push_back({ '-', a[i], int(i), int(j) });
            ++i;
        } else {
            edits.push_back({ '+', b[j], int(i), int(j) });
            ++j;
        }
    }
    return edits;
}

void dropVolatileMetadata(json &object)
{
    if (!object.is_object())
        return;
    const auto meta = object.find("metadata");
    if (meta == object.end() || !meta->is_object())
        return;
    for (const char *field : { "managedFields", "resourceVersion", "generation", "uid",
             "creationTimestamp", "selfLink" })
        meta->erase(field);
}

} // namespace

json comparableObject(const json &object)
{
    json copy = object;
    dropVolatileMetadata(copy);
    return copy;
}

std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view from,
    std::string_view to, int context)
{
    if (before == after)
        return {};
    const std::vector<std::string_view> a = splitLines(before), b = splitLines(after);
    const std::vector<Edit> edits = editScript(a, b);
    std::string out = "--- " + std::string(from) + "\n+++ " + std::string(to) + "\n";
    size_t k = 0;
    while (k < edits.size()) {
        // The next change, and the hunk around it: changes closer than 2*context lines merge.
        while (k < edits.size() && edits[k].op == ' ')
            ++k;
        if (k == edits.size())
            break;
        const size_t start = k >= size_t(context) ? k - size_t(context) : 0;
        size_t end = k;
        size_t lastChange = k;
        while (end < edits.size()) {
            if (edits[end].op != ' ')
                lastChange = end;
            else if (end - lastChange > size_t(2 * context))
                break;
            ++end;
        }
        end = std::min(edits.size(), lastChange + 1 + size_t(context));
        int beforeCount = 0, afterCount = 0;
        for (size_t e = start; e < end; ++e) {
            beforeCount += edits[e].op != '+';
            afterCount += edits[e].op != '-';
        }
        // Hunk lines are 1-based; an empty side is addressed by the line before it.
        const int beforeStart = edits[start].beforeLine + (beforeCount > 0 ? 1 : 0);
        const int afterStart = edits[start].afterLine + (afterCount > 0 ? 1 : 0);
        out += "@@ -" + std::to_string(beforeStart) + "," + std::to_string(beforeCount) + " +"
            + std::to_string(afterStart) + "," + std::to_string(afterCount) + " @@\n";
        for (size_t e = start; e < end; ++e) {
            out += edits[e].op;
            out += edits[e].line;
            out += '\n';
        }
        k = end;
    }
    return out;
}

std::string objectDiff(const json &live, const json &desired, std::string_view label)
{
    const std::string before
        = live.is_null() ? std::string() : model::jsonToYaml(comparableObject(live));
    const std::string after
        = desired.is_null() ? std::string() : model::jsonToYaml(comparableObject(desired));
    return unifiedDiff(before, after,
        live.is_null() ? std::string("/dev/null") : "live/" + std::string(label),
        "dry-run/" + std::string(label));
}

} // namespace dra::kube
