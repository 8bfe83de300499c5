// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Runs the CEL conformance suites (google/cel-spec tests/simple, JSON form) against our engine
// as cel-go's conformance runner does: parse, type-check with the test's declarations (unless
// disable_check), compare the deduced type where one is expected, then evaluate.
// Usage: cel_conformance <cel-conformance folder> [--known-failures FILE] [--write-known-failures
// FILE]
//        [--filter SUBSTRING] [--verbose]
// Prints passed/failed/skipped per suite and a last line
// `conformance: N passed, M failed, K skipped`. Exits 1 when a test outside the known-failures
// list fails, or a listed test passes (the list may only shrink), and 77 (ctest's
// SKIP_RETURN_CODE for it) when the suites are not there.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/cel/checker.h"
#include "core/cel/declarations.h"
#include "core/cel/env.h"
#include "core/cel/parser.h"
#include "core/cel/program.h"
#include "core/cel/time_util.h"
#include "textproto.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace dra::cel;

namespace {

std::string base64Decode(const std::string &in)
{
    static const std::string chars
        = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    int val = 0;
    int bits = -8;
    for (char c : in) {
        const size_t pos = chars.find(c);
        if (pos == std::string::npos)
            continue;
        val = (val << 6) + static_cast<int>(pos);
        bits += 6;
        if (bits >= 0) {
            out.push_back(static_cast<char>((val >> bits) & 0xFF));
            bits -= 8;
        }
    }
    return out;
}

// True when a JSON value (test, binding or expectation) needs protobuf message types.
bool needsMessages(const json &j)
{
    if (j.is_object()) {
        if (j.contains("objectValue")) {
            const std::string type = j["objectValue"].value("@type", "");
            if (type != "type.googleapis.com/google.protobuf.Duration"
                && type != "type.googleapis.com/google.protobuf.Timestamp")
                return true;
        }
        if (j.contains("messageType")) {
            const std::string type = j["messageType"].get<std::string>();
            if (type != "google.protobuf.Duration" && type != "google.protobuf.Timestamp")
                return true;
        }
        if (j.contains("enumValue"))
            return true;
        for (const auto &[k, v] : j.items()) {
            if (needsMessages(v))
                return true;
        }
    } else if (j.is_array()) {
        for (const auto &v : j) {
            if (needsMessages(v))
                return true;
        }
    }
    return false;
}

std::optional<Value> toValue(const json &j)
{
    if (j.contains("int64Value"))
        return Value::integer(
            std::stoll(j["int64Value"].is_string() ? j["int64Value"].get<std::string>()
                                                   : j["int64Value"].dump()));
    if (j.contains("uint64Value"))
        return Value::unsignedInteger(
            std::stoull(j["uint64Value"].is_string() ? j["uint64Value"].get<std::string>()
                                                     : j["uint64Value"].dump()));
    if (j.contains("doubleValue")) {
        const json &d = j["doubleValue"];
        if (d.is_string()) {
            const std::string s = d.get<std::string>();
            if (s == "NaN")
                return Value::floating(NAN);
            if (s == "Infinity")
                return Value::floating(INFINITY);
            if (s == "-Infinity")
                return Value::floating(-INFINITY);
            return Value::floating(std::stod(s));
        }
        return Value::floating(d.get<double>());
    }
    if (j.contains("stringValue"))
        return Value::string(j["stringValue"].get<std::string>());
    if (j.contains("bytesValue"))
        return Value::bytes(base64Decode(j["bytesValue"].get<std::string>()));
    if (j.contains("boolValue"))
        return Value::boolean(j["boolValue"].get<bool>());
    if (j.contains("nullValue"))
        return Value::null();
    if (j.contains("typeValue")) {
        static std::set<std::string> names; // type values borrow their names
        return Value::type(*names.insert(j["typeValue"].get<std::string>()).first);
    }
    if (j.contains("listValue")) {
        std::vector<Value> out;
        for (const json &e : j["listValue"].value("values", json::array())) {
            auto v = toValue(e);
            if (!v)
                return std::nullopt;
            out.push_back(*v);
        }
        return Value::list(std::move(out));
    }
    if (j.contains("mapValue")) {
        auto map = std::make_shared<MapData>();
        for (const json &e : j["mapValue"].value("entries", json::array())) {
            auto k = toValue(e["key"]);
            auto v = toValue(e["value"]);
            if (!k || !v)
                return std::nullopt;
            map->insert(*k, *v);
        }
        return Value::map(map);
    }
    if (j.contains("objectValue")) {
        const json &o = j["objectValue"];
        const std::string type = o.value("@type", "");
        const std::string text = o.value("value", "");
        if (type.ends_with("Duration")) {
            if (auto d = parseDuration(text))
                return Value::duration(*d);
        } else if (type.ends_with("Timestamp")) {
            if (auto t = parseTimestamp(text))
                return Value::timestamp(*t);
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// Strict equality for the expected result: kinds must match exactly and NaN equals NaN.
bool sameValue(const Value &a, const Value &b)
{
    if (a.kind() != b.kind())
        return false;
    switch (a.kind()) {
    case Kind::Double:
        if (std::isnan(a.asDouble()) && std::isnan(b.asDouble()))
            return true;
        return a.asDouble() == b.asDouble();
    case Kind::List:
        if (a.asList().size() != b.asList().size())
            return false;
        for (size_t i = 0; i < a.asList().size(); ++i) {
            if (!sameValue(a.asList()[i], b.asList()[i]))
                return false;
        }
        return true;
    case Kind::Map: {
        const MapData &x = a.asMap();
        const MapData &y = b.asMap();
        if (x.size() != y.size())
            return false;
        for (size_t i = 0; i < x.size(); ++i) {
            bool found = false;
            for (size_t k = 0; k < y.size(); ++k) {
                if (sameValue(x.keys()[i], y.keys()[k])) {
                    found = sameValue(x.values()[i], y.values()[k]);
                    break;
                }
            }
            if (!found)
                return false;
        }
        return true;
    }
    default:
        return valuesEqual(a, b);
    }
}

// The checker's type for a cel.expr.Type in JSON, or nullopt for one we do not model.
std::optional<CelType> toType(const json &j)
{
    using K = CelType::Kind;
    if (j.contains("primitive")) {
        const std::string p = j["primitive"].get<std::string>();
        static const std::pair<const char *, K> primitives[]
            = { { "BOOL", K::Bool }, { "INT64", K::Int }, { "UINT64", K::Uint },
                  { "DOUBLE", K::Double }, { "STRING", K::String }, { "BYTES", K::Bytes } };
        for (const auto &[name, kind] : primitives) {
            if (p == name)
                return CelType::simple(kind);
        }
        return std::nullopt;
    }
    if (j.contains("wellKnown")) {
        const std::string w = j["wellKnown"].get<std::string>();
        if (w == "DURATION")
            return CelType::simple(K::Duration);
        if (w == "TIMESTAMP")
            return CelType::simple(K::Timestamp);
        if (w == "ANY")
            return CelType::simple(K::Any);
        return std::nullopt;
    }
    if (j.contains("null"))
        return CelType::simple(K::Null);
    if (j.contains("messageType")) {
        const std::string m = j["messageType"].get<std::string>();
        if (m == "google.protobuf.Duration")
            return CelType::simple(K::Duration);
        if (m == "google.protobuf.Timestamp")
            return CelType::simple(K::Timestamp);
        return std::nullopt;
    }
    if (j.contains("dyn"))
        return CelType::dyn();
    if (j.contains("error"))
        return CelType::simple(K::Error);
    if (j.contains("typeParam"))
        return CelType::param(j["typeParam"].get<std::string>());
    if (j.contains("listType")) {
        auto element = toType(j["listType"].value("elemType", json::object()));
        return element ? std::optional(CelType::list(*element)) : std::nullopt;
    }
    if (j.contains("mapType")) {
        auto key = toType(j["mapType"].value("keyType", json::object()));
        auto value = toType(j["mapType"].value("valueType", json::object()));
        return key && value ? std::optional(CelType::map(*key, *value)) : std::nullopt;
    }
    if (j.contains("type")) {
        if (j["type"].empty())
            return CelType::typeOf(CelType::dyn());
        auto t = toType(j["type"]);
        return t ? std::optional(CelType::typeOf(*t)) : std::nullopt;
    }
    if (j.contains("abstractType")) {
        const json &a = j["abstractType"];
        std::vector<CelType> params;
        for (const json &p : a.value("parameterTypes", json::array())) {
            auto t = toType(p);
            if (!t)
                return std::nullopt;
            params.push_back(*t);
        }
        const std::string name = a.value("name", "");
        if (name == "optional_type" && params.size() == 1)
            return CelType::optional(params[0]);
        return CelType::opaque(name, std::move(params));
    }
    return std::nullopt;
}

struct Outcome
{
    enum { Pass, Fail, Skip } status = Fail;
    std::string detail;
};

// Adds the test's declarations (type_env) to the checker's and the runtime's environment.
std::string declare(const json &t, Declarations &decls, Environment &env)
{
    for (const json &decl : t.value("typeEnv", json::array())) {
        const std::string name = decl.value("name", "");
        if (decl.contains("ident")) {
            auto type = toType(decl["ident"].value("type", json::object()));
            if (!type)
                return "unsupported declaration of " + name;
            decls.addVariable(name, *type);
            env.addVariable(name);
        } else if (decl.contains("function")) {
            for (const json &o : decl["function"].value("overloads", json::array())) {
                FunctionDecl f;
                f.name = name;
                f.receiver = o.value("isInstanceFunction", false);
                for (const json &p : o.value("params", json::array())) {
                    auto type = toType(p);
                    if (!type)
                        return "unsupported declaration of " + name;
                    f.params.push_back(*type);
                }
                auto result = toType(o.value("resultType", json::object()));
                if (!result)
                    return "unsupported declaration of " + name;
                f.result = *result;
                decls.addFunction(std::move(f));
            }
        }
    }
    return {};
}

// The messages of the errors a test expects (eval_error), if it names them.
std::vector<std::string> expectedMessages(const json &t)
{
    std::vector<std::string> out;
    if (t.contains("evalError")) {
        for (const json &e : t["evalError"].value("errors", json::array())) {
            if (e.contains("message"))
                out.push_back(e["message"].get<std::string>());
        }
    }
    return out;
}

Outcome runTest(const json &t)
{
    const std::string expr = t.value("expr", "");
    if (expr.find("TestAllTypes") != std::string::npos
        || t.value("container", "").find("proto") != std::string::npos || needsMessages(t))
        return { Outcome::Skip, "needs protobuf message types" };

    Environment env = Environment::standard();
    env.setContainer(t.value("container", ""));
    Declarations decls = Declarations::standard();
    if (const std::string problem = declare(t, decls, env); !problem.empty())
        return { Outcome::Fail, problem };
    std::map<size_t, Value> bound;
    if (t.contains("bindings")) {
        for (const auto &[name, ev] : t["bindings"].items()) {
            const size_t index = env.addVariable(name);
            auto v = toValue(ev.value("value", json::object()));
            if (!v)
                return { Outcome::Fail, "unsupported binding value for " + name };
            bound[index] = *v;
        }
    }
    std::vector<Value> values(env.variableCount());
    for (auto &[i, v] : bound)
        values[i] = v;

    const bool expectError = t.contains("evalError") || t.contains("anyEvalErrors");
    ParseOptions parseOptions;
    parseOptions.enableMacros = !t.value("disableMacros", false);
    std::vector<Diagnostic> diagnostics;
    std::optional<ParsedExpr> parsed = parse(expr, parseOptions, &diagnostics);
    if (!parsed)
        return { Outcome::Fail, "parse error: " + diagnostics.front().message };

    // A check error fails the test, as in cel-go's runner, unless the test expects an error:
    // then the checker must have found it, in cel-go's words when the test gives them.
    const bool checked = !t.value("disableCheck", false);
    std::optional<CelType> deduced;
    if (checked) {
        const CheckedExpr c = check(*parsed, decls, env, &diagnostics);
        if (!c.ok) {
            const std::string &message = diagnostics.front().message;
            if (expectError && expectedMessages(t).empty())
                return { Outcome::Pass, {} };
            for (const std::string &m : expectedMessages(t)) {
                if (message == m)
                    return { Outcome::Pass, {} };
            }
            return { Outcome::Fail, "check error: " + message };
        }
        deduced = c.resultType;
    }
    if (t.contains("typedResult")) {
        if (!deduced)
            return { Outcome::Fail, "typed result without type checking" };
        auto want = toType(t["typedResult"].value("deducedType", json::object()));
        if (!want)
            return { Outcome::Fail, "unsupported expected type" };
        if (*want != *deduced)
            return { Outcome::Fail,
                "deduced type " + deduced->toString() + ", want " + want->toString() };
    }
    if (t.value("checkOnly", false))
        return { Outcome::Pass, {} };

    PlanOptions planOptions;
    planOptions.reportUnresolved = checked;
    auto program = plan(env, *parsed, &diagnostics, planOptions);
    if (!program)
        return { Outcome::Fail, "engine fault: " + program.error().message.toStdString() };
    if (!program->isValid()) {
        if (expectError && !checked)
            return { Outcome::Pass, {} };
        return { Outcome::Fail, "compile error: " + diagnostics.front().message };
    }
    const Value result = program->evaluate(values);
    if (expectError) {
        if (result.isError())
            return { Outcome::Pass, {} };
        return { Outcome::Fail, "expected an error, got " + result.debugString() };
    }
    Value expected = Value::boolean(true);
    const json *value = t.contains("value") ? &t["value"]
        : t.contains("typedResult") && t["typedResult"].contains("result")
        ? &t["typedResult"]["result"]
        : nullptr;
    if (value) {
        auto v = toValue(*value);
        if (!v)
            return { Outcome::Fail, "unsupported expected value" };
        expected = *v;
    }
    if (result.isError())
        return { Outcome::Fail, "unexpected error: " + std::string(result.asString()) };
    if (!sameValue(result, expected))
        return { Outcome::Fail,
            "got " + result.debugString() + ", want " + expected.debugString() };
    return { Outcome::Pass, {} };
}

std::set<std::string> readList(const fs::path &path)
{
    std::set<std::string> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.front() == '#')
            continue;
        out.insert(line.substr(0, line.find(' ')));
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::cerr << "usage: cel_conformance <cel-conformance folder> [--known-failures FILE]\n";
        return 2;
    }
    fs::path root = argv[1];
    fs::path knownPath;
    fs::path writePath;
    std::string filter;
    bool verbose = false;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--known-failures" && i + 1 < argc)
            knownPath = argv[++i];
        else if (arg == "--write-known-failures" && i + 1 < argc)
            writePath = argv[++i];
        else if (arg == "--filter" && i + 1 < argc)
            filter = argv[++i];
        else if (arg == "--verbose")
            verbose = true;
    }
    const fs::path jsonDir = root / "json";
    if (!fs::is_directory(jsonDir)) {
        constexpr int kSkipped = 77;
        std::cout << "skipped: no CEL conformance suites at " << jsonDir.string()
                  << " (cel-spec's tests/simple as JSON, from the reference data in "
                     "../shared/upstream; configure with -DDRA_SHARED_DIR=DIR for another place)\n";
        return kSkipped;
    }
    const std::set<std::string> known
        = knownPath.empty() ? std::set<std::string> {} : readList(knownPath);
    std::vector<fs::path> files;
    std::set<std::string> stems;
    for (const auto &entry : fs::directory_iterator(jsonDir)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".json" && name.front() != '_') {
            files.push_back(entry.path());
            stems.insert(entry.path().stem().string());
        }
    }
    // Suites that exist only in text format (network_ext) count too.
    const fs::path textDir = root / "textproto";
    if (fs::is_directory(textDir)) {
        for (const auto &entry : fs::directory_iterator(textDir)) {
            const std::string stem = entry.path().stem().string();
            if (entry.path().extension() == ".textproto" && !stems.count(stem)
                && !stems.count(stem + "s"))
                files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end(),
        [](const fs::path &a, const fs::path &b) { return a.filename() < b.filename(); });

    int passed = 0, failed = 0, skipped = 0;
    std::vector<std::string> failures;
    std::vector<std::string> unexpected;
    for (const fs::path &file : files) {
        std::ifstream in(file);
        json doc;
        if (file.extension() == ".textproto") {
            std::stringstream text;
            text << in.rdbuf();
            doc = textprotoToJson(text.str());
        } else {
            doc = json::parse(in, nullptr, false);
        }
        if (doc.is_discarded()) {
            std::cout << file.filename().string() << ": unreadable JSON\n";
            ++failed;
            continue;
        }
        const std::string fileName = doc.value("name", file.stem().string());
        for (const json &section : doc.value("suites", json::array())) {
            int p = 0, f = 0, s = 0;
            const std::string sectionName = section.value("name", "");
            for (const json &test : section.value("tests", json::array())) {
                const json &original = test.contains("original") ? test["original"] : test;
                const std::string id
                    = fileName + "/" + sectionName + "/" + original.value("name", "");
                if (!filter.empty() && id.find(filter) == std::string::npos)
                    continue;
                const Outcome o = runTest(original);
                if (o.status == Outcome::Pass) {
                    ++p;
                    if (known.count(id))
                        unexpected.push_back(id + " passes now: remove it from the known failures");
                } else if (o.status == Outcome::Skip) {
                    ++s;
                } else {
                    ++f;
                    failures.push_back(id + " # " + o.detail);
                    if (!known.count(id) && !knownPath.empty())
                        unexpected.push_back(id + " fails: " + o.detail);
                    if (verbose)
                        std::cout << "  FAIL " << id << ": " << original.value("expr", "") << " -> "
                                  << o.detail << "\n";
                }
            }
            if (p + f + s)
                std::cout << fileName << "/" << sectionName << ": " << p << " passed, " << f
                          << " failed, " << s << " skipped\n";
            passed += p;
            failed += f;
            skipped += s;
        }
    }
    if (!writePath.empty()) {
        std::ofstream out(writePath);
        out << "# CEL conformance tests we do not pass yet: <file>/<section>/<test> # reason.\n"
               "# This list may only shrink; cel_conformance fails when it is out of date.\n";
        for (const std::string &f : failures)
            out << f << "\n";
    }
    for (const std::string &u : unexpected)
        std::cout << "UNEXPECTED: " << u << "\n";
    std::cout << "conformance: " << passed << " passed, " << failed << " failed, " << skipped
              << " skipped\n";
    return unexpected.empty() ? 0 : 1;
}
