// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Kubernetes' semver library: semver(), isSemver() (optionally normalizing "v1.2" to
// "1.2.0") and the Semver methods major/minor/patch, compareTo, isGreaterThan, isLessThan.

#include "core/cel/env.h"
#include "core/cel/kubernetes_types.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;
using model::Version;

class SemverType final : public HostType
{
public:
    std::string_view typeName() const override { return "kubernetes.Semver"; }
    bool equals(const Value &self, const Value &other) const override
    {
        return get(self).compare(get(other)) == 0;
    }
    std::string debugString(const Value &self) const override
    {
        return "semver(\"" + get(self).toString() + "\")";
    }
    static const Version &get(const Value &v)
    {
        return *static_cast<const Version *>(v.hostData());
    }
};

const SemverType kSemverType;

const Version &ver(const Value &v)
{
    return SemverType::get(v);
}

// Kubernetes' normalization: drop a leading "v", pad missing minor and patch with zeros and
// strip leading zeros of the numeric core, before the strict parse.
std::string normalize(std::string_view text)
{
    if (!text.empty() && text.front() == 'v')
        text.remove_prefix(1);
    const size_t extra = text.find_first_of("-+");
    const std::string_view core = text.substr(0, extra);
    const std::string_view rest
        = extra == std::string_view::npos ? std::string_view() : text.substr(extra);
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= core.size()) {
        const size_t dot = core.find('.', start);
        std::string part(core.substr(
            start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        while (part.size() > 1 && part.front() == '0')
            part.erase(0, 1);
        parts.push_back(std::move(part));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    while (parts.size() < 3)
        parts.emplace_back("0");
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i ? "." : "") + parts[i];
    return out + std::string(rest);
}

Result<Version> parse(Args a)
{
    const bool lenient = a.size() > 1 && a[1].asBool();
    return Version::parse(lenient ? normalize(a[0].asString()) : std::string(a[0].asString()));
}

Value semver(Args a, EvalFrame &)
{
    Result<Version> v = parse(a);
    if (!v)
        return Value::error("invalid semver: " + std::string(a[0].asString()));
    return semverValue(*v);
}

Value isSemver(Args a, EvalFrame &)
{
    return Value::boolean(parse(a).has_value());
}
Value major(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(ver(a[0]).major()));
}
Value minor(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(ver(a[0]).minor()));
}
Value patch(Args a, EvalFrame &)
{
    return Value::integer(static_cast<int64_t>(ver(a[0]).patch()));
}
Value semverCompareTo(Args a, EvalFrame &)
{
    return Value::integer(ver(a[0]).compare(ver(a[1])));
}
Value semverIsGreaterThan(Args a, EvalFrame &)
{
    return Value::boolean(ver(a[0]).compare(ver(a[1])) > 0);
}
Value semverIsLessThan(Args a, EvalFrame &)
{
    return Value::boolean(ver(a[0]).compare(ver(a[1])) < 0);
}

} // namespace

const HostType *semverType()
{
    return &kSemverType;
}

Value borrowedSemverValue(const Version &version)
{
    return Value::host(&kSemverType, &version);
}

Value semverValue(Version version)
{
    auto owned = std::make_shared<const Version>(std::move(version));
    const Version *raw = owned.get();
    return Value::host(&kSemverType, raw, {}, std::move(owned));
}

void registerSemverLibrary(FunctionRegistry &r, bool normalize)
{
    const ParamSpec V(&kSemverType);
    const Kind S = Kind::String, B = Kind::Bool;
    r.global("semver", { S }, semver);
    r.global("isSemver", { S }, isSemver);
    if (normalize) {
        r.global("semver", { S, B }, semver);
        r.global("isSemver", { S, B }, isSemver);
    }
    r.member("major", { V }, major);
    r.member("minor", { V }, minor);
    r.member("patch", { V }, patch);
    r.member("compareTo", { V, V }, semverCompareTo);
    r.member("isGreaterThan", { V, V }, semverIsGreaterThan);
    r.member("isLessThan", { V, V }, semverIsLessThan);
}

} // namespace dra::cel
