// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "tests/core/alloc/alloc_fixtures.h"

#include <algorithm>

#include "core/model/object.h"

namespace dra::alloc::test {

namespace {

model::Object decode(const json &object)
{
    Result<model::Object> decoded = model::decodeObject(object);
    EXPECT_TRUE(decoded.has_value())
        << (decoded ? "" : decoded.error().message.toStdString()) << "\n"
        << object.dump();
    return decoded ? std::move(*decoded) : model::Object {};
}

std::string requirementText(const json &requirement)
{
    std::vector<std::string> values;
    for (const json &v : requirement.value("values", json::array()))
        values.push_back(v.get<std::string>());
    std::sort(values.begin(), values.end());
    std::string out = requirement.value("key", "") + " " + requirement.value("operator", "");
    for (const std::string &v : values)
        out += " " + v;
    return out;
}

} // namespace

std::string localNode(const std::string &name)
{
    return "fields: metadata.name In " + name;
}

NodeAllocation Fixture::run()
{
    std::vector<model::Object> objects;
    objects.push_back(decode(nodeObject(node, region)));
    for (const std::vector<json> *list : { &classes, &slices, &extra })
        for (const json &object : *list)
            objects.push_back(decode(object));
    Result<Cluster> cluster = Cluster::build(std::move(objects));
    EXPECT_TRUE(cluster.has_value());
    Session session(*cluster, release::KubernetesRelease { release::newestReleaseMinor(), gates });
    AllocatedState state(*cluster);
    for (const std::string &id : allocated) {
        const size_t a = id.find('/'), b = id.find('/', a + 1);
        state.addExclusive(
            cluster->deviceId(id.substr(0, a), id.substr(a + 1, b - a - 1), id.substr(b + 1)),
            "other");
    }
    for (const auto &[id, capacity] : allocatedCapacity) {
        const size_t a = id.find('/'), b = id.find('/', a + 1);
        ConsumedCapacity consumed;
        for (const auto &[name, amount] : capacity)
            consumed[name] = model::Quantity::parse(amount)->nanoUnits();
        state.addShared(
            cluster->deviceId(id.substr(0, a), id.substr(a + 1, b - a - 1), id.substr(b + 1)),
            "other", consumed);
    }
    std::vector<ClaimToAllocate> toAllocate;
    for (json object : claims) {
        // Upstream's claims have no namespace; the model wants one, the messages should not show
        // it.
        object["metadata"]["namespace"] = "default";
        model::Object decoded = decode(object);
        const auto *spec = decoded.as<model::ResourceClaim>();
        if (spec)
            toAllocate.push_back({ std::string(), decoded.meta.name, spec->spec });
    }
    last = allocateOnNode(session, state, cluster->findNode(node), toAllocate);
    return last;
}

std::vector<std::vector<std::string>> Fixture::results() const
{
    std::vector<std::vector<std::string>> out;
    for (const ClaimResult &claim : last.claims) {
        std::vector<std::string> lines;
        for (const DeviceResult &d : claim.devices) {
            std::string line = d.request + " " + d.driver + "/" + d.pool + "/" + d.name;
            if (d.adminAccess)
                line += " admin";
            if (!d.shareID.empty())
                line += " share";
            for (const auto &[name, amount] : d.consumedCapacity) {
                const model::Quantity::NanoUnits whole = amount / 1'000'000'000;
                line += " " + name + "=" + std::to_string(int64_t(whole));
                if (amount % 1'000'000'000)
                    line += "+";
            }
            if (d.tolerations.is_array())
                line += " tolerations=" + std::to_string(d.tolerations.size());
            if (!d.bindingConditions.empty())
                line += " binding=" + d.bindingConditions.front();
            lines.push_back(std::move(line));
        }
        std::sort(lines.begin(), lines.end());
        out.push_back(std::move(lines));
    }
    return out;
}

std::vector<std::string> Fixture::nodeSelectors() const
{
    std::vector<std::string> out;
    for (const ClaimResult &claim : last.claims) {
        if (claim.nodeSelector.is_null()) {
            out.push_back("<none>");
            continue;
        }
        std::string text;
        for (const json &term : claim.nodeSelector.at("nodeSelectorTerms")) {
            std::vector<std::string> fields, labels;
            for (const json &r : term.value("matchFields", json::array()))
                fields.push_back(requirementText(r));
            for (const json &r : term.value("matchExpressions", json::array()))
                labels.push_back(requirementText(r));
            std::sort(fields.begin(), fields.end());
            std::sort(labels.begin(), labels.end());
            if (!fields.empty()) {
                text += "fields:";
                for (const std::string &f : fields)
                    text += " " + f;
            }
            if (!labels.empty()) {
                text += std::string(text.empty() ? "" : "; ") + "labels:";
                for (size_t i = 0; i < labels.size(); ++i)
                    text += (i ? ", " : " ") + labels[i];
            }
        }
        out.push_back(text);
    }
    return out;
}

} // namespace dra::alloc::test

namespace dra::alloc::test {

void expectAllocated(
    Fixture &f, std::vector<std::vector<std::string>> expected, std::vector<std::string> selectors)
{
    const NodeAllocation &result = f.run();
    ASSERT_EQ(result.outcome, NodeAllocation::Outcome::Allocated) << result.error;
    for (std::vector<std::string> &claim : expected)
        std::sort(claim.begin(), claim.end());
    EXPECT_EQ(f.results(), expected);
    if (!selectors.empty()) {
        EXPECT_EQ(f.nodeSelectors(), selectors);
    }
}

void expectUnfit(Fixture &f)
{
    const NodeAllocation &result = f.run();
    EXPECT_EQ(result.outcome, NodeAllocation::Outcome::DoesNotFit) << result.error;
    EXPECT_TRUE(result.claims.empty());
}

void expectError(Fixture &f, const std::string &text)
{
    const NodeAllocation &result = f.run();
    ASSERT_EQ(result.outcome, NodeAllocation::Outcome::Error);
    EXPECT_NE(result.error.find(text), std::string::npos) << result.error;
}

} // namespace dra::alloc::test
