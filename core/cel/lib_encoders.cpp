// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The encoders extension: base64.encode(bytes) and base64.decode(string).

#include "core/cel/env.h"
#include "core/cel/program.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

constexpr const char *kAlphabet
    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

Value encode(Args a, EvalFrame &)
{
    const std::string_view in = a[0].asString();
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
        out += kAlphabet[n >> 18];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += kAlphabet[n & 63];
    }
    if (i < in.size()) {
        uint32_t n = uint8_t(in[i]) << 16;
        if (i + 1 < in.size())
            n |= uint8_t(in[i + 1]) << 8;
        out += kAlphabet[n >> 18];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return Value::string(std::move(out));
}

Value decode(Args a, EvalFrame &)
{
    std::string_view in = a[0].asString();
    // Padding is optional, as cel-go falls back to the unpadded alphabet.
    while (!in.empty() && in.back() == '=')
        in.remove_suffix(1);
    if (in.size() % 4 == 1)
        return Value::error("illegal base64 data: bad length");
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        int v;
        if (c >= 'A' && c <= 'Z')
            v = c - 'A';
        else if (c >= 'a' && c <= 'z')
            v = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            v = c - '0' + 52;
        else if (c == '+')
            v = 62;
        else if (c == '/')
            v = 63;
        else
            return Value::error("illegal base64 data");
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return Value::bytes(std::move(out));
}

} // namespace

void registerEncodersLibrary(FunctionRegistry &r)
{
    r.global("base64.encode", { Kind::Bytes }, encode);
    r.global("base64.decode", { Kind::String }, decode);
}

} // namespace dra::cel
