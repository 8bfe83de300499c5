// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// IP addresses and CIDR ranges: ip(), isIP(), ip.isCanonical(), cidr(), isCIDR() and their
// methods, as Kubernetes' IP and CIDR libraries (and cel-spec's network extension) define
// them. Zones and IPv4-mapped IPv6 text are rejected; addresses compare by value.

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "core/cel/env.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

struct IpAddress
{
    bool v6 = false;
    std::array<uint8_t, 16> bytes {}; // IPv4 uses the first 4

    size_t size() const { return v6 ? 16 : 4; }
    // An IPv6 address of the ::ffff:a.b.c.d form, seen as its IPv4 address.
    IpAddress unmapped() const
    {
        static constexpr uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
        if (!v6 || std::memcmp(bytes.data(), prefix, 12) != 0)
            return *this;
        IpAddress out;
        std::memcpy(out.bytes.data(), bytes.data() + 12, 4);
        return out;
    }
    bool operator==(const IpAddress &o) const
    {
        const IpAddress a = unmapped();
        const IpAddress b = o.unmapped();
        return a.v6 == b.v6 && std::memcmp(a.bytes.data(), b.bytes.data(), a.size()) == 0;
    }
};

struct Cidr
{
    IpAddress address;
    int prefix = 0;
};

std::optional<IpAddress> parseV4(std::string_view s)
{
    IpAddress ip;
    size_t part = 0;
    size_t pos = 0;
    while (part < 4) {
        size_t end = pos;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9')
            ++end;
        const size_t len = end - pos;
        if (len == 0 || len > 3 || (len > 1 && s[pos] == '0'))
            return std::nullopt;
        const int v = std::stoi(std::string(s.substr(pos, len)));
        if (v > 255)
            return std::nullopt;
        ip.bytes[part++] = static_cast<uint8_t>(v);
        pos = end;
        if (part < 4) {
            if (pos >= s.size() || s[pos] != '.')
                return std::nullopt;
            ++pos;
        }
    }
    if (pos != s.size())
        return std::nullopt;
    return ip;
}

std::optional<IpAddress> parseV6(std::string_view s)
{
    std::vector<uint16_t> head;
    std::vector<uint16_t> tail;
    bool compressed = false;
    size_t pos = 0;
    if (s.starts_with("::")) {
        compressed = true;
        pos = 2;
    }
    while (pos < s.size()) {
        size_t end = pos;
        while (end < s.size() && std::isxdigit(static_cast<unsigned char>(s[end])))
            ++end;
        if (end == pos || end - pos > 4)
            return std::nullopt;
        const auto group
            = static_cast<uint16_t>(std::stoul(std::string(s.substr(pos, end - pos)), nullptr, 16));
        (compressed ? tail : head).push_back(group);
        pos = end;
        if (pos == s.size())
            break;
        if (s[pos] != ':')
            return std::nullopt;
        if (pos + 1 < s.size() && s[pos + 1] == ':') {
            if (compressed)
                return std::nullopt;
            compressed = true;
            pos += 2;
        } else {
            ++pos;
            if (pos == s.size())
                return std::nullopt;
        }
    }
    const size_t groups = head.size() + tail.size();
    if ((compressed && groups > 7) || (!compressed && groups != 8))
        return std::nullopt;
    IpAddress ip;
    ip.v6 = true;
    for (size_t i = 0; i < head.size(); ++i) {
        ip.bytes[2 * i] = static_cast<uint8_t>(head[i] >> 8);
        ip.bytes[2 * i + 1] = static_cast<uint8_t>(head[i] & 0xff);
    }
    for (size_t i = 0; i < tail.size(); ++i) {
        const size_t g = 8 - tail.size() + i;
        ip.bytes[2 * g] = static_cast<uint8_t>(tail[i] >> 8);
        ip.bytes[2 * g + 1] = static_cast<uint8_t>(tail[i] & 0xff);
    }
    return ip;
}

