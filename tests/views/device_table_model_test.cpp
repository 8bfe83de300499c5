// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "views/inventory/device_table_model.h"

#include <set>
#include <tuple>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSignalSpy>
#include <QThreadPool>

#include <gtest/gtest.h>

#include "tests/views/views_test_main.h"
#include "views/inventory/device_filter_model.h"

namespace dra::views {
namespace {

// What one object added, changed or deleted on top of `base` changes, as the store announces it.
inventory::ChangeSet changeOf(
    const inventory::SnapshotPtr &base, model::ChangeType type, const test::json &object)
{
    model::CommittedBatch batch;
    batch.cluster = base->cluster();
    for (model::ObjectRecord &record : test::recordsOf(test::listOf({ object })))
        batch.changes.push_back({ type, base->rev() + 1, std::move(record) });
    inventory::ChangeSet changes;
    inventory::applyBatch(base, batch, &changes);
    return changes;
}

TEST(DeviceTableModelTest, OneRowPerDeviceWithStateAndHolder)
{
    const inventory::SnapshotPtr snapshot = test::a100Snapshot();
    DeviceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);
    ASSERT_EQ(model.rowCount(), int(snapshot->devices().size()));
    ASSERT_GT(model.rowCount(), 0);

    int allocated = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const inventory::Device *device = model.deviceAt(row);
        ASSERT_NE(device, nullptr);
        EXPECT_EQ(model.index(row, DeviceTableModel::Name).data().toString().toStdString(),
            device->key.device);
        const QString state = model.index(row, DeviceTableModel::State).data().toString();
        EXPECT_EQ(state.toStdString(), inventory::deviceStateName(snapshot->state(*device)));
        const QString holder = model.index(row, DeviceTableModel::Holder).data().toString();
        if (!snapshot->holds(device->key).empty()) {
            ++allocated;
            const auto &claim = snapshot->holds(device->key).front().claim;
            EXPECT_TRUE(holder.contains(QString::fromStdString(claim.ns + "/" + claim.name)));
        } else {
            EXPECT_TRUE(holder.isEmpty());
        }
    }
    EXPECT_GT(allocated, 0) << "the a100-mig preset allocates some devices to its claims";
}

TEST(DeviceTableModelTest, RemovedSliceRemovesItsRowsWithoutAReset)
{
    const inventory::SnapshotPtr snapshot = test::a100Snapshot();
    DeviceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(snapshot);
    const int before = model.rowCount();

    const inventory::SliceInfo &slice = snapshot->slices().front();
    model::CommittedBatch batch;
    batch.cluster = snapshot->cluster();
    model::ObjectRecord record;
    record.key = { "resource.k8s.io", "ResourceSlice", "", slice.name };
    batch.changes.push_back({ model::ChangeType::Deleted, snapshot->rev() + 1, record });
    batch.summary.deleted = 1;
    inventory::ChangeSet changes;
    const inventory::SnapshotPtr next = inventory::applyBatch(snapshot, batch, &changes);
    ASSERT_FALSE(changes.devicesRemoved.empty());

    int resets = 0;
    QObject::connect(&model, &QAbstractItemModel::modelReset, [&] { ++resets; });
    model.applyChanges(changes);
    EXPECT_EQ(resets, 0);
    EXPECT_EQ(model.rowCount(), before - int(changes.devicesRemoved.size()));
    EXPECT_EQ(model.rowCount(), int(next->devices().size()));
    for (const auto &key : changes.devicesRemoved)
        EXPECT_EQ(model.rowOf(key), -1);
}

