// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/yaml_codec.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "core/common/json_text.h"
#include "core/common/utf8.h"
#include "core/model/schema.h"

namespace dra::model {

namespace {

using json = nlohmann::json;
using Type = SchemaNode::Type;

// Bounds that keep a hostile document (deep nesting, alias "billion laughs") from exhausting
// the stack or memory. Without aliases every value takes at least one byte of text, so a
// document may expand to at most kMaxExpansion values per byte (plus some slack).
constexpr int kMaxDepth = 256;
constexpr std::size_t kMaxExpansion = 16;
constexpr std::size_t kExpansionSlack = 10'000;

// ---- Plain scalar resolution, as Kubernetes' YAML decoder (go-yaml v2, YAML 1.1) does it ----

enum class Plain { String, Null, Bool, Int, Float, BigInt, NonFinite };

struct Resolved
{
    Plain kind = Plain::String;
    bool boolean = false;
    std::int64_t integer = 0;
    double real = 0;
};

bool oneOf(std::string_view text, std::initializer_list<std::string_view> words)
{
    for (std::string_view word : words) {
        if (text == word)
            return true;
    }
    return false;
}

bool isDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

// Go's strconv.ParseInt(text, 0, 64) syntax: sign, then 0x / 0o / 0b / leading-0 octal / decimal.
enum class IntSyntax { Invalid, Ok, Overflow };

IntSyntax parseGoInt(std::string_view text, std::int64_t &out)
{
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 1 && text[0] == '0') {
        const char p = text[1];
        if (p == 'x' || p == 'X')
            base = 16, text.remove_prefix(2);
        else if (p == 'o' || p == 'O')
            base = 8, text.remove_prefix(2);
        else if (p == 'b' || p == 'B')
            base = 2, text.remove_prefix(2);
        else
            base = 8, text.remove_prefix(1);
    }
    if (text.empty() || text[0] == '+' || text[0] == '-')
        return IntSyntax::Invalid;
    std::uint64_t magnitude = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
    if (end != text.data() + text.size())
        return IntSyntax::Invalid;
    constexpr auto maxPositive = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    if (ec == std::errc::result_out_of_range || magnitude > maxPositive + (negative ? 1 : 0))
        return IntSyntax::Overflow;
    out = negative ? std::int64_t(0 - magnitude) : std::int64_t(magnitude);
    return IntSyntax::Ok;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, go-yaml's float pattern.
bool isYamlFloat(std::string_view text)
{
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        return i - start;
    };
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    if (i < text.size() && text[i] == '.') {
        ++i;
        if (digits() == 0)
            return false;
    } else {
        if (digits() == 0)
            return false;
        if (i < text.size() && text[i] == '.') {
            ++i;
            digits();
        }
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (digits() == 0)
            return false;
    }
    return i == text.size();
}

Resolved resolvePlain(std::string_view text)
{
    Resolved r;
    if (oneOf(text, { "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON" })) {
        r.kind = Plain::Bool;
        r.boolean = true;
        return r;
    }
    if (oneOf(
            text, { "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF" })) {
        r.kind = Plain::Bool;
        return r;
    }
    if (oneOf(text, { "", "~", "null", "Null", "NULL" })) {
        r.kind = Plain::Null;
        return r;
    }
    if (oneOf(text,
            { ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
                "-.Inf", "-.INF" })) {
        r.kind = Plain::NonFinite;
        return r;
    }
    if (std::string_view("+-.0123456789").find(text[0]) == std::string_view::npos)
        return r;
    std::string plain(text);
    std::erase(plain, '_');
    switch (parseGoInt(plain, r.integer)) {
    case IntSyntax::Ok:
        r.kind = Plain::Int;
        return r;
    case IntSyntax::Overflow:
        r.kind = Plain::BigInt;
        return r;
    case IntSyntax::Invalid:
        break;
    }
    if (isYamlFloat(plain)) {
        std::string_view digits = plain;
        if (digits[0] == '+')
            digits.remove_prefix(1);
        const auto [end, ec]
            = std::from_chars(digits.data(), digits.data() + digits.size(), r.real);
        // Go's ParseFloat fails on overflow and go-yaml then keeps the text; so do we.
        if (ec == std::errc() && end == digits.data() + digits.size())
            r.kind = Plain::Float;
    }
    return r;
}

// ---- Splitting a stream into documents ----

struct Chunk
{
    std::string_view text;
    int firstLine = 0; // 0-based line of text[0] in the stream
    bool hasContent = false;
};

// The error for a chunk that is not UTF-8, at its first offending byte.
std::optional<YamlError> utf8Error(const Chunk &chunk)
{
    const std::optional<common::Utf8Break> at = common::firstUtf8Break(chunk.text);
    if (!at)
        return std::nullopt;
    return YamlError { chunk.firstLine + at->line, at->column,
        QStringLiteral("invalid UTF-8 (byte 0x%1): YAML text must be UTF-8")
            .arg(at->byte, 2, 16, QLatin1Char('0')) };
}

bool isMarkerLine(std::string_view line, std::string_view marker)
{
    return line.starts_with(marker)
        && (line.size() == marker.size() || line[marker.size()] == ' '
            || line[marker.size()] == '\t' || line[marker.size()] == '\r');
}

// True for lines that carry no value: blank, comment, directive or a bare document marker.
bool isContentLine(std::string_view line)
{
    std::size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string_view::npos || line[i] == '#' || line[0] == '%')
        return false;
    for (std::string_view marker : { std::string_view("---"), std::string_view("...") }) {
        if (isMarkerLine(line, marker)) {
            i = line.find_first_not_of(" \t\r", 3);
            return i != std::string_view::npos && line[i] != '#';
        }
    }
    return true;
}