// Parses an address; on failure `error` says why, in Kubernetes' words.
std::optional<IpAddress> parseIp(std::string_view s, std::string &error, const char *zoneWhat)
{
    if (s.find('%') != std::string_view::npos) {
        error = std::string(zoneWhat) + " with zone value is not allowed";
        return std::nullopt;
    }
    if (s.find(':') == std::string_view::npos)
        return parseV4(s);
    if (s.find('.') != std::string_view::npos) {
        error = "IPv4-mapped IPv6 address is not allowed";
        return std::nullopt;
    }
    return parseV6(s);
}

std::string formatIp(const IpAddress &ip)
{
    if (!ip.v6) {
        return std::to_string(ip.bytes[0]) + "." + std::to_string(ip.bytes[1]) + "."
            + std::to_string(ip.bytes[2]) + "." + std::to_string(ip.bytes[3]);
    }
    std::array<uint16_t, 8> g {};
    for (size_t i = 0; i < 8; ++i)
        g[i] = static_cast<uint16_t>((ip.bytes[2 * i] << 8) | ip.bytes[2 * i + 1]);
    // RFC 5952: compress the longest run of two or more zero groups, the first on a tie.
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8;) {
        if (g[static_cast<size_t>(i)] != 0) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && g[static_cast<size_t>(j)] == 0)
            ++j;
        if (j - i > bestLen && j - i >= 2) {
            bestStart = i;
            bestLen = j - i;
        }
        i = j;
    }
    std::string out;
    char buf[8];
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += "::";
            i += bestLen - 1;
            continue;
        }
        if (!out.empty() && out.back() != ':')
            out += ':';
        std::snprintf(buf, sizeof buf, "%x", g[static_cast<size_t>(i)]);
        out += buf;
    }
    return out;
}

class IpType final : public HostType
{
public:
    std::string_view typeName() const override { return "net.IP"; }
    bool equals(const Value &a, const Value &b) const override { return get(a) == get(b); }
    std::string debugString(const Value &self) const override
    {
        return "ip(\"" + formatIp(get(self)) + "\")";
    }
    static const IpAddress &get(const Value &v)
    {
        return *static_cast<const IpAddress *>(v.hostData());
    }
};

class CidrType final : public HostType
{
public:
    std::string_view typeName() const override { return "net.CIDR"; }
    bool equals(const Value &a, const Value &b) const override
    {
        return get(a).address == get(b).address && get(a).prefix == get(b).prefix;
    }
    std::string debugString(const Value &self) const override
    {
        return "cidr(\"" + formatIp(get(self).address) + "/" + std::to_string(get(self).prefix)
            + "\")";
    }
    static const Cidr &get(const Value &v) { return *static_cast<const Cidr *>(v.hostData()); }
};

const IpType kIpType;
const CidrType kCidrType;

Value ipValue(IpAddress ip)
{
    auto owned = std::make_shared<const IpAddress>(ip);
    const IpAddress *raw = owned.get();
    return Value::host(&kIpType, raw, {}, std::move(owned));
}

Value cidrValue(Cidr c)
{
    auto owned = std::make_shared<const Cidr>(c);
    const Cidr *raw = owned.get();
    return Value::host(&kCidrType, raw, {}, std::move(owned));
}

std::optional<IpAddress> ipFromText(std::string_view s, Value &error)
{
    std::string why;
    auto ip = parseIp(s, why, "IP Address");
    if (!ip)
        error = Value::error(why.empty()
                ? "IP Address '" + std::string(s) + "' parse error during conversion from string"
                : why);
    return ip;
}

