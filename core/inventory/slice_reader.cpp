// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Loading 40,000 devices is dominated by JSON: the rows' attribute text is read with a skim
// that builds nothing but the CEL view, and of each slice's JSON only the fields the device
// rows lack are looked at.
#include "core/inventory/slice_reader.h"

#include <algorithm>
#include <forward_list>

#include "core/common/json_text.h"
#include "core/inventory/json_skim.h"
#include "core/model/qualified_name.h"

namespace dra::inventory::detail {

namespace {

using common::qs;
using nlohmann::json;

common::Error sliceError(std::string_view slice, const QString &reason)
{
    return common::Error { common::Error::Code::Parse,
        QStringLiteral("ResourceSlice %1: %2").arg(qs(slice), reason) };
}

// The elements of a list-typed attribute ({"ints": [1, 2]}, ...) into `value`; false when the
// value is not a list of that type (a row this build cannot read as one).
bool readAttributeList(JsonSkim &skim, std::string_view type, cel::DeviceAttributeValue &value)
{
    if (skim.peek() != '[') {
        skim.skipValue();
        return false;
    }
    skim.enterArray();
    std::vector<int64_t> ints;
    std::vector<bool> bools;
    std::vector<std::string> texts;
    bool ok = true;
    while (skim.nextElement()) {
        if (type == "ints") {
            int64_t i = 0;
            ok = skim.readInt(&i) && ok;
            ints.push_back(i);
        } else if (type == "bools") {
            bool b = false;
            ok = skim.readBool(&b) && ok;
            bools.push_back(b);
        } else {
            std::string text;
            ok = skim.readString(&text) && ok;
            texts.push_back(std::move(text));
        }
    }
    if (type == "ints")
        value = cel::DeviceAttributeValue::ints(std::move(ints));
    else if (type == "bools")
        value = cel::DeviceAttributeValue::bools(std::move(bools));
    else if (type == "strings")
        value = cel::DeviceAttributeValue::strings(std::move(texts));
    else
        value = cel::DeviceAttributeValue::versions(std::move(texts));
    return ok && skim.ok();
}

// A device row's names: borrowed from the row's text, or held here when a name had escapes.
struct RowNames
{
    std::forward_list<std::string> unescaped; // allocates nothing until a name has escapes

