// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Regular expressions with RE2 semantics: matches (standard), find and findAll (Kubernetes).

#include <list>
#include <mutex>
#include <unordered_map>

#include <re2/re2.h>

#include "core/cel/env.h"
#include "core/cel/lib_common.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

// Compiled patterns are shared by every evaluation: a selector evaluated over 40,000 devices
// compiles its pattern once. Bounded so that user typing cannot grow it without limit.
class RegexCache final
{
public:
    std::shared_ptr<const RE2> get(std::string_view pattern)
    {
        std::lock_guard lock(m_mutex);
        auto it = m_map.find(std::string(pattern));
        if (it != m_map.end())
            return it->second;
        RE2::Options options;
        options.set_log_errors(false);
        auto re = std::make_shared<const RE2>(
            re2::StringPiece(pattern.data(), pattern.size()), options);
        if (m_map.size() >= 256)
            m_map.clear();
        m_map.emplace(std::string(pattern), re);
        return re;
    }

private:
    std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const RE2>> m_map;
};

RegexCache &cache()
{
    static RegexCache c;
    return c;
}

// The pattern of this thread's last call: a sweep of the inventory evaluates one pattern per
// device, which then costs a string comparison instead of a lock, a copy and a hash lookup.
// The reference stays valid until the thread's next call.
const RE2 &compiledPattern(std::string_view pattern)
{
    thread_local std::string lastPattern;
    thread_local std::shared_ptr<const RE2> last;
    if (!last || lastPattern != pattern) {
        last = cache().get(pattern);
        lastPattern.assign(pattern);
    }
    return *last;
}

Value invalid(const RE2 &re)
{
    return Value::error("invalid regular expression: " + re.error());
}

Value matches(Args a, EvalFrame &)
{
    const RE2 *re = &compiledPattern(a[1].asString());
    if (!re->ok())
        return invalid(*re);
    const std::string_view s = a[0].asString();
    return Value::boolean(RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re));
}

Value find(Args a, EvalFrame &)
{
    const RE2 *re = &compiledPattern(a[1].asString());
    if (!re->ok())
        return invalid(*re);
    const std::string_view s = a[0].asString();
    re2::StringPiece match;
    if (!re->Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::UNANCHORED, &match, 1))
        return Value::string(std::string());
    return Value::string(std::string(match.data(), match.size()));
}

Value findAll(Args a, EvalFrame &)
{
    const RE2 *re = &compiledPattern(a[1].asString());
    if (!re->ok())
        return invalid(*re);
    const int64_t limit = a.size() > 2 ? a[2].asInt() : -1;
    const std::string_view s = a[0].asString();
    std::vector<Value> out;
    size_t pos = 0;
    while (pos <= s.size() && (limit < 0 || static_cast<int64_t>(out.size()) < limit)) {
        re2::StringPiece match;
        if (!re->Match(
                re2::StringPiece(s.data(), s.size()), pos, s.size(), RE2::UNANCHORED, &match, 1))
            break;
        out.push_back(Value::string(std::string(match.data(), match.size())));
        const size_t end = static_cast<size_t>(match.data() - s.data()) + match.size();
        pos = match.empty() ? end + 1 : end;
    }
    return Value::list(std::move(out));
}

} // namespace

std::optional<std::string> regexError(std::string_view pattern)
{
    const auto re = cache().get(pattern);
    if (re->ok())
        return std::nullopt;
    return re->error();
}

void registerMatches(FunctionRegistry &r)
{
    r.member("matches", { Kind::String, Kind::String }, matches);
    r.global("matches", { Kind::String, Kind::String }, matches);
}

void registerRegexLibrary(FunctionRegistry &r)
{
    r.member("find", { Kind::String, Kind::String }, find);
    r.member("findAll", { Kind::String, Kind::String }, findAll);
    r.member("findAll", { Kind::String, Kind::String, Kind::Int }, findAll);
}

} // namespace dra::cel
