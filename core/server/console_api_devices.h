// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The web console's device table, computed on the server: rows shaped as the desktop's device
// table shows them, filtered by words or a CEL selector, sorted and cut into pages, so the page
// never downloads the whole inventory.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/common/result.h"
#include "core/inventory/snapshot.h"
#include "core/server/http_message.h"

namespace dra::server::console {

// The table's columns, by the names the API uses in `sort` and in rows.
std::span<const std::string_view> deviceColumnNames();

// GET /console/v1/devices?q=WORDS&selector=CEL&node=N&sort=COLUMN&order=asc|desc&offset=&limit=
struct DeviceQuery
{
    std::string words; // every word must occur in some column, case-insensitively
    std::string selector; // a CEL device selector, evaluated on the server
    std::optional<std::string> node; // one node's devices ("" network-attached)
    std::string sort; // a column name; empty: inventory order
    bool descending = false;
    size_t offset = 0;
    size_t limit = 100; // at most kMaxPageRows
};
inline constexpr size_t kMaxPageRows = 1000;

// The query of a request; a bad sort column, order or number is an Invalid error naming it.
[[nodiscard]] Result<DeviceQuery> parseDeviceQuery(const QueryParams &query);

// One row of the table: key, the columns, and the state for colouring.
nlohmann::json deviceRowJson(const inventory::Snapshot &snapshot, const inventory::Device &device);

// Everything the details pane shows: attributes, capacity, counters (with what allocated
// devices use of the pool's counter sets), taints (published and from DeviceTaintRules),
// holders with their pods, the slice with its labels.
nlohmann::json deviceDetailsJson(
    const inventory::Snapshot &snapshot, const inventory::Device &device);

// Pages of the device table. The filtered, sorted order of the last few queries is kept (with
// its snapshot), so scrolling asks only for rows, and the text each device is searched by is
// read once per snapshot. Any thread.
class DeviceTable final
{
public:
    // {rev, total, matched, offset, limit, sort, order, columns, rows, selector?}; `selector`
    // holds the compile diagnostics (errors with line:column, "did you mean" warnings), the
    // match count and runtime errors when the query has one.
    nlohmann::json page(const inventory::SnapshotPtr &snapshot, const DeviceQuery &query);

private:
    struct Order;
    std::shared_ptr<const Order> orderOf(
        const inventory::SnapshotPtr &snapshot, const DeviceQuery &query);
    std::shared_ptr<const std::vector<std::string>> searchTexts(
        const inventory::SnapshotPtr &snapshot);

    std::mutex m_mutex;
    std::vector<std::shared_ptr<const Order>> m_orders; // most recent first
    inventory::SnapshotPtr m_textsOf;
    std::shared_ptr<const std::vector<std::string>> m_texts;
};

} // namespace dra::server::console
