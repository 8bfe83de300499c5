// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/model/device_taints.h"

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::model {

std::vector<Toleration> parseTolerations(const nlohmann::json &tolerations)
{
    std::vector<Toleration> out;
    if (!tolerations.is_array())
        return out;
    for (const nlohmann::json &item : tolerations)
        if (item.is_object())
            out.push_back(
                { common::stringMember(item, "key"), common::stringMember(item, "operator"),
                    common::stringMember(item, "value"), common::stringMember(item, "effect") });
    return out;
}

bool tolerates(const Toleration &toleration, const DeviceTaint &taint)
{
    if (!toleration.effect.empty() && toleration.effect != taint.effect)
        return false;
    if (!toleration.key.empty() && toleration.key != taint.key)
        return false;
    if (toleration.op == "Exists")
        return true;
    if (toleration.op.empty() || toleration.op == "Equal")
        return toleration.value == taint.value;
    return false;
}

bool taintBlocksAllocation(const DeviceTaint &taint)
{
    return taint.effect == "NoSchedule" || taint.effect == "NoExecute";
}

const DeviceTaint *untoleratedTaint(
    const std::vector<DeviceTaint> &taints, const std::vector<Toleration> &tolerations)
{
    for (const DeviceTaint &taint : taints) {
        if (!taintBlocksAllocation(taint))
            continue;
        bool tolerated = false;
        for (const Toleration &toleration : tolerations)
            tolerated = tolerated || tolerates(toleration, taint);
        if (!tolerated)
            return &taint;
    }
    return nullptr;
}

} // namespace dra::model