TEST(DeviceFilterModelTest, TextFilterNeedsEveryWordAndSortsMemoryByValue)
{
    DeviceTableModel model;
    model.reset(test::mixedSnapshot());
    DeviceFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.setText(QStringLiteral("H100 free"));
    ASSERT_GT(filter.rowCount(), 0);
    for (int row = 0; row < filter.rowCount(); ++row) {
        bool h100 = false;
        for (int column = 0; column < DeviceTableModel::ColumnCount; ++column)
            h100 = h100
                || filter.index(row, column)
                       .data()
                       .toString()
                       .contains(QStringLiteral("h100"), Qt::CaseInsensitive);
        EXPECT_TRUE(h100);
        EXPECT_EQ(
            filter.index(row, DeviceTableModel::State).data().toString(), QStringLiteral("free"));
    }
    EXPECT_LT(filter.rowCount(), model.rowCount());
    filter.setText({});
    filter.sort(DeviceTableModel::Memory, Qt::DescendingOrder);
    double previous = 1e30;
    for (int row = 0; row < filter.rowCount(); ++row) {
        const QVariant value
            = filter.index(row, DeviceTableModel::Memory).data(DeviceTableModel::SortRole);
        if (!value.isValid())
            continue;
        EXPECT_LE(value.toDouble(), previous);
        previous = value.toDouble();
    }
}

// The filter keeps what it sorts and filters by per row: a change to the table must reach it
// before the proxy re-sorts, or rows would land by their old values.
TEST(DeviceFilterModelTest, SortedAndFilteredRowsFollowAllocationChanges)
{
    using test::json;
    const json node = test::nodeObject("n1");
    const json slice = test::sliceObject("n1", "n1",
        { test::gpuDevice("gpu-0"), test::gpuDevice("gpu-1"), test::gpuDevice("gpu-2"),
            test::gpuDevice("gpu-3") });
    const inventory::SnapshotPtr free = test::snapshotOf(test::listOf({ node, slice }));
    DeviceTableModel model;
    model.reset(free);
    DeviceFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.sort(DeviceTableModel::State, Qt::AscendingOrder);
    filter.setText(QStringLiteral("FREE"));
    ASSERT_EQ(filter.rowCount(), 4);

    // gpu-2 is allocated to a claim.
    const inventory::ChangeSet changes = changeOf(
        free, model::ChangeType::Added, test::claimObject("ml", "train", "n1", { "gpu-2" }, {}));
    ASSERT_TRUE(changes.allocationsChanged);
    model.applyChanges(changes);

    ASSERT_EQ(filter.rowCount(), 3) << "the allocated device no longer matches \"free\"";
    for (int row = 0; row < filter.rowCount(); ++row)
        EXPECT_NE(
            filter.index(row, DeviceTableModel::Name).data().toString(), QStringLiteral("gpu-2"));
    filter.setText({});
    ASSERT_EQ(filter.rowCount(), 4);
    EXPECT_EQ(filter.index(0, DeviceTableModel::Name).data().toString(), QStringLiteral("gpu-2"))
        << "\"allocated\" sorts before \"free\"";
    EXPECT_EQ(
        filter.index(0, DeviceTableModel::State).data().toString(), QStringLiteral("allocated"));
}

