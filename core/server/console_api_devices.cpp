// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_devices.h"

#include <algorithm>
#include <array>
#include <charconv>

#include <nlohmann/json.hpp>

#include "core/inventory/device_health.h"
#include "core/inventory/selector_sweep.h"
#include "core/server/console_api_json.h"

namespace dra::server::console {

namespace {

using nlohmann::json;

enum Column { Name, Node, Driver, Pool, Type, Product, Memory, State, Holder, Pods, ColumnCount };

constexpr std::array<std::string_view, ColumnCount> kColumns { "name", "node", "driver", "pool",
    "type", "product", "memory", "state", "holder", "pods" };

std::string lowered(std::string text)
{
    for (char &c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// A cell as the desktop's device table shows it.
std::string cellText(const inventory::Snapshot &snapshot, const inventory::Device &device,
    std::span<const inventory::DeviceHold> holds, int column)
{
    switch (Column(column)) {
    case Name:
        return device.key.device;
    case Node:
        return device.node.empty() ? std::string("(network)") : device.node;
    case Driver:
        return device.key.driver;
    case Pool:
        return device.key.pool;
    case Type:
        return device.type();
    case Product: {
        std::string profile = device.profile();
        return profile.empty() ? device.productName() : profile;
    }
    case Memory: {
        const model::Quantity *memory = device.capacity("memory");
        return memory ? memory->toString() : std::string();
    }
    case State:
        return std::string(inventory::deviceStateName(snapshot.state(device)));
    case Holder: {
        std::string text;
        for (const inventory::DeviceHold &hold : holds) {
            text += text.empty() ? "" : ", ";
            text += hold.claim.ns + "/" + hold.claim.name + (hold.adminAccess ? " (admin)" : "");
        }
        return text;
    }
    case Pods: {
        std::string text;
        for (const inventory::DeviceHold &hold : holds)
            for (const std::string &pod : hold.pods) {
                text += text.empty() ? "" : ", ";
                text += pod;
            }
        return text;
    }
    case ColumnCount:
        break;
    }
    return {};
}

Result<size_t> parseCount(const QueryParams &query, std::string_view name, size_t fallback)
{
    const std::optional<std::string> text = query.value(name);
    if (!text || text->empty())
        return fallback;
    size_t value = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc() || end != text->data() + text->size())
        return fail(common::Error::Code::Invalid,
            QStringLiteral("%1: \"%2\" is not a number")
                .arg(QString::fromUtf8(name.data(), qsizetype(name.size())),
                    QString::fromStdString(*text)));
    return value;
}

std::vector<std::string> splitWords(const std::string &text)
{
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!word.empty())
                words.push_back(lowered(std::move(word)));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        words.push_back(lowered(std::move(word)));
    return words;
}

} // namespace

std::span<const std::string_view> deviceColumnNames()
{
    return kColumns;
}

Result<DeviceQuery> parseDeviceQuery(const QueryParams &query)
{
    DeviceQuery parsed;
    parsed.words = query.value("q").value_or("");
    parsed.selector = query.value("selector").value_or("");
    parsed.node = query.value("node");
    parsed.sort = query.value("sort").value_or("");
    if (!parsed.sort.empty()
        && std::find(kColumns.begin(), kColumns.end(), parsed.sort) == kColumns.end())
        return fail(common::Error::Code::Invalid,
            QStringLiteral("sort: no column \"%1\" (name, node, driver, pool, type, product, "
                           "memory, state, holder, pods)")
                .arg(QString::fromStdString(parsed.sort)));
    const std::string order = query.value("order").value_or("asc");
    if (order != "asc" && order != "desc")
        return fail(common::Error::Code::Invalid,
            QStringLiteral("order: \"%1\" is neither asc nor desc")
                .arg(QString::fromStdString(order)));
    parsed.descending = order == "desc";
    Result<size_t> offset = parseCount(query, "offset", 0);
    if (!offset)
        return fail(offset.error());
    Result<size_t> limit = parseCount(query, "limit", 100);
    if (!limit)
        return fail(limit.error());
    parsed.offset = *offset;
    parsed.limit = std::min(*limit, kMaxPageRows);
    return parsed;
}

json deviceRowJson(const inventory::Snapshot &snapshot, const inventory::Device &device)
{
    const auto holds = snapshot.holds(device.key);
    json row = { { "key",
        { { "driver", device.key.driver }, { "pool", device.key.pool },
            { "device", device.key.device } } } };
    for (int column = 0; column < ColumnCount; ++column)
        row[std::string(kColumns[size_t(column)])] = cellText(snapshot, device, holds, column);
    row["partition"] = device.isPartition();
    return row;
}

json deviceDetailsJson(const inventory::Snapshot &snapshot, const inventory::Device &device)
{
    json details = deviceRowJson(snapshot, device);
    details["slice"] = device.slice;
    json attributes = json::object();
    for (const auto &domain : device.view.attributeDomains())
        for (const auto &entry : domain.entries) {
            const std::string name = domain.name + "/" + entry.name;
            attributes[name] = device.attributeText(name);
        }
    details["attributes"] = std::move(attributes);
    json capacity = json::object();
    for (const auto &domain : device.view.capacityDomains())
        for (const auto &entry : domain.entries)
            capacity[domain.name + "/" + entry.name] = entry.value.toString();
    details["capacity"] = std::move(capacity);
    // The counters it consumes, beside what the pool has left of them.
    json counters = json::array();
    const auto usage = snapshot.counterUsage(device.key.driver, device.key.pool);
    for (const model::DeviceCounterConsumption &consumption : device.consumesCounters) {
        const inventory::CounterSetUsage *set = nullptr;
        for (const inventory::CounterSetUsage &candidate : usage)
            if (candidate.name == consumption.counterSet)
                set = &candidate;
        for (const auto &[name, quantity] : consumption.counters) {
            json counter = { { "counterSet", consumption.counterSet }, { "counter", name },
                { "consumes", quantity.toString() } };
            if (const inventory::CounterUsage *used = set ? set->counter(name) : nullptr) {
                counter["total"] = used->total.toString();
                counter["used"] = used->consumed.toString();
            }
            counters.push_back(std::move(counter));
        }
    }
    details["counters"] = std::move(counters);
    // Its health as the kubelet reports it for the containers using it.
    json health = json::array();
    for (const inventory::DeviceHealthReport &report :
        inventory::healthOf(inventory::deviceHealthReports(snapshot), device.key))
        health.push_back(inventory::toJson(report));
    details["health"] = std::move(health);
    json taints = json::array();
    for (const model::DeviceTaint &taint : snapshot.effectiveTaints(device))
        taints.push_back({ { "key", taint.key }, { "value", taint.value },
            { "effect", taint.effect }, { "timeAdded", taint.timeAdded } });
    details["taints"] = std::move(taints);
    json holders = json::array();
    for (const inventory::DeviceHold &hold : snapshot.holds(device.key))
        holders.push_back(
            { { "claim", { { "namespace", hold.claim.ns }, { "name", hold.claim.name } } },
                { "request", hold.request }, { "adminAccess", hold.adminAccess },
                { "shareID", hold.shareID }, { "pods", hold.pods } });
    details["holders"] = std::move(holders);
    if (const inventory::SliceInfo *slice = snapshot.slice(device.slice)) {
        json sliceJson = { { "name", slice->name }, { "generation", slice->generation },
            { "resourceSliceCount", slice->resourceSliceCount }, { "stale", slice->stale },
            { "labels", json::object() } };
        if (Result<model::Object> object = snapshot.sliceObject(slice->name))
            for (const auto &[key, value] : object->meta.labels)
                sliceJson["labels"][key] = value;
        details["sliceInfo"] = std::move(sliceJson);
    }
    if (const inventory::Pool *pool = snapshot.pool(device.key.driver, device.key.pool))
        details["poolStatus"] = { { "complete", pool->complete() }, { "valid", pool->valid() },
            { "generation", pool->generation }, { "slices", pool->slices.size() } };
    return details;
}

struct DeviceTable::Order
{
    inventory::SnapshotPtr snapshot;
    DeviceQuery query; // offset and limit aside
    std::vector<const inventory::Device *> rows;
    json selector; // null without one
};

std::shared_ptr<const std::vector<std::string>> DeviceTable::searchTexts(
    const inventory::SnapshotPtr &snapshot)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_textsOf == snapshot)
            return m_texts;
    }
    auto texts = std::make_shared<std::vector<std::string>>();
    texts->reserve(snapshot->devices().size());
    for (const inventory::Device *device : snapshot->devices()) {
        const auto holds = snapshot->holds(device->key);
        std::string text;
        for (int column = 0; column < ColumnCount; ++column)
            text += cellText(*snapshot, *device, holds, column) + "\n";
        texts->push_back(lowered(std::move(text)));
    }
    std::lock_guard lock(m_mutex);
    m_textsOf = snapshot;
    m_texts = texts;
    return texts;
}

