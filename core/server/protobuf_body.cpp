// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Field numbers are those of k8s.io/api/core/v1 and k8s.io/apimachinery/pkg/apis/meta/v1
// generated.proto; fields we do not use are skipped by wire type, as protobuf readers do.
#include "core/server/protobuf_body.h"

#include <cstdint>
#include <optional>

namespace dra::server {

namespace {

using common::Error;
using nlohmann::json;

// A cursor over one protobuf message.
class Reader
{
public:
    explicit Reader(std::string_view data)
        : m_data(data)
    {
    }

    bool atEnd() const { return m_at >= m_data.size(); }
    bool failed() const { return m_failed; }

    // The next field: its number and wire type; false at the end or on malformed input.
    bool next(uint32_t &field, uint32_t &wire)
    {
        if (atEnd() || m_failed)
            return false;
        const std::optional<uint64_t> key = varint();
        if (!key)
            return false;
        field = uint32_t(*key >> 3);
        wire = uint32_t(*key & 7);
        return true;
    }

    std::optional<uint64_t> varint()
    {
        uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (atEnd())
                break;
            const uint8_t byte = uint8_t(m_data[m_at++]);
            value |= uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        m_failed = true;
        return std::nullopt;
    }

    std::string_view bytes()
    {
        const std::optional<uint64_t> length = varint();
        if (!length || *length > m_data.size() - m_at) {
            m_failed = true;
            return {};
        }
        const std::string_view out = m_data.substr(m_at, size_t(*length));
        m_at += size_t(*length);
        return out;
    }

    void skip(uint32_t wire)
    {
        switch (wire) {
        case 0:
            varint();
            break;
        case 1:
            advance(8);
            break;
        case 2:
            bytes();
            break;
        case 5:
            advance(4);
            break;
        default:
            m_failed = true;
            break;
        }
    }

private:
    void advance(size_t count)
    {
        if (count > m_data.size() - m_at)
            m_failed = true;
        else
            m_at += count;
    }

    std::string_view m_data;
    size_t m_at = 0;
    bool m_failed = false;
};

// A map<string,string> entry: key = 1, value = 2.
std::pair<std::string, std::string> mapEntry(std::string_view data)
{
    Reader reader(data);
    std::pair<std::string, std::string> entry;
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (wire == 2 && field == 1)
            entry.first = reader.bytes();
        else if (wire == 2 && field == 2)
            entry.second = reader.bytes();
        else
            reader.skip(wire);
    }
    return entry;
}

json objectMeta(std::string_view data)
{
    json meta = json::object();
    Reader reader(data);
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (wire != 2) {
            reader.skip(wire);
            continue;
        }
        const std::string_view value = reader.bytes();
        switch (field) {
        case 1:
            meta["name"] = std::string(value);
            break;
        case 2:
            meta["generateName"] = std::string(value);
            break;
        case 3:
            meta["namespace"] = std::string(value);
            break;
        case 5:
            meta["uid"] = std::string(value);
            break;
        case 6:
            meta["resourceVersion"] = std::string(value);
            break;
        case 11: {
            const auto [key, text] = mapEntry(value);
            meta["labels"][key] = text;
            break;
        }
        case 12: {
            const auto [key, text] = mapEntry(value);
            meta["annotations"][key] = text;
            break;
        }
        case 14:
            meta["finalizers"].push_back(std::string(value));
            break;
        default:
            break;
        }
    }
    return meta;
}

json namespaceObject(std::string_view data)
{
    json object
        = { { "apiVersion", "v1" }, { "kind", "Namespace" }, { "metadata", json::object() } };
    Reader reader(data);
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (wire == 2 && field == 1) {
            object["metadata"] = objectMeta(reader.bytes());
        } else if (wire == 2 && field == 2) {
            Reader spec(reader.bytes());
            uint32_t inner = 0, innerWire = 0;
            while (spec.next(inner, innerWire)) {
                if (innerWire == 2 && inner == 1)
                    object["spec"]["finalizers"].push_back(std::string(spec.bytes()));
                else
                    spec.skip(innerWire);
            }
        } else {
            reader.skip(wire);
        }
    }
    return object;
}

json deleteOptions(std::string_view data)
{
    json options = { { "kind", "DeleteOptions" }, { "apiVersion", "v1" } };
    Reader reader(data);
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (field == 1 && wire == 0) {
            options["gracePeriodSeconds"] = int64_t(reader.varint().value_or(0));
        } else if (field == 2 && wire == 2) {
            Reader pre(reader.bytes());
            uint32_t inner = 0, innerWire = 0;
            while (pre.next(inner, innerWire)) {
                if (innerWire == 2 && inner == 1)
                    options["preconditions"]["uid"] = std::string(pre.bytes());
                else if (innerWire == 2 && inner == 2)
                    options["preconditions"]["resourceVersion"] = std::string(pre.bytes());
                else
                    pre.skip(innerWire);
            }
        } else if (field == 4 && wire == 2) {
            options["propagationPolicy"] = std::string(reader.bytes());
        } else if (field == 5 && wire == 2) {
            options["dryRun"].push_back(std::string(reader.bytes()));
        } else {
            reader.skip(wire);
        }
    }
    return options;
}

