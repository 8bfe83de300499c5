// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cel/device_paths.h"
#include "core/cel/dra_selector.h"

namespace dra::cel {

// The devices of an inventory by column, for sweeping selectors over all of them: for each
// leaf path some device publishes (driver, allowMultipleAllocations, every attribute and
// capacity by domain and name), the value of each device as a small id. Equal ids mean equal
// values to every function a selector can apply (the encodings of appendDevicePathKey()), and
// id 0 means absent. A sweep then reads one column entry per path and device, in device order,
// instead of searching each device's domains. Build it once per inventory snapshot; it borrows
// the device views, which must outlive it. Immutable after construction, so threads share it.
class DeviceTable final
{
public:
    DeviceTable() = default;
    explicit DeviceTable(std::span<const DeviceView *const> devices);

    size_t size() const { return m_devices.size(); }
    const DeviceView &device(size_t index) const { return *m_devices[index]; }
    // The value ids of the leaf `path` by device index, or nullptr when no device publishes it.
    const uint32_t *column(const DevicePath &path) const;
    // A column as a sweep reads it: ids by device index (nullptr: no device publishes the
    // leaf) and how many distinct values it holds (ids run from 1 to that).
    struct ColumnRef
    {
        const uint32_t *ids = nullptr;
        uint32_t distinct = 0;
        // Ids of which names are present (a path reading the presence of every name of a
        // domain, or of all domains), to compare as they are, not as present or absent.
        bool layout = false;
    };
    // The columns of every leaf `path` covers (one leaf, or every domain or name), in an order
    // fixed for the table. A path that reads only which names a domain (or the device) has
    // gets one column of those layouts instead.
    std::vector<ColumnRef> columns(const DevicePath &path) const;
    // How many distinct values a column holds (ids run from 1 to this), for tests.
    uint32_t distinctValues(const DevicePath &path) const;

private:
    struct Column
    {
        DevicePath::Kind kind;
        std::string domain;
        std::string name;
        std::vector<uint32_t> ids; // by device index
        std::unordered_map<std::string, uint32_t> idByEncoding; // while building
        uint32_t distinct = 0;
    };
    static std::string columnKey(const DevicePath &path);
    static std::string columnKey(
        DevicePath::Kind kind, std::string_view domain, std::string_view name);
    void addValue(DevicePath::Kind kind, std::string_view domain, std::string_view name,
        size_t device, const std::string &encoding);
    static void intern(Column &column, size_t device, const std::string &encoding);
    // Every entry of `domains` of one device, and their layouts.
    template <typename T, typename AppendValue>
    void addEntries(DevicePath::Kind kind, const std::vector<DeviceView::Domain<T>> &domains,
        size_t device, AppendValue appendValue);
    // The layout of one domain's names, or with kAllDomains of every domain's.
    void addLayout(
        DevicePath::Kind kind, std::string_view domain, size_t device, const std::string &encoding);
    static constexpr std::string_view kAllDomains = "\x01";

    std::vector<const DeviceView *> m_devices;
    std::unordered_map<std::string, Column> m_columns;
    std::unordered_map<std::string, Column> m_layouts; // by columnKey(kind, domain, {})
};

} // namespace dra::cel