    bool name(std::string_view raw, std::string_view *out)
    {
        if (raw.find('\\') == std::string_view::npos) {
            *out = raw;
            return true;
        }
        std::string &text = unescaped.emplace_front();
        if (!unescapeJsonString(raw, &text))
            return false;
        *out = text;
        return true;
    }
};

// {"domain/name": {"int": 1} | {"string": "x"} | {"ints": [1, 2]} | ...} as the cache's device
// rows hold it.
bool readAttributeRow(std::string_view text, cel::DeviceView &view)
{
    if (text.empty())
        return true;
    JsonSkim skim(text);
    if (!skim.enterObject())
        return false;
    thread_local std::vector<cel::DeviceView::Named<cel::DeviceAttributeValue>> values;
    values.clear();
    RowNames names;
    for (std::string_view key; skim.nextMember(&key);) {
        std::string_view name;
        if (!names.name(key, &name) || !skim.enterObject())
            return false;
        for (std::string_view type; skim.nextMember(&type);) {
            cel::DeviceAttributeValue value;
            bool known = true;
            if (type == "int") {
                value.type = cel::DeviceAttributeValue::Type::Int;
                known = skim.readInt(&value.intValue);
            } else if (type == "bool") {
                value.type = cel::DeviceAttributeValue::Type::Bool;
                known = skim.readBool(&value.boolValue);
            } else if (type == "string") {
                value.type = cel::DeviceAttributeValue::Type::String;
                known = skim.readString(&value.stringValue);
            } else if (type == "version") {
                value.type = cel::DeviceAttributeValue::Type::Version;
                known = skim.readString(&value.stringValue);
            } else if (type == "ints" || type == "bools" || type == "strings"
                || type == "versions") {
                known = readAttributeList(skim, type, value);
            } else {
                skim.skipValue(); // a value type newer than this build
                known = false;
            }
            if (known)
                values.push_back({ name, std::move(value) });
        }
    }
    if (!skim.ok())
        return false;
    view.setAttributes(values);
    return true;
}

// {"domain/name": "80Gi"}.
bool readCapacityRow(std::string_view text, cel::DeviceView &view)
{
    if (text.empty())
        return true;
    JsonSkim skim(text);
    if (!skim.enterObject())
        return false;
    thread_local std::vector<cel::DeviceView::Named<model::Quantity>> values;
    values.clear();
    RowNames names;
    std::string quantity;
    for (std::string_view key; skim.nextMember(&key);) {
        std::string_view name;
        if (!names.name(key, &name) || !skim.readString(&quantity))
            return false;
        Result<model::Quantity> parsed = model::Quantity::parse(quantity);
        if (!parsed)
            return false;
        values.push_back({ name, *parsed });
    }
    if (!skim.ok())
        return false;
    view.setCapacities(values);
    return true;
}

// Parses a sub-value the skim cut out; the text is small (counters, taints, selectors).
bool parseJsonText(std::string_view text, json *out)
{
    *out = json::parse(text.begin(), text.end(), nullptr, false);
    return !out->is_discarded();
}

bool readCounters(const json &set, std::vector<std::pair<std::string, model::Quantity>> *out)
{
    const auto counters = set.find("counters");
    if (counters == set.end() || counters->is_null())
        return true;
    if (!counters->is_object())
        return false;
    for (const auto &[name, counter] : counters->items()) {
        const auto value = counter.is_object() ? counter.find("value") : counter.end();
        if (value == counter.end() || !value->is_string())
            return false;
        Result<model::Quantity> quantity
            = model::Quantity::parse(value->get_ref<const std::string &>());
        if (!quantity)
            return false;
        out->emplace_back(name, *quantity);
    }
    return true;
}

// Reads `text` as a JSON array of objects (null: none), each through `readItem`; false when the
// text is not that shape or an item does not read.
template <typename ReadItem> bool readObjectList(std::string_view text, ReadItem readItem)
{
    json list;
    if (!parseJsonText(text, &list))
        return false;
    if (list.is_null())
        return true;
    if (!list.is_array())
        return false;
    for (const json &item : list) {
        if (!item.is_object() || !readItem(item))
            return false;
    }
    return true;
}

bool readCounterSets(std::string_view text, std::vector<model::CounterSet> *out)
{
    return readObjectList(text, [out](const json &set) {
        model::CounterSet counterSet { common::stringMember(set, "name"), {} };
        if (!readCounters(set, &counterSet.counters))
            return false;
        out->push_back(std::move(counterSet));
        return true;
    });
}

bool readConsumption(std::string_view text, std::vector<model::DeviceCounterConsumption> *out)
{
    return readObjectList(text, [out](const json &item) {
        model::DeviceCounterConsumption consumption { common::stringMember(item, "counterSet"),
            {} };
        if (!readCounters(item, &consumption.counters))
            return false;
        out->push_back(std::move(consumption));
        return true;
    });
}

bool readTaints(std::string_view text, std::vector<model::DeviceTaint> *out)
{
    return readObjectList(text, [out](const json &taint) {
        out->push_back({ common::stringMember(taint, "key"), common::stringMember(taint, "value"),
            common::stringMember(taint, "effect"), common::stringMember(taint, "timeAdded") });
        return true;
    });
}

bool readStrings(JsonSkim &skim, std::vector<std::string> *out)
{
    if (skim.peek() != '[') {
        skim.skipValue();
        return skim.ok();
    }
    skim.enterArray();
    while (skim.nextElement()) {
        std::string value;
        if (!skim.readString(&value))
            return false;
        out->push_back(std::move(value));
    }
    return skim.ok();
}

// What a device publishes besides attributes and capacity.
struct SkimmedDevice
{
    std::string name, nodeName;
    json nodeSelector;
    bool allNodes = false, allowMultipleAllocations = false, bindsToNode = false;
    std::vector<model::DeviceCounterConsumption> consumesCounters;
    std::vector<model::DeviceTaint> taints;
    std::vector<std::string> bindingConditions, bindingFailureConditions;
};

struct SkimmedSlice
{
    std::string driver, nodeName;
    model::ResourcePool pool;
    json nodeSelector;
    bool allNodes = false, perDeviceNodeSelection = false;
    std::vector<model::CounterSet> sharedCounters;
    std::vector<SkimmedDevice> devices;
};

// The members of a device; v1beta1's `basic` wrapper is read as the device itself.
bool skimDeviceMembers(JsonSkim &skim, SkimmedDevice &device)
{
    if (!skim.enterObject())
        return false;
    for (std::string_view key; skim.nextMember(&key);) {
        bool ok = true;
        if (key == "name")
            ok = skim.readString(&device.name);
        else if (key == "basic")
            ok = skimDeviceMembers(skim, device);
        else if (key == "consumesCounters")
            ok = readConsumption(skim.skipValue(), &device.consumesCounters);
        else if (key == "taints")
            ok = readTaints(skim.skipValue(), &device.taints);
        else if (key == "nodeName")
            skim.readString(&device.nodeName);
        else if (key == "nodeSelector")
            ok = parseJsonText(skim.skipValue(), &device.nodeSelector);
        else if (key == "allNodes")
            skim.readBool(&device.allNodes);
        else if (key == "allowMultipleAllocations")
            skim.readBool(&device.allowMultipleAllocations);
        else if (key == "bindsToNode")
            skim.readBool(&device.bindsToNode);
        else if (key == "bindingConditions")
            ok = readStrings(skim, &device.bindingConditions);
        else if (key == "bindingFailureConditions")
            ok = readStrings(skim, &device.bindingFailureConditions);
        else
            skim.skipValue(); // attributes and capacity come from the device rows
        if (!ok || !skim.ok())
            return false;
    }
    return skim.ok();
}

bool skimSpec(JsonSkim &skim, SkimmedSlice &slice)
{
    if (!skim.enterObject())
        return false;
    for (std::string_view key; skim.nextMember(&key);) {
        bool ok = true;
        if (key == "driver") {
            ok = skim.readString(&slice.driver);
        } else if (key == "pool") {
            if (!skim.enterObject())
                return false;
            for (std::string_view field; skim.nextMember(&field);) {
                if (field == "name")
                    skim.readString(&slice.pool.name);
                else if (field == "generation")
                    skim.readInt(&slice.pool.generation);
                else if (field == "resourceSliceCount")
                    skim.readInt(&slice.pool.resourceSliceCount);
                else
                    skim.skipValue();
            }
        } else if (key == "nodeName") {
            skim.readString(&slice.nodeName);
        } else if (key == "nodeSelector") {
            ok = parseJsonText(skim.skipValue(), &slice.nodeSelector);
        } else if (key == "allNodes") {
            skim.readBool(&slice.allNodes);
        } else if (key == "perDeviceNodeSelection") {
            skim.readBool(&slice.perDeviceNodeSelection);
        } else if (key == "sharedCounters") {
            ok = readCounterSets(skim.skipValue(), &slice.sharedCounters);
        } else if (key == "devices") {
            if (skim.peek() == '[') {
                skim.enterArray();
                while (skim.nextElement()) {
                    slice.devices.emplace_back();
                    if (!skimDeviceMembers(skim, slice.devices.back()))
                        return false;
                }
            } else {
                skim.skipValue();
            }
        } else {
            skim.skipValue();
        }
        if (!ok || !skim.ok())
            return false;
    }
    return skim.ok();
}

bool skimSlice(std::string_view text, SkimmedSlice &slice)
{
    JsonSkim skim(text);
    if (!skim.enterObject())
        return false;
    for (std::string_view key; skim.nextMember(&key);) {
        if (key == "spec") {
            if (!skimSpec(skim, slice))
                return false;
        } else {
            skim.skipValue();
        }
    }
    return skim.ok();
}

SliceInfo infoOf(const std::string &name, const std::string &driver,
    const model::ResourcePool &pool, const std::string &nodeName, size_t devices, int64_t rev)
{
    SliceInfo info;
    info.name = name;
    info.driver = driver;
    info.pool = pool.name;
    info.node = nodeName;
    info.generation = pool.generation;
    info.resourceSliceCount = pool.resourceSliceCount;
    info.devices = devices;
    info.rev = rev;
    return info;
}

// Node selection as Kubernetes applies it: per device when the slice says so.
void placeDevice(Device &device, bool perDevice, const std::string &sliceNode,
    const json &sliceSelector, bool sliceAllNodes, const std::string &deviceNode,
    const json &deviceSelector, bool deviceAllNodes)
{
    device.node = perDevice && !deviceNode.empty() ? deviceNode : sliceNode;
    device.nodeSelector = perDevice ? deviceSelector : sliceSelector;
    device.allNodes = perDevice ? deviceAllNodes : sliceAllNodes;
}

// The full-decode path for one record.
Result<SlicePtr> decodeRecord(model::ObjectRecord record)
{
    Result<nlohmann::json> parsed = common::parseJson(record.json, qs(record.key.display()));
    if (!parsed)
        return fail(parsed.error());
    Result<model::Object> object = model::decodeObject(std::move(*parsed));
    if (!object)
        return fail(object.error());
    return sliceFromObject(*object, std::move(record.json), record.rev);
}

} // namespace

Result<SlicePtr> sliceFromObject(const model::Object &object, std::string json, int64_t rev)
{
    const model::ResourceSlice *slice = object.as<model::ResourceSlice>();
    if (!slice)
        return fail(sliceError(object.meta.name, QStringLiteral("not a ResourceSlice")));
    auto data = std::make_shared<SliceData>();
    data->info = infoOf(
        object.meta.name, slice->driver, slice->pool, slice->nodeName, slice->devices.size(), rev);
    data->json = std::move(json);
    data->sharedCounters = slice->sharedCounters;
    data->devices.reserve(slice->devices.size());
    for (const model::Device &published : slice->devices) {
        Device device;
        device.key = { slice->driver, slice->pool.name, published.name };
        device.slice = object.meta.name;
        device.view.driver = slice->driver;
        device.view.allowMultipleAllocations = published.allowMultipleAllocations;
        for (const auto &[name, attribute] : published.attributes) {
            cel::DeviceAttributeValue value = cel::deviceAttributeFromModel(attribute);
            device.view.addAttribute(
                model::QualifiedName::resolve(name, slice->driver).toString(), std::move(value));
        }
        for (const auto &[name, capacity] : published.capacity)
            device.view.addCapacity(
                model::QualifiedName::resolve(name, slice->driver).toString(), capacity.value);
        device.consumesCounters = published.consumesCounters;
        device.taints = published.taints;
        device.bindsToNode = published.bindsToNode;
        device.bindingConditions = published.bindingConditions;
        device.bindingFailureConditions = published.bindingFailureConditions;
        placeDevice(device, slice->perDeviceNodeSelection, slice->nodeName, slice->nodeSelector,
            slice->allNodes, published.nodeName, published.nodeSelector, published.allNodes);
        data->devices.push_back(std::move(device));
    }
    return SlicePtr(std::move(data));
}

Result<SlicePtr> readSlice(model::ObjectRecord &&record)
{
    SkimmedSlice skimmed;
    // Rows are what the store derived from this very JSON; without them (a deletion's last
    // state, a record from elsewhere) or when the skim is lost, decode the slice in full.
    if (!skimSlice(record.json, skimmed) || skimmed.devices.size() != record.devices.size())
        return decodeRecord(std::move(record));

    std::vector<model::DeviceRow> &rows = record.devices;
    const auto byName
        = [](const model::DeviceRow &a, const model::DeviceRow &b) { return a.name < b.name; };
    if (!std::is_sorted(rows.begin(), rows.end(), byName)) // the cache reads them sorted already
        std::sort(rows.begin(), rows.end(), byName);
    auto data = std::make_shared<SliceData>();
    data->info = infoOf(record.key.name, skimmed.driver, skimmed.pool, skimmed.nodeName,
        skimmed.devices.size(), record.rev);
    data->sharedCounters = std::move(skimmed.sharedCounters);
    data->devices.reserve(skimmed.devices.size());
    for (SkimmedDevice &published : skimmed.devices) {
        const auto row = std::lower_bound(rows.begin(), rows.end(), published.name,
            [](const model::DeviceRow &r, const std::string &n) { return r.name < n; });
        if (row == rows.end() || row->name != published.name)
            return decodeRecord(std::move(record));
        Device device;
        device.key = { skimmed.driver, skimmed.pool.name, std::move(published.name) };
        device.slice = record.key.name;
        device.view.driver = skimmed.driver;
        device.view.allowMultipleAllocations = published.allowMultipleAllocations;
        if (!readAttributeRow(row->attributesJson, device.view)
            || !readCapacityRow(row->capacityJson, device.view))
            return decodeRecord(std::move(record));
        device.consumesCounters = std::move(published.consumesCounters);
        device.taints = std::move(published.taints);
        device.bindsToNode = published.bindsToNode;
        device.bindingConditions = std::move(published.bindingConditions);
        device.bindingFailureConditions = std::move(published.bindingFailureConditions);
        placeDevice(device, skimmed.perDeviceNodeSelection, skimmed.nodeName, skimmed.nodeSelector,
            skimmed.allNodes, published.nodeName, published.nodeSelector, published.allNodes);
        data->devices.push_back(std::move(device));
    }
    data->json = std::move(record.json);
    return SlicePtr(std::move(data));
}

} // namespace dra::inventory::detail