std::shared_ptr<const DeviceTable::Order> DeviceTable::orderOf(
    const inventory::SnapshotPtr &snapshot, const DeviceQuery &query)
{
    const auto sameQuery = [&](const Order &order) {
        return order.snapshot == snapshot && order.query.words == query.words
            && order.query.selector == query.selector && order.query.node == query.node
            && order.query.sort == query.sort && order.query.descending == query.descending;
    };
    {
        std::lock_guard lock(m_mutex);
        for (const auto &order : m_orders)
            if (sameQuery(*order))
                return order;
    }
    auto order = std::make_shared<Order>();
    order->snapshot = snapshot;
    order->query = query;
    const auto &devices = snapshot->devices();
    std::vector<char> keep(devices.size(), 1);
    if (query.node) {
        for (size_t i = 0; i < devices.size(); ++i)
            keep[i] = devices[i]->node == *query.node;
    }
    if (!query.selector.empty()) {
        const inventory::SelectorSweep sweep = inventory::sweepSelector(*snapshot, query.selector);
        std::vector<char> matched(devices.size(), 0);
        size_t next = 0; // matches come in snapshot order
        for (const inventory::Device *device : sweep.matches) {
            while (next < devices.size() && devices[next] != device)
                ++next;
            if (next < devices.size())
                matched[next++] = 1;
        }
        for (size_t i = 0; i < devices.size(); ++i)
            keep[i] = keep[i] && sweep.valid && matched[i];
        order->selector = { { "expression", query.selector }, { "valid", sweep.valid },
            { "matches", sweep.matches.size() }, { "runtimeErrors", sweep.runtimeErrors },
            { "firstRuntimeError", sweep.firstRuntimeError },
            { "diagnostics", diagnosticsJson(sweep.diagnostics) } };
    }
    const std::vector<std::string> words = splitWords(query.words);
    std::shared_ptr<const std::vector<std::string>> texts;
    if (!words.empty())
        texts = searchTexts(snapshot);
    for (size_t i = 0; i < devices.size(); ++i) {
        if (!keep[i])
            continue;
        if (texts && !std::all_of(words.begin(), words.end(), [&](const std::string &word) {
                return (*texts)[i].find(word) != std::string::npos;
            }))
            continue;
        order->rows.push_back(devices[i]);
    }
    if (!query.sort.empty()) {
        const int column
            = int(std::find(kColumns.begin(), kColumns.end(), query.sort) - kColumns.begin());
        // Each row's key once, not once per comparison.
        struct Keyed
        {
            double number = 0;
            bool hasNumber = false;
            std::string text;
            const inventory::Device *device;
        };
        std::vector<Keyed> keyed;
        keyed.reserve(order->rows.size());
        for (const inventory::Device *device : order->rows) {
            Keyed key { .device = device };
            if (column == Memory) {
                if (const model::Quantity *memory = device->capacity("memory")) {
                    key.number = memory->asApproximateDouble();
                    key.hasNumber = true;
                }
            } else {
                key.text
                    = lowered(cellText(*snapshot, *device, snapshot->holds(device->key), column));
            }
            keyed.push_back(std::move(key));
        }
        // Empty cells last in either direction, as in the desktop's table.
        std::stable_sort(keyed.begin(), keyed.end(), [&](const Keyed &a, const Keyed &b) {
            const bool aEmpty = column == Memory ? !a.hasNumber : a.text.empty();
            const bool bEmpty = column == Memory ? !b.hasNumber : b.text.empty();
            if (aEmpty != bEmpty)
                return bEmpty;
            if (column == Memory)
                return query.descending ? a.number > b.number : a.number < b.number;
            return query.descending ? a.text > b.text : a.text < b.text;
        });
        for (size_t i = 0; i < keyed.size(); ++i)
            order->rows[i] = keyed[i].device;
    }
    std::lock_guard lock(m_mutex);
    m_orders.insert(m_orders.begin(), order);
    if (m_orders.size() > 4)
        m_orders.pop_back();
    // Orders of older snapshots are of no use once a newer one is asked for.
    std::erase_if(
        m_orders, [&](const auto &kept) { return kept->snapshot->rev() < snapshot->rev(); });
    return order;
}

json DeviceTable::page(const inventory::SnapshotPtr &snapshot, const DeviceQuery &query)
{
    const std::shared_ptr<const Order> order = orderOf(snapshot, query);
    json rows = json::array();
    const size_t first = std::min(query.offset, order->rows.size());
    const size_t last = std::min(first + query.limit, order->rows.size());
    for (size_t i = first; i < last; ++i)
        rows.push_back(deviceRowJson(*snapshot, *order->rows[i]));
    json page = { { "rev", snapshot->rev() }, { "total", snapshot->devices().size() },
        { "matched", order->rows.size() }, { "offset", first }, { "limit", query.limit },
        { "sort", query.sort }, { "order", query.descending ? "desc" : "asc" },
        { "columns", kColumns }, { "rows", std::move(rows) } };
    if (!order->selector.is_null())
        page["selector"] = order->selector;
    return page;
}

} // namespace dra::server::console
