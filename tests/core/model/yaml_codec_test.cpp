// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/yaml_codec.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "core/model/schema.h"
#include "tests/support/upstream.h"

using dra::model::jsonToYaml;
using dra::model::parseYaml;
using dra::model::parseYamlDocuments;
using json = nlohmann::json;

namespace {

json mustParse(std::string_view text)
{
    const auto parsed = parseYaml(text, QStringLiteral("test.yaml"));
    EXPECT_TRUE(parsed.has_value()) << parsed.error().message.toStdString();
    return parsed.value_or(json());
}

std::string errorOf(std::string_view text)
{
    const auto parsed = parseYaml(text, QStringLiteral("test.yaml"));
    EXPECT_FALSE(parsed.has_value()) << parsed->dump();
    return parsed ? std::string() : parsed.error().message.toStdString();
}

void expectRoundTrip(const json &value)
{
    const std::string yaml = jsonToYaml(value);
    const auto back = parseYaml(yaml, QStringLiteral("round-trip"));
    ASSERT_TRUE(back.has_value()) << back.error().message.toStdString() << "\n" << yaml;
    EXPECT_EQ(*back, value) << yaml;
}

} // namespace

TEST(YamlCodecTest, KeepsStringFieldsAsWritten)
{
    const json slice = mustParse(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: 1234
  labels:
    enabled: true
    replicas: 3
    ratio: 0.50
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 7, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      driverVersion: {version: 1.10}
      mode: {string: 0755}
      cores: {int: 0x10}
    capacity:
      memory: {value: 80Gi}
      share: {value: 0.5}
      bandwidth: {value: 1e3}
      slots: {value: 8}
)");
    EXPECT_EQ(slice["metadata"]["name"], "1234");
    EXPECT_EQ(slice["metadata"]["labels"]["enabled"], "true");
    EXPECT_EQ(slice["metadata"]["labels"]["replicas"], "3");
    EXPECT_EQ(slice["metadata"]["labels"]["ratio"], "0.50");
    const json &device = slice["spec"]["devices"][0];
    EXPECT_EQ(device["attributes"]["driverVersion"]["version"], "1.10");
    EXPECT_EQ(device["attributes"]["mode"]["string"], "0755");
    EXPECT_EQ(device["attributes"]["cores"]["int"], 16);
    EXPECT_EQ(device["capacity"]["memory"]["value"], "80Gi");
    EXPECT_EQ(device["capacity"]["share"]["value"], "0.5");
    EXPECT_EQ(device["capacity"]["bandwidth"]["value"], "1e3");
    EXPECT_EQ(device["capacity"]["slots"]["value"], "8");
    EXPECT_EQ(slice["spec"]["pool"]["generation"], 7);
    EXPECT_TRUE(slice["spec"]["pool"]["generation"].is_number_integer());
}

TEST(YamlCodecTest, ResolvesPlainScalarsLikeKubernetes)
{
    // No schema for this kind: go-yaml v2 (YAML 1.1) resolution, as sigs.k8s.io/yaml does.
    const json v = mustParse(R"(kind: Unknown
yes: yes
no: no
on: On
off: OFF
y: y
n: N
t: true
tilde: ~
nul: null
empty:
hex: 0x1F
octal: 0755
goOctal: 0o17
binary: 0b101
notOctal: 08
exp: 1e3
under: 1_000
half: .5
plus: +1
neg: -42
float: 2.50
stamp: 2008-01-01T01:01:01Z
semver: 1.2.3
word: hello world
quoted: "true"
single: '42'
tagged: !!str 12
block: |
  line
)");
    EXPECT_EQ(v["yes"], true);
    EXPECT_EQ(v["no"], false);
    EXPECT_EQ(v["on"], true);
    EXPECT_EQ(v["off"], false);
    EXPECT_EQ(v["y"], true);
    EXPECT_EQ(v["n"], false);
    EXPECT_EQ(v["t"], true);
    EXPECT_TRUE(v["tilde"].is_null());
    EXPECT_TRUE(v["nul"].is_null());
    EXPECT_TRUE(v["empty"].is_null());
    EXPECT_EQ(v["hex"], 31);
    EXPECT_EQ(v["octal"], 493);
    EXPECT_EQ(v["goOctal"], 15);
    EXPECT_EQ(v["binary"], 5);
    EXPECT_EQ(v["notOctal"], 8.0);
    EXPECT_TRUE(v["notOctal"].is_number_float());
    EXPECT_EQ(v["exp"], 1000.0);
    EXPECT_EQ(v["under"], 1000);
    EXPECT_EQ(v["half"], 0.5);
    EXPECT_EQ(v["plus"], 1);
    EXPECT_EQ(v["neg"], -42);
    EXPECT_EQ(v["float"], 2.5);
    EXPECT_EQ(v["stamp"], "2008-01-01T01:01:01Z");
    EXPECT_EQ(v["semver"], "1.2.3");
    EXPECT_EQ(v["word"], "hello world");
    EXPECT_EQ(v["quoted"], "true");
    EXPECT_EQ(v["single"], "42");
    EXPECT_EQ(v["tagged"], "12");
    EXPECT_EQ(v["block"], "line\n");
}