std::optional<Cidr> cidrFromText(std::string_view s, Value &error)
{
    const size_t slash = s.find('/');
    std::string why;
    std::optional<IpAddress> ip;
    int prefix = -1;
    if (slash != std::string_view::npos) {
        ip = parseIp(s.substr(0, slash), why, "CIDR");
        const std::string_view bits = s.substr(slash + 1);
        if (!bits.empty() && bits.size() <= 3
            && bits.find_first_not_of("0123456789") == std::string_view::npos
            && !(bits.size() > 1 && bits.front() == '0'))
            prefix = std::stoi(std::string(bits));
    }
    if (!ip || prefix < 0 || prefix > static_cast<int>(ip->size() * 8)) {
        error = Value::error(
            why.empty() ? "network address parse error during conversion from string" : why);
        return std::nullopt;
    }
    return Cidr { *ip, prefix };
}

bool inPrefix(const IpAddress &network, int prefix, const IpAddress &candidate)
{
    const IpAddress a = network.unmapped();
    const IpAddress b = candidate.unmapped();
    if (a.v6 != b.v6)
        return false;
    for (int bit = 0; bit < prefix; ++bit) {
        const auto byte = static_cast<size_t>(bit / 8);
        const int mask = 0x80 >> (bit % 8);
        if ((a.bytes[byte] & mask) != (b.bytes[byte] & mask))
            return false;
    }
    return true;
}

const IpAddress &ip(const Value &v)
{
    return IpType::get(v);
}
const Cidr &cidr(const Value &v)
{
    return CidrType::get(v);
}

Value makeIp(Args a, EvalFrame &)
{
    Value error;
    auto parsed = ipFromText(a[0].asString(), error);
    return parsed ? ipValue(*parsed) : error;
}
Value isIp(Args a, EvalFrame &)
{
    std::string why;
    return Value::boolean(parseIp(a[0].asString(), why, "IP Address").has_value());
}
Value isCanonical(Args a, EvalFrame &)
{
    Value error;
    auto parsed = ipFromText(a[0].asString(), error);
    return parsed ? Value::boolean(formatIp(*parsed) == a[0].asString()) : error;
}
Value ipString(Args a, EvalFrame &)
{
    return Value::string(formatIp(ip(a[0])));
}
Value family(Args a, EvalFrame &)
{
    return Value::integer(ip(a[0]).v6 ? 6 : 4);
}

bool allZero(const IpAddress &x)
{
    for (size_t i = 0; i < x.size(); ++i) {
        if (x.bytes[i])
            return false;
    }
    return true;
}
bool isLoopbackIp(const IpAddress &x)
{
    if (!x.v6)
        return x.bytes[0] == 127;
    for (size_t i = 0; i < 15; ++i) {
        if (x.bytes[i])
            return false;
    }
    return x.bytes[15] == 1;
}
bool isMulticastIp(const IpAddress &x)
{
    return x.v6 ? x.bytes[0] == 0xff : (x.bytes[0] & 0xf0) == 224;
}
bool isLinkLocalUnicastIp(const IpAddress &x)
{
    return x.v6 ? (x.bytes[0] == 0xfe && (x.bytes[1] & 0xc0) == 0x80)
                : (x.bytes[0] == 169 && x.bytes[1] == 254);
}
bool isLinkLocalMulticastIp(const IpAddress &x)
{
    return x.v6 ? (x.bytes[0] == 0xff && (x.bytes[1] & 0x0f) == 0x02)
                : (x.bytes[0] == 224 && x.bytes[1] == 0 && x.bytes[2] == 0);
}

Value isUnspecified(Args a, EvalFrame &)
{
    return Value::boolean(allZero(ip(a[0])));
}
Value isLoopback(Args a, EvalFrame &)
{
    return Value::boolean(isLoopbackIp(ip(a[0]).unmapped()));
}
Value isLinkLocalMulticast(Args a, EvalFrame &)
{
    return Value::boolean(isLinkLocalMulticastIp(ip(a[0]).unmapped()));
}
Value isLinkLocalUnicast(Args a, EvalFrame &)
{
    return Value::boolean(isLinkLocalUnicastIp(ip(a[0]).unmapped()));
}
Value isGlobalUnicast(Args a, EvalFrame &)
{
    const IpAddress x = ip(a[0]).unmapped();
    const bool broadcast
        = !x.v6 && x.bytes[0] == 255 && x.bytes[1] == 255 && x.bytes[2] == 255 && x.bytes[3] == 255;
    return Value::boolean(!allZero(x) && !isLoopbackIp(x) && !isMulticastIp(x)
        && !isLinkLocalUnicastIp(x) && !broadcast);
}

