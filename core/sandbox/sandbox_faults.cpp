// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/sandbox_faults.h"

#include <algorithm>
#include <utility>

#include "core/common/json_text.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

constexpr std::pair<FaultKind, std::string_view> kFaultNames[] = {
    { FaultKind::AllocationFails, "allocation-fails" },
    { FaultKind::AllocationHangs, "allocation-hangs" },
    { FaultKind::DriverPrepareFails, "driver-prepare-fails" },
    { FaultKind::WrongDevice, "wrong-device" },
    { FaultKind::NeverReady, "never-ready" },
    { FaultKind::Http500, "http-500" },
    { FaultKind::ClaimNotReleased, "claim-not-released" },
    { FaultKind::UnhealthyDevice, "unhealthy-device" },
    { FaultKind::DriverNotReady, "driver-not-ready" },
};

} // namespace

std::string_view faultKindName(FaultKind kind)
{
    for (const auto &[known, name] : kFaultNames) {
        if (known == kind)
            return name;
    }
    return "unknown";
}

std::optional<FaultKind> parseFaultKind(std::string_view name)
{
    for (const auto &[kind, known] : kFaultNames) {
        if (known == name)
            return kind;
    }
    return std::nullopt;
}

std::string faultKindNames()
{
    std::string out;
    for (const auto &[kind, name] : kFaultNames)
        out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

json Fault::toJson() const
{
    json out = { { "kind", faultKindName(kind) } };
    if (!deployment.empty())
        out.update({ { "namespace", ns }, { "deployment", deployment } });
    return out;
}

Result<Fault> Fault::fromJson(const json &object)
{
    if (!object.is_object() || !object.contains("kind") || !object["kind"].is_string())
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("fault: expected an object with a string field \"kind\""));
    const std::string name = object["kind"].get<std::string>();
    const std::optional<FaultKind> kind = parseFaultKind(name);
    if (!kind)
        return dra::fail(common::Error::Code::Invalid,
            QStringLiteral("fault kind \"%1\": not known; known kinds: %2")
                .arg(common::qs(name), common::qs(faultKindNames())));
    Fault fault { *kind, {}, {} };
    if (auto it = object.find("deployment"); it != object.end() && it->is_string())
        fault.deployment = it->get<std::string>();
    if (auto it = object.find("namespace"); it != object.end() && it->is_string())
        fault.ns = it->get<std::string>();
    if (fault.deployment.empty())
        fault.ns.clear();
    else if (fault.ns.empty())
        fault.ns = "default";
    return fault;
}

void FaultSet::add(Fault fault)
{
    if (std::find(m_faults.begin(), m_faults.end(), fault) == m_faults.end())
        m_faults.push_back(std::move(fault));
}

int FaultSet::clear(std::optional<FaultKind> kind)
{
    const size_t before = m_faults.size();
    std::erase_if(m_faults, [&](const Fault &fault) { return !kind || fault.kind == *kind; });
    return int(before - m_faults.size());
}

bool FaultSet::applies(FaultKind kind, const std::string &ns, const std::string &deployment) const
{
    return std::any_of(m_faults.begin(), m_faults.end(), [&](const Fault &fault) {
        return fault.kind == kind
            && (fault.deployment.empty() || (fault.deployment == deployment && fault.ns == ns));
    });
}

json FaultSet::toJson() const
{
    json items = json::array();
    for (const Fault &fault : m_faults)
        items.push_back(fault.toJson());
    return { { "kind", "FaultList" }, { "apiVersion", "sandbox.draconsole.io/v1" },
        { "items", items } };
}

} // namespace dra::sandbox
