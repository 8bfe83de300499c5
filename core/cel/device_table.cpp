// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/cel/device_table.h"

#include <algorithm>

namespace dra::cel {

DeviceTable::DeviceTable(std::span<const DeviceView *const> devices)
    : m_devices(devices.begin(), devices.end())
{
    std::string encoding;
    for (size_t i = 0; i < m_devices.size(); ++i) {
        const DeviceView &device = *m_devices[i];
        encoding.clear();
        appendDriverKey(device.driver, encoding);
        addValue(DevicePath::Kind::Driver, {}, {}, i, encoding);
        encoding.assign(1, device.allowMultipleAllocations ? 'T' : 'F');
        addValue(DevicePath::Kind::AllowMultipleAllocations, {}, {}, i, encoding);
        addEntries(DevicePath::Kind::Attribute, device.attributeDomains(), i, appendAttributeKey);
        addEntries(DevicePath::Kind::Capacity, device.capacityDomains(), i, appendCapacityKey);
    }
    // The encodings served only to intern; a sweep needs the ids.
    for (auto *columns : { &m_columns, &m_layouts }) {
        for (auto &[key, column] : *columns) {
            column.distinct = static_cast<uint32_t>(column.idByEncoding.size());
            column.idByEncoding.clear();
        }
    }
}

template <typename T, typename AppendValue>
void DeviceTable::addEntries(DevicePath::Kind kind,
    const std::vector<DeviceView::Domain<T>> &domains, size_t device, AppendValue appendValue)
{
    // Names are C identifiers and domains DNS subdomains: NUL and \x01 separate them.
    std::string encoding;
    std::string allNames;
    std::string names;
    for (const DeviceView::Domain<T> &domain : domains) {
        names.clear();
        for (const auto &entry : domain.entries) {
            encoding.clear();
            appendValue(&entry.value, encoding);
            addValue(kind, domain.name, entry.name, device, encoding);
            names += entry.name;
            names += '\0';
        }
        addLayout(kind, domain.name, device, names);
        allNames += domain.name;
        allNames += '\x01';
        allNames += names;
    }
    if (!allNames.empty())
        addLayout(kind, kAllDomains, device, allNames);
}

std::string DeviceTable::columnKey(
    DevicePath::Kind kind, std::string_view domain, std::string_view name)
{
    // Domains are DNS subdomains and names C identifiers: neither holds a NUL.
    std::string key;
    key.reserve(2 + domain.size() + name.size());
    key += static_cast<char>('0' + static_cast<int>(kind));
    key += domain;
    key += '\0';
    key += name;
    return key;
}

std::string DeviceTable::columnKey(const DevicePath &path)
{
    switch (path.kind) {
    case DevicePath::Kind::Driver:
    case DevicePath::Kind::AllowMultipleAllocations:
        return columnKey(path.kind, {}, {});
    case DevicePath::Kind::Attribute:
    case DevicePath::Kind::Capacity:
        return columnKey(path.kind, path.domain, path.name);
    }
    return {};
}

void DeviceTable::addValue(DevicePath::Kind kind, std::string_view domain, std::string_view name,
    size_t device, const std::string &encoding)
{
    const std::string key = columnKey(kind, domain, name);
    auto found = m_columns.find(key);
    if (found == m_columns.end()) {
        found = m_columns
                    .emplace(key, Column { kind, std::string(domain), std::string(name), {}, {} })
                    .first;
        found->second.ids.assign(m_devices.size(), 0);
    }
    intern(found->second, device, encoding);
}

void DeviceTable::addLayout(
    DevicePath::Kind kind, std::string_view domain, size_t device, const std::string &encoding)
{
    const std::string key = columnKey(kind, domain, {});
    auto found = m_layouts.find(key);
    if (found == m_layouts.end()) {
        found = m_layouts.emplace(key, Column { kind, std::string(domain), {}, {}, {} }).first;
        found->second.ids.assign(m_devices.size(), 0);
    }
    intern(found->second, device, encoding);
}

void DeviceTable::intern(Column &column, size_t device, const std::string &encoding)
{
    const auto [id, inserted] = column.idByEncoding.try_emplace(
        encoding, static_cast<uint32_t>(column.idByEncoding.size() + 1));
    (void)inserted;
    column.ids[device] = id->second;
}

const uint32_t *DeviceTable::column(const DevicePath &path) const
{
    const auto found = m_columns.find(columnKey(path));
    return found == m_columns.end() ? nullptr : found->second.ids.data();
}

std::vector<DeviceTable::ColumnRef> DeviceTable::columns(const DevicePath &path) const
{
    if (path.isLeaf()) {
        const auto found = m_columns.find(columnKey(path));
        if (found == m_columns.end())
            return { ColumnRef {} };
        return { ColumnRef { found->second.ids.data(), found->second.distinct } };
    }
    if (path.presenceOnly && path.anyName) {
        const auto found
            = m_layouts.find(columnKey(path.kind, path.anyDomain ? kAllDomains : path.domain, {}));
        if (found == m_layouts.end())
            return { ColumnRef {} };
        return { ColumnRef { found->second.ids.data(), found->second.distinct, true } };
    }
    std::vector<ColumnRef> out;
    for (const auto &[key, column] : m_columns) {
        if (path.covers(column.kind, column.domain, column.name))
            out.push_back({ column.ids.data(), column.distinct });
    }
    return out;
}

uint32_t DeviceTable::distinctValues(const DevicePath &path) const
{
    const auto found = m_columns.find(columnKey(path));
    return found == m_columns.end() ? 0 : found->second.distinct;
}

} // namespace dra::cel
