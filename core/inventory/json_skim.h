// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::inventory {

// A forward-only reader over JSON text that steps through objects and arrays and skips the
// values it is not asked for without building them. Loading a large cache reads the few
// fields the inventory needs from each stored ResourceSlice this way, which costs a fraction
// of a full parse. Any syntax error makes ok() false and every later call a no-op; callers
// then fall back to a full decode. A plain value over borrowed text, one thread.
//
//   JsonSkim skim(text);
//   if (skim.enterObject())
//       for (std::string_view key; skim.nextMember(&key);)
//           if (key == "name") skim.readString(&name); else skim.skipValue();
class JsonSkim final
{
public:
    explicit JsonSkim(std::string_view text)
        : m_text(text)
    {
    }

    bool ok() const { return m_ok; }

    // Consumes '{' / '['; false (and not ok) when the next value is something else.
    bool enterObject();
    bool enterArray();
    // Advances to the next member of the object entered last: true with its key (raw, escapes
    // left as written) positioned before the value, false after the closing '}'.
    bool nextMember(std::string_view *key);
    // Advances to the next element of the array entered last: false after the closing ']'.
    bool nextElement();

    // The next value's raw text, consumed.
    std::string_view skipValue();
    // Typed reads of the next value; a value of another type is consumed and returns false
    // without spoiling ok() (null is simply "not there").
    bool readString(std::string *out);
    bool readInt(int64_t *out);
    bool readBool(bool *out);
    // The first character of the next value ('{', '[', '"', 't', 'f', 'n', digit or '-'),
    // or '\0' at the end or after an error.
    char peek();

private:
    void skipSpace();
    bool expect(char c);
    bool skipString();
    bool skipScalar();
    bool fail();

    std::string_view m_text;
    size_t m_pos = 0;
    bool m_ok = true;
    // Whether the container being iterated has produced its first item yet; a small stack of
    // bits is enough for the depths a ResourceSlice has.
    uint64_t m_started = 0;
    int m_depth = 0;
};

// Decodes the body of a JSON string literal (the text between the quotes) with its escapes,
// \uXXXX pairs included, into UTF-8. False on a malformed escape.
bool unescapeJsonString(std::string_view body, std::string *out);

} // namespace dra::inventory