// A line `---` or `...` at column 0 always ends a document in YAML, even inside block
// scalars, so cutting there is exact and lets one broken document leave the others intact.
std::vector<Chunk> splitDocuments(std::string_view text)
{
    std::vector<Chunk> chunks;
    std::size_t chunkStart = 0;
    int chunkLine = 0;
    bool content = false;
    bool explicitStart = false;
    std::size_t pos = 0;
    int lineNo = 0;
    const auto close = [&](std::size_t end, std::size_t nextStart, int nextLine) {
        chunks.push_back({ text.substr(chunkStart, end - chunkStart), chunkLine, content });
        chunkStart = nextStart;
        chunkLine = nextLine;
        content = false;
        explicitStart = false;
    };
    while (pos < text.size()) {
        const std::size_t eol = std::min(text.find('\n', pos), text.size());
        const std::size_t next = std::min(eol + 1, text.size());
        const std::string_view line = text.substr(pos, eol - pos); // without the newline
        if (isMarkerLine(line, "---")) {
            // Directives and comments before the first `---` belong to that document.
            if (content || explicitStart)
                close(pos, pos, lineNo);
            explicitStart = true;
        } else if (isMarkerLine(line, "...")) {
            close(next, next, lineNo + 1);
            pos = next;
            ++lineNo;
            continue;
        }
        content = content || isContentLine(line);
        pos = next;
        ++lineNo;
    }
    if (chunkStart < text.size())
        close(text.size(), text.size(), lineNo);
    return chunks;
}

// ---- YAML node tree to JSON ----

