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
        addValue(columnKey(DevicePath::Kind::Driver, {}, {}), i, encoding);
        encoding.assign(1, device.allowMultipleAllocations ? 'T' : 'F');
        addValue(columnKey(DevicePath::Kind::AllowMultipleAllocations, {}, {}), i, encoding);
        for (const DeviceView::AttributeDomain &domain : device.attributeDomains()) {
            for (const auto &entry : domain.entries) {
                encoding.clear();
                appendAttributeKey(&entry.value, encoding);
                addValue(
                    columnKey(DevicePath::Kind::Attribute, domain.name, entry.name), i, encoding);
            }
        }
        for (const DeviceView::CapacityDomain &domain : device.capacityDomains()) {
            for (const auto &entry : domain.entries) {
                encoding.clear();
                appendCapacityKey(&entry.value, encoding);
                addValue(
                    columnKey(DevicePath::Kind::Capacity, domain.name, entry.name), i, encoding);
            }
        }
    }
    // The encodings served only to intern; a sweep needs the ids.
    for (auto &[key, column] : m_columns)
        column.idByEncoding.clear();
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

void DeviceTable::addValue(const std::string &key, size_t device, const std::string &encoding)
{
    auto found = m_columns.find(key);
    if (found == m_columns.end()) {
        found = m_columns.emplace(key, Column {}).first;
        found->second.ids.assign(m_devices.size(), 0);
    }
    Column &column = found->second;
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

uint32_t DeviceTable::distinctValues(const DevicePath &path) const
{
    const uint32_t *ids = column(path);
    uint32_t most = 0;
    for (size_t i = 0; ids && i < m_devices.size(); ++i)
        most = std::max(most, ids[i]);
    return most;
}

} // namespace dra::cel
