// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/yaml_comments.h"

#include <algorithm>
#include <map>
#include <vector>

namespace dra::model {

// Named, not anonymous: the unity build shares one scope with the other model files.
namespace comment_scan {

constexpr auto npos = std::string_view::npos;

struct ScannedLine
{
    enum class Kind { Carried, Content, Text };
    Kind kind = Kind::Carried; // Carried: blank or comment; Text: inside a block scalar
    std::string_view text; // without its newline
    size_t indent = 0;
    std::string path; // Content: the key path of the line
    size_t comment = npos; // Content: where a trailing comment starts (the spaces before '#')
};

size_t indentOf(std::string_view line)
{
    const size_t first = line.find_first_not_of(' ');
    return first == npos ? line.size() : first;
}

// The end of a quoted scalar starting at `at` (just past the closing quote), or npos.
size_t quotedEnd(std::string_view line, size_t at)
{
    const char quote = line[at];
    for (size_t i = at + 1; i < line.size(); ++i) {
        if (quote == '"' && line[i] == '\\') {
            ++i;
        } else if (line[i] == quote) {
            if (quote == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
                ++i; // '' is a quote inside single quotes
                continue;
            }
            return i + 1;
        }
    }
    return npos;
}

// Where the comment of a value starting at `at` begins (the whitespace before '#'), or npos. A
// '#' counts only after whitespace and outside a quoted scalar, as YAML reads it.
size_t commentStart(std::string_view line, size_t at)
{
    size_t from = at;
    if (at < line.size() && (line[at] == '"' || line[at] == '\'')) {
        from = quotedEnd(line, at);
        if (from == npos)
            return npos;
    }
    for (size_t i = std::max<size_t>(from, 1); i < line.size(); ++i) {
        if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
            size_t start = i;
            while (start > from && (line[start - 1] == ' ' || line[start - 1] == '\t'))
                --start;
            return start;
        }
    }
    return npos;
}

// The key at `at` ("name" of "name: x", quotes removed) and where its value starts; false when
// the text there is not a key.
bool readKey(std::string_view line, size_t at, std::string *key, size_t *value)
{
    size_t colon;
    if (line[at] == '"' || line[at] == '\'') {
        const size_t end = quotedEnd(line, at);
        if (end == npos || end >= line.size() || line[end] != ':')
            return false;
        *key = std::string(line.substr(at + 1, end - at - 2));
        colon = end;
    } else {
        colon = at;
        while (true) {
            colon = line.find(':', colon);
            if (colon == npos)
                return false;
            if (colon + 1 == line.size() || line[colon + 1] == ' ')
                break;
            ++colon;
        }
        const size_t hash = line.find(" #", at);
        if (hash != npos && hash < colon)
            return false; // the colon is inside a comment
        *key = std::string(line.substr(at, colon - at));
    }
    *value = line.find_first_not_of(' ', colon + 1);
    if (*value == npos)
        *value = line.size();
    return true;
}

// A block scalar header (`|`, `>-`, `|2+`...) at `at`, maybe with a comment after it.
bool blockScalarAt(std::string_view line, size_t at)
{
    if (at >= line.size() || (line[at] != '|' && line[at] != '>'))
        return false;
    size_t i = at + 1;
    while (
        i < line.size() && (line[i] == '-' || line[i] == '+' || (line[i] >= '0' && line[i] <= '9')))
        ++i;
    while (i < line.size() && line[i] == ' ')
        ++i;
    return i == line.size() || line[i] == '#';
}

// Splits `text` into lines and finds each line's kind and key path.
std::vector<ScannedLine> scan(std::string_view text)
{
    struct Level
    {
        size_t column;
        std::string segment;
        bool item;
        int items = 0; // list items seen under this level
    };
    std::vector<Level> levels;
    std::vector<ScannedLine> lines;
    size_t blockOwner = npos; // the column of the key or dash that opened a block scalar
    int documents = 0;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == npos)
            end = text.size();
        ScannedLine line;
        line.text = text.substr(start, end - start);
        start = end + 1;
        line.indent = indentOf(line.text);
        const bool blank = line.indent == line.text.size();
        if (blockOwner != npos) {
            if (blank || line.indent > blockOwner) {
                line.kind = ScannedLine::Kind::Text;
                lines.push_back(line);
                continue;
            }
            blockOwner = npos;
            // Blank lines at the end of a block scalar are not its text (it keeps one newline),
            // but the author's spacing.
            for (auto last = lines.rbegin(); last != lines.rend()
                 && last->kind == ScannedLine::Kind::Text && last->indent == last->text.size();
                 ++last)
                last->kind = ScannedLine::Kind::Carried;
        }
        if (blank || line.text[line.indent] == '#') {
            lines.push_back(line);
            continue;
        }
        line.kind = ScannedLine::Kind::Content;
        const std::string_view rest = line.text.substr(line.indent);
        if (rest.starts_with("---") || rest.starts_with("...")) {
            levels.clear();
            line.path = "---" + std::to_string(++documents);
            lines.push_back(line);
            continue;
        }
        // Dashes: list items, each inside the one before ("- - a").
        size_t at = line.indent;
        size_t owner = at;
        while (at < line.text.size() && line.text[at] == '-'
            && (at + 1 == line.text.size() || line.text[at + 1] == ' ')) {
            while (!levels.empty()
                && (levels.back().column > at
                    || (levels.back().column == at && levels.back().item)))
                levels.pop_back();
            const int index = levels.empty() ? 0 : levels.back().items++;
            levels.push_back({ at, "[" + std::to_string(index) + "]", true });
            owner = at;
            at = line.text.find_first_not_of(' ', at + 1);
            if (at == npos)
                at = line.text.size();
        }
        std::string key;
        size_t value = at;
        if (at < line.text.size() && readKey(line.text, at, &key, &value)) {
            // Whatever began at this column or deeper has ended, lists written flush with
            // their key included.
            while (!levels.empty() && levels.back().column >= at)
                levels.pop_back();
            levels.push_back({ at, key, false });
            owner = at;
        }
        for (const Level &level : levels)
            line.path += (line.path.empty() ? "" : "/") + level.segment;
        if (blockScalarAt(line.text, value))
            blockOwner = owner;
        line.comment = commentStart(line.text, value);
        lines.push_back(line);
    }
    return lines;
}