// Templated on the JSON type: nlohmann::json for the model, ordered_json for editors that
// write a document back in the order its author wrote it.
template <typename Json> class BasicConverter
{
public:
    BasicConverter(int lineOffset, std::size_t textSize)
        : m_lineOffset(lineOffset)
        , m_maxValues(textSize * kMaxExpansion + kExpansionSlack)
    {
    }

    std::expected<Json, YamlError> convert(
        const YAML::Node &node, const SchemaNode *schema, int depth = 0)
    {
        if (depth > kMaxDepth)
            return error(node, QStringLiteral("nesting deeper than %1 levels").arg(kMaxDepth));
        if (++m_values > m_maxValues)
            return error(node,
                QStringLiteral("aliases expand the document to more than %1 values "
                               "(an alias bomb?)")
                    .arg(m_maxValues));
        switch (node.Type()) {
        case YAML::NodeType::Undefined:
        case YAML::NodeType::Null:
            return Json(nullptr);
        case YAML::NodeType::Scalar:
            // The text was UTF-8, but yaml-cpp decodes some escapes to single bytes (\N, \_).
            if (common::invalidUtf8At(node.Scalar()) != std::string_view::npos)
                return error(node, QStringLiteral("a string that is not valid UTF-8"));
            return scalar(node, schema);
        case YAML::NodeType::Sequence: {
            const SchemaNode *items
                = schema && schema->type == Type::Array ? schema->items : nullptr;
            Json array = Json::array();
            for (const YAML::Node &element : node) {
                auto value = convert(element, items, depth + 1);
                if (!value)
                    return value;
                array.push_back(std::move(*value));
            }
            return array;
        }
        case YAML::NodeType::Map:
            return mapping(node, schema, depth);
        }
        return Json(nullptr);
    }

    std::unexpected<YamlError> error(const YAML::Node &node, QString reason) const
    {
        const YAML::Mark mark = node.Mark();
        return std::unexpected(YamlError { std::max(mark.line, 0) + m_lineOffset + 1,
            std::max(mark.column, 0) + 1, std::move(reason) });
    }

private:
    static const SchemaNode *child(const SchemaNode *schema, std::string_view key)
    {
        if (!schema)
            return nullptr;
        if (schema->type == Type::Map)
            return schema->values;
        return schema->type == Type::Object ? schema->property(key) : nullptr;
    }

    std::expected<Json, YamlError> mapping(
        const YAML::Node &node, const SchemaNode *schema, int depth)
    {
        Json object = Json::object();
        std::vector<YAML::Node> merges;
        // Entries by value: yaml-cpp's iterator-> hands out a temporary proxy.
        for (const auto &entry : node) {
            const YAML::Node &key = entry.first;
            if (!key.IsScalar())
                return error(key,
                    QStringLiteral("mapping keys must be strings, not null, lists "
                                   "or mappings"));
            const std::string &name = key.Scalar();
            if (common::invalidUtf8At(name) != std::string_view::npos)
                return error(key, QStringLiteral("a key that is not valid UTF-8"));
            if (name == "<<" && key.Tag() == "?") {
                merges.push_back(entry.second);
                continue;
            }
            if (object.contains(name))
                return error(key, QStringLiteral("duplicate key \"%1\"").arg(common::qs(name)));
            auto value = convert(entry.second, child(schema, name), depth + 1);
            if (!value)
                return value;
            object[name] = std::move(*value);
        }
        // `<<` merges: keys written here win, then earlier merged mappings win over later ones.
        for (const YAML::Node &merge : merges) {
            std::vector<YAML::Node> sources;
            if (merge.IsMap())
                sources.push_back(merge);
            else if (merge.IsSequence()) {
                for (const YAML::Node &element : merge)
                    sources.push_back(element);
            }
            for (const YAML::Node &source : sources) {
                if (!source.IsMap())
                    return error(merge,
                        QStringLiteral("a merge key << needs a mapping or a list "
                                       "of mappings"));
                auto merged = mapping(source, schema, depth + 1);
                if (!merged)
                    return merged;
                for (auto &[key, value] : merged->items()) {
                    if (!object.contains(key))
                        object[key] = std::move(value);
                }
            }
            if (sources.empty())
                return error(merge,
                    QStringLiteral("a merge key << needs a mapping or a list of "
                                   "mappings"));
        }
        return object;
    }

    std::expected<Json, YamlError> scalar(const YAML::Node &node, const SchemaNode *schema)
    {
        const std::string &text = node.Scalar();
        const std::string &tag = node.Tag();
        // "!" marks quoted and block scalars: always strings, as is an explicit !!str.
        if (tag == "!" || tag == "tag:yaml.org,2002:str")
            return Json(text);
        if (schema && schema->keepsScalarText())
            return Json(text);
        const Resolved r = resolvePlain(text);
        if (schema && schema->type == Type::IntOrString)
            return r.kind == Plain::Int ? Json(r.integer) : Json(text);
        switch (r.kind) {
        case Plain::String:
            return Json(text);
        case Plain::Null:
            return Json(nullptr);
        case Plain::Bool:
            return Json(r.boolean);
        case Plain::Int:
            return Json(r.integer);
        case Plain::Float:
            return Json(r.real);
        case Plain::BigInt:
            return error(node,
                QStringLiteral("integer %1 does not fit in 64 bits; quote it if it "
                               "is meant as text")
                    .arg(common::qs(text)));
        case Plain::NonFinite:
            return error(node,
                QStringLiteral("%1 cannot be represented in JSON; quote it if it is "
                               "meant as text")
                    .arg(common::qs(text)));
        }
        return Json(text);
    }

    int m_lineOffset = 0;
    std::size_t m_maxValues = 0;
    std::size_t m_values = 0;
};