TEST(YamlCodecTest, QuotedScalarsAreStringsEvenWhereNumbersAreExpected)
{
    const json claim = mustParse(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu, count: "2", adminAccess: yes}
)");
    const json &exactly = claim["spec"]["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(exactly["count"], "2"); // left for validation to reject, not silently converted
    EXPECT_EQ(exactly["adminAccess"], true);
}

TEST(YamlCodecTest, HugeIntegersKeepTextOnlyWhereAStringIsAllowed)
{
    const json ok = mustParse("apiVersion: v1\nkind: Namespace\nmetadata:\n"
                              "  name: 123456789012345678901234\n");
    EXPECT_EQ(ok["metadata"]["name"], "123456789012345678901234");
    const std::string error = errorOf(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  pool:
    name: p
    generation: 99999999999999999999
)");
    EXPECT_EQ(
        error.rfind("test.yaml:8:17: integer 99999999999999999999 does not fit in 64 bits", 0), 0u)
        << error;
    EXPECT_NE(
        errorOf("kind: X\nsize: -9223372036854775809\n").find("does not fit"), std::string::npos);
    EXPECT_EQ(mustParse("kind: X\nsize: -9223372036854775808\n")["size"],
        std::numeric_limits<std::int64_t>::min());
    EXPECT_NE(
        errorOf("kind: X\nratio: .inf\n").find("cannot be represented in JSON"), std::string::npos);
}

TEST(YamlCodecTest, ParseYamlAsTypesAFragmentBySchema)
{
    // A fragment typed by an explicit schema, as the template editor does.
    const dra::model::SchemaNode *containers
        = dra::model::schemaAt(dra::model::schemaFor("v1", "Pod"), "spec.containers");
    ASSERT_NE(containers, nullptr);
    const auto parsed = dra::model::parseYamlAs(
        "- name: 42\n  ports:\n  - containerPort: 8080\n", QStringLiteral("fragment"), containers);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message.toStdString();
    EXPECT_EQ((*parsed)[0]["name"], "42");
    EXPECT_EQ((*parsed)[0]["ports"][0]["containerPort"], 8080);
}

TEST(YamlCodecTest, AnchorsAliasesAndMergeKeys)
{
    const json v = mustParse(R"(kind: X
base: &base {driver: gpu.example.com, count: 1, mode: shared}
extra: &extra {count: 9, zone: a}
copy: *base
merged:
  <<: [*base, *extra]
  count: 2
)");
    EXPECT_EQ(v["copy"], v["base"]);
    EXPECT_EQ(v["merged"],
        (json { { "driver", "gpu.example.com" }, { "count", 2 }, { "mode", "shared" },
            { "zone", "a" } }));
}

TEST(YamlCodecTest, DuplicateKeysAndComplexKeysAreErrors)
{
    EXPECT_EQ(errorOf("kind: X\nname: a\nname: b\n"), "test.yaml:3:1: duplicate key \"name\"");
    EXPECT_NE(errorOf("? [a, b]\n: c\n").find("mapping keys must be strings"), std::string::npos);
}

TEST(YamlCodecTest, SyntaxErrorsNameOriginLineAndColumn)
{
    EXPECT_EQ(errorOf("kind: X\nspec:\n  a: b: c\n"), "test.yaml:3:7: illegal map value");
    EXPECT_NE(
        errorOf("a: 1\n---\nb: 2\n").find("test.yaml:2:1: expected one YAML document, found 2"),
        std::string::npos);
}