// A carried line at `indent`: comments move with the line they belong to, blank lines stay empty.
std::string reindented(std::string_view line, size_t indent)
{
    const size_t first = line.find_first_not_of(" \t");
    if (first == npos)
        return {};
    return std::string(indent, ' ') + std::string(line.substr(first));
}

} // namespace comment_scan

std::string carryComments(std::string_view before, std::string_view after)
{
    using namespace comment_scan;
    std::map<std::string, std::vector<std::string_view>> leading;
    std::map<std::string, std::string_view> trailing;
    std::vector<std::string_view> pending;
    for (const ScannedLine &line : scan(before)) {
        if (line.kind == ScannedLine::Kind::Carried) {
            pending.push_back(line.text);
        } else if (line.kind == ScannedLine::Kind::Content) {
            if (!pending.empty()) {
                std::vector<std::string_view> &lines = leading[line.path];
                lines.insert(lines.end(), pending.begin(), pending.end());
                pending.clear();
            }
            if (line.comment != npos)
                trailing[line.path] = line.text.substr(line.comment);
        }
    }
    if (leading.empty() && trailing.empty() && pending.empty())
        return std::string(after);

    std::string out;
    out.reserve(after.size() + before.size() / 4);
    for (const ScannedLine &line : scan(after)) {
        if (line.kind == ScannedLine::Kind::Content) {
            if (const auto it = leading.find(line.path); it != leading.end()) {
                for (std::string_view carried : it->second)
                    out += reindented(carried, line.indent) + '\n';
                leading.erase(it);
            }
            out += line.text;
            if (const auto it = trailing.find(line.path);
                it != trailing.end() && line.comment == npos) {
                out += it->second;
                trailing.erase(it);
            }
        } else {
            out += line.text;
        }
        out += '\n';
    }
    for (std::string_view carried : pending)
        out += std::string(carried) + '\n';
    return out;
}

} // namespace dra::model
