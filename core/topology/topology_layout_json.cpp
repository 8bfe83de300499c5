// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include <nlohmann/json.hpp>

#include "core/topology/topology_layout.h"

namespace dra::topology {

namespace {

using nlohmann::json;

json rectJson(const LayoutRect &r)
{
    return { { "x", r.x }, { "y", r.y }, { "width", r.w }, { "height", r.h } };
}

json pointJson(const LayoutPoint &p)
{
    return { { "x", p.x }, { "y", p.y } };
}

const char *frameKindName(LayoutFrame::Kind kind)
{
    return kind == LayoutFrame::Kind::Numa ? "numa" : "pcieRoot";
}

const char *deviceKindName(LayoutDevice::Kind kind)
{
    switch (kind) {
    case LayoutDevice::Kind::Gpu:
        return "gpu";
    case LayoutDevice::Kind::Mig:
        return "mig";
    case LayoutDevice::Kind::Nic:
        return "nic";
    }
    return "gpu";
}

json deviceJson(const LayoutDevice &device)
{
    json out = { { "kind", deviceKindName(device.kind) },
        { "endpoint", device.endpoint.toStdString() }, { "rect", rectJson(device.rect) },
        { "title", device.title.toStdString() }, { "fill", deviceFillName(device.fill) },
        { "selectable", device.selectable }, { "tooltip", device.tooltip.toStdString() } };
    out["device"] = device.device.isEmpty() ? json() : json(device.device.toStdString());
    if (!device.subtitle.isEmpty())
        out["subtitle"] = device.subtitle.toStdString();
    if (!device.holder.isEmpty())
        out["holder"] = device.holder.toStdString();
    if (!device.claim.isEmpty())
        out["claim"] = device.claim.toStdString();
    return out;
}

json linkJson(const LayoutLink &link)
{
    json out = { { "shape", link.shape == LayoutLink::Shape::Arc ? "arc" : "line" },
        { "from", link.from.toStdString() }, { "to", link.to.toStdString() },
        { "kind", linkKindName(link.kind).toStdString() }, { "count", link.count },
        { "source", linkSourceName(link.source).toStdString() }, { "start", pointJson(link.start) },
        { "end", pointJson(link.end) }, { "width", link.width },
        { "tooltip", link.tooltip.toStdString() } };
    if (link.shape == LayoutLink::Shape::Arc) {
        out["control1"] = pointJson(link.control1);
        out["control2"] = pointJson(link.control2);
        out["label"] = link.label.toStdString();
        out["labelAt"] = pointJson(link.labelAt);
    }
    return out;
}

} // namespace

json toJson(const TopologyLayout &layout)
{
    json frames = json::array();
    for (const LayoutFrame &frame : layout.frames) {
        json entry = { { "kind", frameKindName(frame.kind) },
            { "label", frame.label.toStdString() }, { "rect", rectJson(frame.rect) } };
        if (!frame.detail.isEmpty())
            entry["detail"] = frame.detail.toStdString();
        frames.push_back(std::move(entry));
    }
    json devices = json::array();
    for (const LayoutDevice &device : layout.devices)
        devices.push_back(deviceJson(device));
    json links = json::array();
    for (const LayoutLink &link : layout.links)
        links.push_back(linkJson(link));
    json out = { { "node", layout.node.toStdString() }, { "imported", layout.imported },
        { "bounds", rectJson(layout.bounds) }, { "frames", std::move(frames) },
        { "devices", std::move(devices) }, { "links", std::move(links) } };
    if (const std::optional<LayoutFabric> &fabric = layout.fabric)
        out["fabric"] = { { "rect", rectJson(fabric->rect) }, { "count", fabric->count },
            { "source", linkSourceName(fabric->source).toStdString() },
            { "label", fabric->label.toStdString() } };
    if (!layout.emptyText.isEmpty())
        out["empty"] = layout.emptyText.toStdString();
    return out;
}

} // namespace dra::topology