using Converter = BasicConverter<json>;

// A scalar field of a mapping, read without yaml-cpp's operator[] (which inserts on non-const).
std::string scalarField(const YAML::Node &map, std::string_view key)
{
    if (!map.IsMap())
        return {};
    for (const auto &entry : map) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key)
            return entry.second.IsScalar() ? entry.second.Scalar() : std::string();
    }
    return {};
}

YAML::Node itemsOf(const YAML::Node &map)
{
    for (const auto &entry : map) {
        if (entry.first.IsScalar() && entry.first.Scalar() == "items" && entry.second.IsSequence())
            return entry.second;
    }
    return {};
}

// Parses and converts one document. `useOwnKind` types it by its apiVersion/kind; otherwise
// `schema` is used as given.
std::expected<YamlDocument, YamlError> parseChunk(
    const Chunk &chunk, bool useOwnKind, const SchemaNode *schema)
{
    if (auto error = utf8Error(chunk))
        return std::unexpected(std::move(*error));
    YAML::Node root;
    try {
        root = YAML::Load(std::string(chunk.text));
    } catch (const YAML::Exception &e) {
        return std::unexpected(YamlError { std::max(e.mark.line, 0) + chunk.firstLine + 1,
            std::max(e.mark.column, 0) + 1, common::qs(e.msg) });
    }
    Converter converter(chunk.firstLine, chunk.text.size());
    YamlDocument document;
    document.line
        = root.Mark().line >= 0 ? root.Mark().line + chunk.firstLine + 1 : chunk.firstLine + 1;
    try {
        const std::string apiVersion = scalarField(root, "apiVersion");
        const std::string kind = scalarField(root, "kind");
        if (useOwnKind)
            schema = schemaFor(apiVersion, kind);
        auto value = converter.convert(root, schema);
        if (!value)
            return std::unexpected(value.error());
        document.value = std::move(*value);

        const YAML::Node items = root.IsMap() ? itemsOf(root) : YAML::Node();
        const bool genericList = useOwnKind && !schema && kind.ends_with("List");
        for (std::size_t i = 0; items && i < items.size(); ++i) {
            const YAML::Node item = items[i];
            document.itemLines.push_back(item.Mark().line + chunk.firstLine + 1);
            if (!genericList || !item.IsMap())
                continue;
            // Items of a List carry their own kind; a FooList's items default to Foo.
            std::string itemVersion = scalarField(item, "apiVersion");
            std::string itemKind = scalarField(item, "kind");
            if (itemVersion.empty())
                itemVersion = apiVersion;
            if (itemKind.empty())
                itemKind = kind.substr(0, kind.size() - 4);
            if (const SchemaNode *itemSchema = schemaFor(itemVersion, itemKind)) {
                auto typed = converter.convert(item, itemSchema, 2);
                if (!typed)
                    return std::unexpected(typed.error());
                document.value["items"][i] = std::move(*typed);
            }
        }
    } catch (const std::exception &e) {
        // yaml-cpp and nlohmann may throw on malformed input; nothing escapes.
        return std::unexpected(YamlError { document.line, 1, common::qs(e.what()) });
    }
    return document;
}