// Devices that come and go while the table is sorted and filtered take their place among the
// others by their own values.
TEST(DeviceFilterModelTest, AddedAndRemovedDevicesKeepTheSortAndTheFilter)
{
    using test::json;
    const json node = test::nodeObject("n1");
    const json first
        = test::sliceObject("n1", "n1", { test::gpuDevice("gpu-1"), test::gpuDevice("gpu-3") });
    const inventory::SnapshotPtr before = test::snapshotOf(test::listOf({ node, first }));
    DeviceTableModel model;
    model.reset(before);
    DeviceFilterModel filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    filter.sort(DeviceTableModel::Name, Qt::DescendingOrder);
    filter.setText(QStringLiteral("gpu"));
    const auto names = [&] {
        QStringList shown;
        for (int row = 0; row < filter.rowCount(); ++row)
            shown << filter.index(row, DeviceTableModel::Name).data().toString();
        return shown;
    };
    ASSERT_EQ(names(), (QStringList { QStringLiteral("gpu-3"), QStringLiteral("gpu-1") }));

    const auto apply
        = [&](const inventory::SnapshotPtr &base, model::ChangeType type, const json &object) {
              const inventory::ChangeSet changes = changeOf(base, type, object);
              model.applyChanges(changes);
              return changes.snapshot;
          };
    // A second node's slice arrives: its devices are read and sorted in.
    const json second
        = test::sliceObject("n2", "n2", { test::gpuDevice("gpu-2"), test::gpuDevice("gpu-4") });
    const inventory::SnapshotPtr added = apply(before, model::ChangeType::Added, second);
    EXPECT_EQ(names(),
        (QStringList { QStringLiteral("gpu-4"), QStringLiteral("gpu-3"), QStringLiteral("gpu-2"),
            QStringLiteral("gpu-1") }));
    // The first slice goes: its rows go, the others keep their values.
    apply(added, model::ChangeType::Deleted, first);
    EXPECT_EQ(names(), (QStringList { QStringLiteral("gpu-4"), QStringLiteral("gpu-2") }));
    filter.setText(QStringLiteral("n2 gpu-4"));
    EXPECT_EQ(names(), (QStringList { QStringLiteral("gpu-4") }))
        << "the search text of an added row is its own";
}

QStringList shownNames(const DeviceFilterModel &filter)
{
    QStringList names;
    for (int row = 0; row < filter.rowCount(); ++row)
        names << filter.index(row, DeviceTableModel::Pool).data().toString() + QLatin1Char('/')
                + filter.index(row, DeviceTableModel::Name).data().toString();
    return names;
}

// The search texts read off the GUI thread after a reset filter exactly as those read in place.
TEST(DeviceFilterModelTest, SearchTextsReadInTheBackgroundFilterAsTheTableReads)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceTableModel model;
    model.reset(snapshot);
    DeviceFilterModel prepared;
    prepared.setSourceModel(&model);
    QSignalSpy ready(&prepared, &DeviceFilterModel::searchPrepared);
    prepared.prepareSearch(snapshot);
    ASSERT_TRUE(ready.wait(30'000));
    DeviceFilterModel inPlace;
    inPlace.setSourceModel(&model);
    for (const QString &words : { QStringLiteral("h100 free"), QStringLiteral("DRA.NET"),
             QStringLiteral("allocated"), QStringLiteral("a100 mig 9728mi") }) {
        prepared.setText(words);
        inPlace.setText(words);
        EXPECT_GT(inPlace.rowCount(), 0) << words.toStdString();
        EXPECT_EQ(shownNames(prepared), shownNames(inPlace)) << words.toStdString();
    }
}

// Texts read for a table that has changed since are not used.
TEST(DeviceFilterModelTest, SearchTextsOfAnOlderTableAreDropped)
{
    using test::json;
    const json slice = test::sliceObject("n1", "n1", { test::gpuDevice("gpu-1") });
    const inventory::SnapshotPtr before
        = test::snapshotOf(test::listOf({ test::nodeObject("n1"), slice }));
    DeviceTableModel model;
    model.reset(before);
    DeviceFilterModel filter;
    filter.setSourceModel(&model);
    QSignalSpy ready(&filter, &DeviceFilterModel::searchPrepared);
    filter.prepareSearch(before);
    // Before the texts land (they come through the event loop), gpu-1 is allocated: same rows,
    // other text.
    model.applyChanges(changeOf(
        before, model::ChangeType::Added, test::claimObject("ml", "train", "n1", { "gpu-1" }, {})));
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(ready.count(), 0) << "read for the table before the change";
    filter.setText(QStringLiteral("allocated"));
    EXPECT_EQ(shownNames(filter), QStringList { QStringLiteral("n1/gpu-1") });
}

} // namespace
} // namespace dra::views