TEST(YamlCodecTest, BadDocumentDoesNotLoseTheOthers)
{
    const auto stream = parseYamlDocuments(R"(# leading comment
apiVersion: v1
kind: Namespace
metadata: {name: first}
---
apiVersion: v1
kind: Namespace
metadata: {name: [broken
---

---
# only a comment
...
--- null
---
apiVersion: v1
kind: Namespace
metadata:
  name: third
)");
    ASSERT_EQ(stream.documents.size(), 3u);
    EXPECT_EQ(stream.documents[0].value["metadata"]["name"], "first");
    EXPECT_EQ(stream.documents[0].line, 2);
    EXPECT_TRUE(stream.documents[1].value.is_null()); // explicit null, unlike the empty ones
    EXPECT_EQ(stream.documents[2].value["metadata"]["name"], "third");
    EXPECT_EQ(stream.documents[2].line, 16);
    ASSERT_EQ(stream.errors.size(), 1u);
    EXPECT_EQ(stream.errors[0].line, 9);
    EXPECT_TRUE(
        stream.errors[0].message(QStringLiteral("m.yaml")).startsWith(QStringLiteral("m.yaml:9:")))
        << stream.errors[0].message(QStringLiteral("m.yaml")).toStdString();
}

TEST(YamlCodecTest, ListItemsAreTypedByTheirOwnKind)
{
    const auto stream = parseYamlDocuments(R"(apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: a, labels: {gen: 2}}
  spec:
    devices:
    - name: d
      attributes: {v: {version: 1.10}}
- apiVersion: v1
  kind: Namespace
  metadata: {name: 007}
)");
    ASSERT_EQ(stream.errors.size(), 0u);
    ASSERT_EQ(stream.documents.size(), 1u);
    const json &items = stream.documents[0].value["items"];
    EXPECT_EQ(items[0]["metadata"]["labels"]["gen"], "2");
    EXPECT_EQ(items[0]["spec"]["devices"][0]["attributes"]["v"]["version"], "1.10");
    EXPECT_EQ(items[1]["metadata"]["name"], "007");
    EXPECT_EQ(stream.documents[0].itemLines, (std::vector<int> { 4, 11 }));
}

TEST(YamlCodecTest, TypedListItemsDefaultToTheListKind)
{
    const json list = mustParse("apiVersion: resource.k8s.io/v1\nkind: DeviceClassList\nitems:\n"
                                "- metadata: {name: 10}\n");
    EXPECT_EQ(list["items"][0]["metadata"]["name"], "10");
}

TEST(YamlCodecTest, AliasBombIsRefused)
{
    std::string bomb = "kind: X\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 9; ++i) {
        const std::string prev = "*a" + std::to_string(i - 1);
        bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int j = 0; j < 10; ++j)
            bomb += prev + (j < 9 ? ", " : "]\n");
    }
    EXPECT_NE(errorOf(bomb).find("alias bomb"), std::string::npos);
}

TEST(YamlCodecTest, WritesKubectlStyleBlockYaml)
{
    const json object = json::parse(R"({
        "apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
        "metadata": {"name": "gpu", "labels": {"enabled": "true", "tier": "a: b"}},
        "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}],
                 "config": [], "extra": {}, "nested": [[1, 2], ["x"]]}})");
    EXPECT_EQ(jsonToYaml(object), R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  labels:
    enabled: "true"
    tier: "a: b"
  name: gpu
spec:
  config: []
  extra: {}
  nested:
  - - 1
    - 2
  - - x
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
)");
}

TEST(YamlCodecTest, WritesMultiLineStringsAsBlockLiterals)
{
    const json object = { { "clip", "a\nb\n" }, { "strip", "a\n\nb" }, { "keep", "a\n\n" },
        { "list", json::array({ "x\ny" }) } };
    EXPECT_EQ(jsonToYaml(object),
        "clip: |\n  a\n  b\nkeep: |+\n  a\n\nlist:\n- |-\n  x\n  y\n"
        "strip: |-\n  a\n\n  b\n");
    expectRoundTrip(object);
}

TEST(YamlCodecTest, WritesSeveralDocuments)
{
    EXPECT_EQ(dra::model::jsonToYamlDocuments({ json { { "a", 1 } }, json { { "b", "no" } } }),
        "a: 1\n---\nb: \"no\"\n");
    const auto stream = parseYamlDocuments(
        dra::model::jsonToYamlDocuments({ json { { "a", 1 } }, json { { "b", "no" } } }));
    ASSERT_EQ(stream.documents.size(), 2u);
    EXPECT_EQ(stream.documents[1].value["b"], "no");
    EXPECT_EQ(stream.documents[1].line, 3);
}