Result<json> parseSingle(
    std::string_view text, const QString &origin, bool useOwnKind, const SchemaNode *schema)
{
    std::vector<Chunk> chunks = splitDocuments(text);
    std::erase_if(chunks, [](const Chunk &c) { return !c.hasContent; });
    if (chunks.empty())
        return json(nullptr);
    if (chunks.size() > 1)
        return fail(common::Error::Code::Parse,
            YamlError { chunks[1].firstLine + 1, 1,
                QStringLiteral("expected one YAML document, found %1").arg(chunks.size()) }
                .message(origin));
    auto document = parseChunk(chunks.front(), useOwnKind, schema);
    if (!document)
        return fail(common::Error::Code::Parse, document.error().message(origin));
    return std::move(document->value);
}

// One document in its author's key order, typed by its own apiVersion/kind. No `List` expansion:
// editors of a single object are its only users.
Result<nlohmann::ordered_json> parseSingleOrdered(std::string_view text, const QString &origin)
{
    std::vector<Chunk> chunks = splitDocuments(text);
    std::erase_if(chunks, [](const Chunk &c) { return !c.hasContent; });
    if (chunks.empty())
        return nlohmann::ordered_json(nullptr);
    if (chunks.size() > 1)
        return fail(common::Error::Code::Parse,
            YamlError { chunks[1].firstLine + 1, 1,
                QStringLiteral("expected one YAML document, found %1").arg(chunks.size()) }
                .message(origin));
    const Chunk &chunk = chunks.front();
    if (auto error = utf8Error(chunk))
        return fail(common::Error::Code::Parse, error->message(origin));
    YAML::Node root;
    try {
        root = YAML::Load(std::string(chunk.text));
    } catch (const YAML::Exception &e) {
        return fail(common::Error::Code::Parse,
            YamlError { std::max(e.mark.line, 0) + chunk.firstLine + 1,
                std::max(e.mark.column, 0) + 1, common::qs(e.msg) }
                .message(origin));
    }
    try {
        BasicConverter<nlohmann::ordered_json> converter(chunk.firstLine, chunk.text.size());
        auto value = converter.convert(
            root, schemaFor(scalarField(root, "apiVersion"), scalarField(root, "kind")));
        if (!value)
            return fail(common::Error::Code::Parse, value.error().message(origin));
        return std::move(*value);
    } catch (const std::exception &e) {
        const int line = root.Mark().line >= 0 ? root.Mark().line + chunk.firstLine + 1 : 1;
        return fail(common::Error::Code::Parse,
            YamlError { line, 1, common::qs(e.what()) }.message(origin));
    }
}

// ---- JSON to YAML ----

bool looksLikeTimestamp(std::string_view s)
{
    return s.size() >= 8 && isDigits(s.substr(0, 4)) && s[4] == '-'
        && s.find_first_not_of("0123456789", 5) != 5;
}

