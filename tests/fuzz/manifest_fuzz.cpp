// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Fuzz target for manifest import (core/model/manifest_reader.h: JSON values and streams,
// multi-document YAML, List expansion) and the YAML decoder under it (core/model/yaml_codec.h:
// Kubernetes' YAML 1.1 scalar resolution typed by schema, anchors, merge keys). The input is a
// manifest file. A document that parses must write back as YAML that parses to the same value.
// The driver: fuzz_driver.h.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <QString>

#include "core/model/manifest_reader.h"
#include "core/model/yaml_codec.h"
#include "tests/fuzz/fuzz_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const QString origin = QStringLiteral("fuzz.yaml");

    const dra::model::ManifestSet set = dra::model::readManifestText(text, origin);
    for (const dra::model::ManifestProblem &problem : set.problems)
        (void)problem.message();
    // `dractl apply` sends what it read as JSON: dump() throws on a string that is not UTF-8.
    for (const dra::model::ManifestDocument &document : set.documents)
        (void)document.object.dump();

    const dra::model::YamlStream stream = dra::model::parseYamlDocuments(text);
    for (const dra::model::YamlError &error : stream.errors)
        (void)error.message(origin);
    for (const dra::model::YamlDocument &document : stream.documents)
        (void)document.value.dump();

    if (const auto value = dra::model::parseYaml(text, origin)) {
        // What jsonToYaml writes reads back as the same value (its documented round trip).
        const std::string yaml = dra::model::jsonToYaml(*value);
        const auto again = dra::model::parseYaml(yaml, origin);
        // (Compared as text too: NaN equals nothing, not even itself.)
        const auto text = [](const nlohmann::json &json) {
            return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        };
        if (!again || (*again != *value && text(*again) != text(*value))) {
            std::fprintf(stderr, "invariant violated: jsonToYaml does not read back as %s\n",
                value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
            std::abort();
        }
    }
    (void)dra::model::parseYamlOrdered(text, origin);
    (void)dra::model::parseYamlAs(text, origin, nullptr);
    return 0;
}

#ifndef DRA_FUZZ_NO_MAIN
int main(int argc, char **argv)
{
    return dra::fuzz::runFuzzDriver(argc, argv,
        { "manifest_fuzz", &LLVMFuzzerTestOneInput,
            dra::fuzz::join(dra::fuzz::yamlTokens(), dra::fuzz::jsonTokens()) });
}
#endif