TEST(YamlCodecTest, RoundTripsTrickyValues)
{
    json strings = json::array();
    for (const char *s : { "true", "True", "no", "y", "N", "on", "OFF", "1.0", "0755", "08", "0x1F",
             "1e3", "1_000", ".5", "+1", "-1", ".inf", "-.Inf", ".nan", "null", "Null", "~", "",
             " ", "  lead", "trail ", "key: value", "ends:", "#hash", "a #b", "a#b", "- dash", "-",
             "--- doc", "...", "? q", "@at", "`tick", "%pct", "{a}", "[b]", "a[0].b{x}, y", "*star",
             "&amp", "!bang", "|pipe", ">gt", "'single'", "\"double\"", "<<", "=", "2008-01-01",
             "2008-01-01T01:01:01Z", "1.2.3", "é ünïcode ✓", "tab\there", "\tlead-tab", "ctrl\x01",
             "cr\r\nlf", "multi\nline", "multi\nline\n", "x\n\n\n", "\nleading newline",
             "  indented\nfirst", "a\n  b", "trailing space \nline", "\n", "\n\n", "k: v\n#c\n- x",
             "80Gi", "100m", "0.5", "0", "-0", "00", "0o", "0x", "1e", "e3", "+", ".",
             // Code points YAML cannot hold raw: a byte order mark (dropped at a stream's start),
             // NEL and the line/paragraph separators (line breaks), a C1 control, U+FFFE.
             "\xEF\xBB\xBF",
             "\xEF\xBB\xBF"
             "bom first",
             "nel\xC2\x85here", "\xC2\x85", "line\xE2\x80\xA8sep", "para\xE2\x80\xA9sep",
             "c1\xC2\x9A", "\xEF\xBF\xBE", "multi\nline\xE2\x80\xA8\n" }) {
        strings.push_back(s);
    }
    json keys = json::object();
    for (const char *k : { "true", "a: b", "", "#", "- x", "1", "null", "x y", "multi\nline" })
        keys[k] = k;
    const json value = {
        { "strings", strings },
        { "keys", keys },
        { "numbers",
            { 0, -1, 42, 9223372036854775807LL, -9223372036854775807LL - 1, 0.1, 1.0, -2.5, 1e20,
                1.5e-7 } },
        { "bools", { true, false } },
        { "null", nullptr },
        { "empty", { { "object", json::object() }, { "array", json::array() } } },
        { "deep", { { { "a", { { { "b", { json::array({ 1, { { "c", "d" } } }) } } } } } } } },
    };
    expectRoundTrip(value);
    for (const json &s : strings)
        expectRoundTrip(s); // top-level scalars too
    expectRoundTrip(json::object());
    expectRoundTrip(json::array());
}

TEST(YamlCodecTest, UpstreamYamlFixturesMatchTheirJsonTwins)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    int compared = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".yaml")
            continue;
        std::filesystem::path twin = entry.path();
        twin.replace_extension(".json");
        SCOPED_TRACE(entry.path().filename().string());
        const auto parsed = parseYaml(
            dra::test::readFile(entry.path()), QString::fromStdString(entry.path().string()));
        ASSERT_TRUE(parsed.has_value()) << parsed.error().message.toStdString();
        EXPECT_EQ(*parsed, json::parse(dra::test::readFile(twin)));
        ++compared;
    }
    EXPECT_EQ(compared, 19); // every YAML fixture, v1alpha3 and Status included
}

TEST(YamlCodecTest, RoundTripsEveryUpstreamJsonFixture)
{
    DRA_REQUIRE_UPSTREAM(dir, "k8s-api-testdata");
    int checked = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        SCOPED_TRACE(entry.path().filename().string());
        expectRoundTrip(json::parse(dra::test::readFile(entry.path())));
        ++checked;
    }
    EXPECT_EQ(checked, 19);
}

// Kubernetes refuses manifests that are not UTF-8 (a Latin-1 file); a string holding such bytes
// could not be sent as JSON either. The error points at the byte, and other documents are kept.
TEST(YamlCodecTest, TextThatIsNotUtf8IsRefusedWhereItBreaks)
{
    const auto stream = parseYamlDocuments("apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                           "  name: caf\xe9\n"
                                           "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                                           "  name: ok\n");
    ASSERT_EQ(stream.errors.size(), 1u);
    EXPECT_EQ(stream.errors[0].line, 4);
    EXPECT_EQ(stream.errors[0].column, 12);
    EXPECT_TRUE(stream.errors[0].reason.contains(QStringLiteral("invalid UTF-8")))
        << stream.errors[0].reason.toStdString();
    ASSERT_EQ(stream.documents.size(), 1u);
    EXPECT_EQ(stream.documents[0].value["metadata"]["name"], "ok");

    EXPECT_NE(errorOf("a: \xed\xa0\x80\n").find("invalid UTF-8"), std::string::npos)
        << "an encoded surrogate";
    EXPECT_NE(errorOf("a: \xc0\xaf\n").find("invalid UTF-8"), std::string::npos) << "overlong";
    EXPECT_NE(errorOf("a: \xf4\x90\x80\x80\n").find("invalid UTF-8"), std::string::npos)
        << "past U+10FFFF";
    // yaml-cpp decodes the escapes \N (U+0085) and \_ (U+00A0) to single bytes, not UTF-8.
    EXPECT_NE(errorOf("a: \"x\\Ny\"\n").find("not valid UTF-8"), std::string::npos) << "\\N";
    EXPECT_NE(errorOf("\"k\\_\": v\n").find("not valid UTF-8"), std::string::npos)
        << "\\_ in a key";
    EXPECT_EQ(mustParse("a: caf\xc3\xa9 \xf0\x9f\x98\x80\n")["a"], "caf\xc3\xa9 \xf0\x9f\x98\x80");
}
