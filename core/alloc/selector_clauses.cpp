// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/selector_clauses.h"

namespace dra::alloc {

namespace {

std::string trimmed(std::string_view text)
{
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return std::string(text);
}

// Strips parentheses that enclose the whole clause, so "(a && b)" can be split further.
std::string_view unwrap(std::string_view text)
{
    std::string t = trimmed(text);
    size_t start = text.find(t);
    text = text.substr(start, t.size());
    while (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
        int depth = 0;
        bool encloses = true;
        char quote = 0;
        for (size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (quote) {
                if (c == '\\')
                    ++i;
                else if (c == quote)
                    quote = 0;
                continue;
            }
            if (c == '"' || c == '\'')
                quote = c;
            else if (c == '(')
                ++depth;
            else if (c == ')' && --depth == 0 && i + 1 < text.size()) {
                encloses = false;
                break;
            }
        }
        if (!encloses)
            break;
        text = text.substr(1, text.size() - 2);
        t = trimmed(text);
        text = text.substr(text.find(t), t.size());
    }
    return text;
}

} // namespace

std::vector<std::string> splitClauses(std::string_view expression)
{
    const std::string_view text = unwrap(expression);
    std::vector<std::string> out;
    std::vector<size_t> ands;
    bool lowerPrecedence = false; // a top-level || or ?: binds looser than &&: no clauses then
    int depth = 0;
    char quote = 0;
    bool triple = false;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote) {
            if (!triple && c == '\\') {
                ++i;
            } else if (c == quote) {
                if (!triple)
                    quote = 0;
                else if (i + 2 < text.size() && text[i + 1] == quote && text[i + 2] == quote) {
                    quote = 0;
                    i += 2;
                }
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            triple = i + 2 < text.size() && text[i + 1] == c && text[i + 2] == c;
            if (triple)
                i += 2;
            continue;
        }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n')
                ++i;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}')
            --depth;
        else if (depth == 0 && c == '&' && i + 1 < text.size() && text[i + 1] == '&') {
            ands.push_back(i);
            ++i;
        } else if (depth == 0
            && ((c == '|' && i + 1 < text.size() && text[i + 1] == '|') || c == '?')) {
            lowerPrecedence = true;
        }
    }
    if (lowerPrecedence)
        ands.clear();
    for (const size_t at : ands) {
        out.push_back(trimmed(text.substr(start, at - start)));
        start = at + 2;
    }
    out.push_back(trimmed(text.substr(start)));
    // A clause that is itself a parenthesised conjunction is split too.
    std::vector<std::string> flat;
    for (const std::string &clause : out) {
        const std::string_view inner = unwrap(clause);
        if (inner.size() != clause.size() && inner.find("&&") != std::string_view::npos) {
            for (std::string &part : splitClauses(inner))
                flat.push_back(std::move(part));
        } else {
            flat.push_back(clause);
        }
    }
    return flat;
}

} // namespace dra::alloc