namespace dra::views {
namespace {

// Where a device stands in the order admins read the table in: node (network-attached last),
// then GPUs, MIG devices, NICs, the rest. Worked out here from the device's published
// attributes, apart from the console's own classification.
std::tuple<bool, std::string, int> readingOrder(const inventory::Device &device)
{
    const std::string type = device.type();
    int kind = 3;
    if (!device.profile().empty() || type == "mig")
        kind = 1;
    else if (type == "gpu" || (type.empty() && device.key.driver.find("gpu") != std::string::npos))
        kind = 0;
    else if (device.key.driver == "dra.net" || type == "nic")
        kind = 2;
    return { device.node.empty(), device.node, kind };
}

TEST(DeviceTableModelTest, RowsGoByNodeThenGpusMigDevicesNicsOthers)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceTableModel model;
    model.reset(snapshot);
    ASSERT_EQ(model.rowCount(), int(snapshot->devices().size()));
    std::set<int> kinds;
    for (int row = 1; row < model.rowCount(); ++row) {
        const auto before = readingOrder(*model.deviceAt(row - 1));
        const auto here = readingOrder(*model.deviceAt(row));
        kinds.insert(std::get<2>(here));
        EXPECT_LE(before, here) << "row " << row << ": " << model.deviceAt(row)->key.display()
                                << " after " << model.deviceAt(row - 1)->key.display();
    }
    EXPECT_TRUE(kinds.contains(0) && kinds.contains(2))
        << "the mixed demo has GPUs and NICs, so the order is tested";
    EXPECT_EQ(std::get<2>(readingOrder(*model.deviceAt(0))), 0)
        << "the table opens on a GPU, not a NIC";
}

TEST(DeviceTableModelTest, NicsShowTheirInterfacePcieRootAndRdma)
{
    const inventory::SnapshotPtr snapshot = test::mixedSnapshot();
    DeviceTableModel model;
    model.reset(snapshot);
    int nics = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const inventory::Device *device = model.deviceAt(row);
        if (device->key.driver != "dra.net")
            continue;
        ++nics;
        const QString facts = model.index(row, DeviceTableModel::Product).data().toString();
        const std::string ifName = device->attributeText("ifName");
        ASSERT_FALSE(ifName.empty());
        EXPECT_TRUE(facts.contains(QString::fromStdString(ifName))) << facts.toStdString();
        EXPECT_TRUE(facts.contains(
            QString::fromStdString(device->attributeText("resource.kubernetes.io/pcieRoot"))))
            << facts.toStdString();
        EXPECT_EQ(facts.contains(QStringLiteral("RDMA")), device->attributeText("rdma") == "true");
        EXPECT_FALSE(model.index(row, DeviceTableModel::Type).data().toString().isEmpty());
    }
    EXPECT_GT(nics, 0);
}

TEST(DeviceTableModelTest, AddedDevicesTakeTheirPlaceInTheOrder)
{
    using test::json;
    const inventory::SnapshotPtr base
        = test::snapshotOf(test::listOf({ test::nodeObject("n1"), test::nodeObject("n3"),
            test::sliceObject("n1", "n1", { test::gpuDevice("gpu-0"), test::gpuDevice("gpu-1") }),
            test::sliceObject("n3", "n3", { test::gpuDevice("gpu-0") }) }));
    DeviceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.reset(base);
    const inventory::ChangeSet changes = changeOf(base, model::ChangeType::Added,
        test::sliceObject("n2", "n2", { test::gpuDevice("gpu-0"), test::gpuDevice("gpu-1") }));
    ASSERT_EQ(changes.devicesAdded.size(), 2u);
    model.applyChanges(changes);
    QStringList nodes;
    for (int row = 0; row < model.rowCount(); ++row)
        nodes << model.index(row, DeviceTableModel::Node).data().toString();
    EXPECT_EQ(nodes.join(QLatin1Char(' ')), QStringLiteral("n1 n1 n2 n2 n3"));
    for (const auto &key : changes.devicesAdded)
        EXPECT_EQ(model.deviceAt(model.rowOf(key))->key, key) << "the row index follows";
}

} // namespace
} // namespace dra::views