Value makeCidr(Args a, EvalFrame &)
{
    Value error;
    auto parsed = cidrFromText(a[0].asString(), error);
    return parsed ? cidrValue(*parsed) : error;
}
Value isCidr(Args a, EvalFrame &)
{
    Value error;
    return Value::boolean(cidrFromText(a[0].asString(), error).has_value());
}
Value cidrString(Args a, EvalFrame &)
{
    return Value::string(formatIp(cidr(a[0]).address) + "/" + std::to_string(cidr(a[0]).prefix));
}
Value containsIp(Args a, EvalFrame &)
{
    if (a[1].kind() == Kind::String) {
        Value error;
        auto parsed = ipFromText(a[1].asString(), error);
        return parsed ? Value::boolean(inPrefix(cidr(a[0]).address, cidr(a[0]).prefix, *parsed))
                      : error;
    }
    return Value::boolean(inPrefix(cidr(a[0]).address, cidr(a[0]).prefix, ip(a[1])));
}
Value containsCidr(Args a, EvalFrame &)
{
    Cidr other;
    if (a[1].kind() == Kind::String) {
        Value error;
        auto parsed = cidrFromText(a[1].asString(), error);
        if (!parsed)
            return error;
        other = *parsed;
    } else {
        other = cidr(a[1]);
    }
    const Cidr &self = cidr(a[0]);
    return Value::boolean(
        other.prefix >= self.prefix && inPrefix(self.address, self.prefix, other.address));
}
Value cidrIp(Args a, EvalFrame &)
{
    return ipValue(cidr(a[0]).address);
}
Value masked(Args a, EvalFrame &)
{
    Cidr c = cidr(a[0]);
    for (size_t bit = static_cast<size_t>(c.prefix); bit < c.address.size() * 8; ++bit)
        c.address.bytes[bit / 8] &= static_cast<uint8_t>(~(0x80 >> (bit % 8)));
    return cidrValue(c);
}
Value prefixLength(Args a, EvalFrame &)
{
    return Value::integer(cidr(a[0]).prefix);
}

} // namespace

void registerNetworkLibrary(FunctionRegistry &r)
{
    const ParamSpec IP(&kIpType), CIDR(&kCidrType);
    const Kind S = Kind::String;
    r.global("ip", { S }, makeIp);
    r.global("isIP", { S }, isIp);
    r.global("ip.isCanonical", { S }, isCanonical);
    r.global("string", { IP }, ipString);
    r.member("family", { IP }, family);
    r.member("isUnspecified", { IP }, isUnspecified);
    r.member("isLoopback", { IP }, isLoopback);
    r.member("isLinkLocalMulticast", { IP }, isLinkLocalMulticast);
    r.member("isLinkLocalUnicast", { IP }, isLinkLocalUnicast);
    r.member("isGlobalUnicast", { IP }, isGlobalUnicast);
    r.global("cidr", { S }, makeCidr);
    r.global("isCIDR", { S }, isCidr);
    r.global("string", { CIDR }, cidrString);
    r.member("containsIP", { CIDR, IP }, containsIp);
    r.member("containsIP", { CIDR, S }, containsIp);
    r.member("containsCIDR", { CIDR, CIDR }, containsCidr);
    r.member("containsCIDR", { CIDR, S }, containsCidr);
    r.member("ip", { CIDR }, cidrIp);
    r.member("masked", { CIDR }, masked);
    r.member("prefixLength", { CIDR }, prefixLength);
}

} // namespace dra::cel
