// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Constraints over list-typed attributes (KEP-5491): matchAttribute holds when the picked
// devices share at least one value, distinctAttribute when no two share any; a scalar is a
// set of one value.
#include <gtest/gtest.h>

#include "tests/core/alloc/alloc_fixtures.h"

namespace dra::alloc::test {
namespace {

const std::string pcieRoots = "driver-a/pcieRoots";

json roots(const json &value)
{
    return { { "pcieRoots", value } };
}

json stringRoot(const std::string &root)
{
    return roots({ { "string", root } });
}

json stringRoots(std::vector<std::string> list)
{
    return roots({ { "strings", list } });
}

// Two requests of one device each, on a slice with `first` and `second`.
Fixture twoDevices(const json &constraint, const json &first, const json &second)
{
    Fixture f;
    f.claims
        = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) }, { constraint }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, first), device(device2, {}, second) }) };
    return f;
}

} // namespace

TEST(AllocatorListAttributeTest, MatchAttributeAcceptsAStringAndAListSharingIt)
{
    Fixture f = twoDevices(matchAttribute(pcieRoots), stringRoot("pci0000:40"),
        stringRoots({ "pci0000:00", "pci0000:40" }));
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

TEST(AllocatorListAttributeTest, MatchAttributeAcceptsListsWithOneCommonValue)
{
    Fixture f = twoDevices(
        matchAttribute(pcieRoots), stringRoots({ "a", "b" }), stringRoots({ "b", "c" }));
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

TEST(AllocatorListAttributeTest, MatchAttributeRejectsListsWithNoCommonValue)
{
    Fixture f = twoDevices(
        matchAttribute(pcieRoots), stringRoots({ "a", "b" }), stringRoots({ "c", "d" }));
    expectUnfit(f);
}

// Every picked device must share the same value: pairwise overlaps are not enough.
TEST(AllocatorListAttributeTest, MatchAttributeNeedsOneValueCommonToAllDevices)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 3) }, { matchAttribute(pcieRoots) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, stringRoots({ "a", "b" })),
            device(device2, {}, stringRoots({ "b", "c" })),
            device(device3, {}, stringRoots({ "c", "a" })) }) };
    expectUnfit(f);
}

// Values of different types never match: the int 1 is not the string "1".
TEST(AllocatorListAttributeTest, MatchAttributeComparesTypedValues)
{
    Fixture f = twoDevices(
        matchAttribute(pcieRoots), roots({ { "ints", { 1, 2 } } }), stringRoots({ "1", "2" }));
    expectUnfit(f);
    Fixture ints = twoDevices(
        matchAttribute(pcieRoots), roots({ { "ints", { 1, 2 } } }), roots({ { "int", 2 } }));
    expectAllocated(
        ints, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
}

// The search backtracks past a device whose values leave nothing in common with the next.
TEST(AllocatorListAttributeTest, MatchAttributeRestoresTheCommonValuesOnBacktrack)
{
    Fixture f;
    f.claims = { claim(claim0, { request(req0, classA, 1), request(req1, classA, 1) },
        { matchAttribute(pcieRoots) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, stringRoots({ "a" })), device(device2, {}, stringRoots({ "b", "x" })),
            device(device3, {}, stringRoots({ "x" })) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2", "req-1 driver-a/pool-1/device-3" } });
}

TEST(AllocatorListAttributeTest, DistinctAttributeRejectsOverlappingLists)
{
    Fixture f = twoDevices(
        distinctAttribute(pcieRoots), stringRoots({ "a", "b" }), stringRoots({ "b", "c" }));
    expectUnfit(f);
}

TEST(AllocatorListAttributeTest, DistinctAttributeAcceptsDisjointListsAndScalars)
{
    Fixture f
        = twoDevices(distinctAttribute(pcieRoots), stringRoots({ "a", "b" }), stringRoot("c"));
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2" } });
    Fixture overlapping
        = twoDevices(distinctAttribute(pcieRoots), stringRoots({ "a", "b" }), stringRoot("a"));
    expectUnfit(overlapping);
}

// A device without the attribute still fails either constraint.
TEST(AllocatorListAttributeTest, MissingAttributeFailsAsBefore)
{
    Fixture match = twoDevices(matchAttribute(pcieRoots), stringRoots({ "a" }), json::object());
    expectUnfit(match);
    Fixture distinct
        = twoDevices(distinctAttribute(pcieRoots), stringRoots({ "a" }), json::object());
    expectUnfit(distinct);
}

// Selectors see list attributes and includes() in the simulator too.
TEST(AllocatorListAttributeTest, SelectorsUseIncludes)
{
    Fixture f;
    f.claims = { claim(claim0,
        { request(
            req0, classA, 1, { "device.attributes[\"driver-a\"].pcieRoots.includes(\"c\")" }) }) };
    f.classes = { deviceClass(classA, driverA) };
    f.slices = { slice(slice1, node1, pool1, driverA,
        { device(device1, {}, stringRoots({ "a", "b" })),
            device(device2, {}, stringRoots({ "b", "c" })) }) };
    expectAllocated(f, { { "req-0 driver-a/pool-1/device-2" } });
}

} // namespace dra::alloc::test