// The code point starting at `at` when YAML cannot hold it raw in a scalar: C1 controls and
// NEL (a line break to YAML 1.1 readers), the line and paragraph separators, a byte order mark
// (dropped when a stream starts with it) and the non-characters U+FFFE/U+FFFF. Such a string is
// written double-quoted with the code point escaped. Returns 0 for anything else; `length` is
// the code point's size in bytes either way. The text is UTF-8 (checked when read).
char32_t escapedCodePointAt(std::string_view s, std::size_t at, std::size_t &length)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(at);
    length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (at + length > s.size()) {
        length = 1;
        return 0;
    }
    if (length == 2) {
        const char32_t cp = char32_t(lead & 0x1F) << 6 | (byte(at + 1) & 0x3F);
        return cp >= 0x80 && cp <= 0x9F ? cp : 0;
    }
    if (length == 3) {
        const char32_t cp = char32_t(lead & 0x0F) << 12 | char32_t(byte(at + 1) & 0x3F) << 6
            | (byte(at + 2) & 0x3F);
        return cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF ? cp
                                                                                            : 0;
    }
    return 0;
}

bool hasCodePointNeedingEscape(std::string_view s)
{
    std::size_t length = 1;
    for (std::size_t i = 0; i < s.size(); i += length) {
        if (escapedCodePointAt(s, i, length) != 0)
            return true;
    }
    return false;
}

// Whether a string must be quoted to read back as the same string (here and in kubectl).
bool needsQuotes(std::string_view s)
{
    if (s.empty() || resolvePlain(s).kind != Plain::String || s == "<<" || looksLikeTimestamp(s))
        return true;
    if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(s.front()) != std::string_view::npos)
        return true;
    if (s.front() == ' ' || s.back() == ' ' || s.front() == '\t' || s.back() == '\t'
        || s.back() == ':' || s.starts_with("...") || s.find(": ") != std::string_view::npos
        || s.find(" #") != std::string_view::npos || s.find(":\t") != std::string_view::npos)
        return true;
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f)
            return true;
    }
    return hasCodePointNeedingEscape(s);
}

std::string quoted(const std::string &s)
{
    // JSON string escapes are valid YAML double-quoted escapes; JSON leaves the code points
    // YAML cannot hold raw as they are, so those are escaped here.
    std::string out = json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    if (!hasCodePointNeedingEscape(out))
        return out;
    std::string escaped;
    escaped.reserve(out.size() + 16);
    std::size_t length = 1;
    for (std::size_t i = 0; i < out.size(); i += length) {
        if (const char32_t cp = escapedCodePointAt(out, i, length); cp != 0) {
            char code[16];
            std::snprintf(code, sizeof code, "\\u%04X", unsigned(cp));
            escaped += code;
        } else {
            escaped.append(out, i, length);
        }
    }
    return escaped;
}

// Multi-line text that a literal block scalar reproduces exactly.
bool fitsBlockLiteral(std::string_view s)
{
    if (s.find('\n') == std::string_view::npos)
        return false;
    bool seenContent = false;
    std::size_t start = 0;
    while (start <= s.size()) {
        std::size_t end = s.find('\n', start);
        if (end == std::string_view::npos)
            end = s.size();
        const std::string_view line = s.substr(start, end - start);
        if (!line.empty()) {
            if (!seenContent && (line.front() == ' ' || line.front() == '\t'))
                return false;
            if (line.back() == ' ' || line.back() == '\t')
                return false;
            seenContent = true;
        }
        for (unsigned char c : line) {
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return false;
        }
        start = end + 1;
    }
    return seenContent && !hasCodePointNeedingEscape(s);
}