// The string fields of a message by field number, as `names` name them ("" skips one).
json stringFields(std::string_view data, std::initializer_list<const char *> names)
{
    json out = json::object();
    Reader reader(data);
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (wire == 2 && field >= 1 && field <= names.size() && *(names.begin() + (field - 1))[0])
            out[*(names.begin() + (field - 1))] = std::string(reader.bytes());
        else
            reader.skip(wire);
    }
    return out;
}

// `kubectl auth can-i`: SelfSubjectAccessReview {spec {resourceAttributes, nonResourceAttributes}}
// and SelfSubjectRulesReview {spec {namespace}}; client-go's SubjectAccessReview {spec {...,
// user, groups}}, TokenReview {spec {token}} and SelfSubjectReview (`kubectl auth whoami`, no
// spec).
json accessReview(std::string_view data, const std::string &kind)
{
    const bool authentication = kind == "TokenReview" || kind == "SelfSubjectReview";
    json review = { { "apiVersion",
                        authentication ? "authentication.k8s.io/v1" : "authorization.k8s.io/v1" },
        { "kind", kind }, { "spec", json::object() } };
    Reader reader(data);
    uint32_t field = 0, wire = 0;
    while (reader.next(field, wire)) {
        if (!(field == 2 && wire == 2)) {
            reader.skip(wire);
            continue;
        }
        const std::string_view specData = reader.bytes();
        if (kind == "SelfSubjectRulesReview") {
            review["spec"] = stringFields(specData, { "namespace" });
            continue;
        }
        if (kind == "TokenReview") {
            review["spec"] = stringFields(specData, { "token" });
            continue;
        }
        Reader spec(specData);
        uint32_t inner = 0, innerWire = 0;
        while (spec.next(inner, innerWire)) {
            if (innerWire == 2 && inner == 1)
                review["spec"]["resourceAttributes"] = stringFields(spec.bytes(),
                    { "namespace", "verb", "group", "version", "resource", "subresource", "name" });
            else if (innerWire == 2 && inner == 2)
                review["spec"]["nonResourceAttributes"]
                    = stringFields(spec.bytes(), { "path", "verb" });
            else if (innerWire == 2 && inner == 3)
                review["spec"]["user"] = std::string(spec.bytes());
            else if (innerWire == 2 && inner == 4)
                review["spec"]["groups"].push_back(std::string(spec.bytes()));
            else
                spec.skip(innerWire);
        }
    }
    return review;
}

} // namespace

Result<json> decodeProtobufBody(QByteArrayView body)
{
    const std::string_view data(body.data(), size_t(body.size()));
    constexpr std::string_view magic("k8s\0", 4);
    const auto malformed
        = dra::fail(Error::Code::Parse, QStringLiteral("the protobuf body is malformed"));
    if (!data.starts_with(magic))
        return dra::fail(Error::Code::Parse,
            QStringLiteral("the protobuf body lacks the Kubernetes envelope (k8s\\0)"));
    Reader unknown(data.substr(magic.size()));
    std::string apiVersion, kind;
    std::string_view raw;
    uint32_t field = 0, wire = 0;
    while (unknown.next(field, wire)) {
        if (field == 1 && wire == 2) {
            Reader typeMeta(unknown.bytes());
            uint32_t inner = 0, innerWire = 0;
            while (typeMeta.next(inner, innerWire)) {
                if (innerWire == 2 && inner == 1)
                    apiVersion = typeMeta.bytes();
                else if (innerWire == 2 && inner == 2)
                    kind = typeMeta.bytes();
                else
                    typeMeta.skip(innerWire);
            }
        } else if (field == 2 && wire == 2) {
            raw = unknown.bytes();
        } else {
            unknown.skip(wire);
        }
    }
    if (unknown.failed())
        return malformed;
    if (kind == "Namespace")
        return namespaceObject(raw);
    if (kind == "DeleteOptions")
        return deleteOptions(raw);
    if (kind == "SelfSubjectAccessReview" || kind == "SelfSubjectRulesReview"
        || kind == "SubjectAccessReview" || kind == "TokenReview" || kind == "SelfSubjectReview")
        return accessReview(raw, kind);
    return dra::fail(Error::Code::Unsupported,
        QStringLiteral("the body of the request was in an unknown format - %1 %2 in protobuf is "
                       "not accepted; send it as application/json")
            .arg(QString::fromStdString(apiVersion), QString::fromStdString(kind)));
}

} // namespace dra::server