template <typename Json> class BasicWriter
{
public:
    std::string out;

    void top(const Json &v)
    {
        if (v.is_object() && !v.empty())
            mapEntries(v, 0, false);
        else if (v.is_array() && !v.empty())
            seqItems(v, 0, false);
        else if (v.is_string() && fitsBlockLiteral(v.template get_ref<const std::string &>()))
            block(v.template get_ref<const std::string &>(), 2);
        else
            out += scalar(v) + '\n';
    }

private:
    void pad(int n) { out.append(std::size_t(n), ' '); }

    static std::string scalar(const Json &v)
    {
        if (v.is_string()) {
            const auto &s = v.template get_ref<const std::string &>();
            return needsQuotes(s) ? quoted(s) : s;
        }
        if (v.is_object())
            return "{}";
        if (v.is_array())
            return "[]";
        return v.dump();
    }

    void mapEntries(const Json &object, int indent, bool firstInline)
    {
        bool first = true;
        for (const auto &[key, value] : object.items()) {
            if (!first || !firstInline)
                pad(indent);
            first = false;
            out += needsQuotes(key) ? quoted(key) : key;
            out += ':';
            afterKey(value, indent);
        }
    }

    void afterKey(const Json &v, int indent)
    {
        if (v.is_object() && !v.empty()) {
            out += '\n';
            mapEntries(v, indent + 2, false);
        } else if (v.is_array() && !v.empty()) {
            out += '\n';
            seqItems(v, indent, false); // kubectl style: "- " level with the key
        } else if (v.is_string() && fitsBlockLiteral(v.template get_ref<const std::string &>())) {
            out += ' ';
            block(v.template get_ref<const std::string &>(), indent + 2);
        } else {
            out += ' ' + scalar(v) + '\n';
        }
    }

    void seqItems(const Json &array, int indent, bool firstInline)
    {
        bool first = true;
        for (const Json &item : array) {
            if (!first || !firstInline)
                pad(indent);
            first = false;
            out += "- ";
            if (item.is_object() && !item.empty())
                mapEntries(item, indent + 2, true);
            else if (item.is_array() && !item.empty())
                seqItems(item, indent + 2, true);
            else if (item.is_string()
                && fitsBlockLiteral(item.template get_ref<const std::string &>()))
                block(item.template get_ref<const std::string &>(), indent + 2);
            else
                out += scalar(item) + '\n';
        }
    }

    void block(std::string_view s, int indent)
    {
        std::size_t body = s.size();
        while (body > 0 && s[body - 1] == '\n')
            --body;
        const std::size_t trailing = s.size() - body;
        out += trailing == 0 ? "|-\n" : trailing == 1 ? "|\n" : "|+\n";
        std::size_t start = 0;
        const std::string_view text = s.substr(0, body);
        while (start <= text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos)
                end = text.size();
            if (end > start) {
                pad(indent);
                out.append(text.substr(start, end - start));
            }
            out += '\n';
            start = end + 1;
        }
        if (trailing > 1)
            out.append(trailing - 1, '\n');
    }
};

} // namespace

QString YamlError::message(const QString &origin) const
{
    return QStringLiteral("%1:%2:%3: %4").arg(origin).arg(line).arg(column).arg(reason);
}

YamlStream parseYamlDocuments(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    YamlStream stream;
    for (const Chunk &chunk : splitDocuments(text)) {
        if (!chunk.hasContent)
            continue;
        auto document = parseChunk(chunk, true, nullptr);
        if (document)
            stream.documents.push_back(std::move(*document));
        else
            stream.errors.push_back(std::move(document.error()));
    }
    return stream;
}

Result<nlohmann::json> parseYaml(std::string_view text, const QString &origin)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return parseSingle(text, origin, true, nullptr);
}

Result<nlohmann::json> parseYamlAs(
    std::string_view text, const QString &origin, const SchemaNode *schema)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return parseSingle(text, origin, false, schema);
}

std::string jsonToYaml(const nlohmann::json &value)
{
    BasicWriter<json> writer;
    writer.top(value);
    return std::move(writer.out);
}

Result<nlohmann::ordered_json> parseYamlOrdered(std::string_view text, const QString &origin)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    return parseSingleOrdered(text, origin);
}

std::string jsonToYaml(const nlohmann::ordered_json &value)
{
    BasicWriter<nlohmann::ordered_json> writer;
    writer.top(value);
    return std::move(writer.out);
}

std::string jsonToYamlDocuments(const std::vector<nlohmann::json> &values)
{
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += "---\n";
        out += jsonToYaml(values[i]);
    }
    return out;
}

} // namespace dra::model
