// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/inventory/taint_rules.h"

#include <algorithm>

#include "core/inventory/cluster_release.h"
#include "core/inventory/snapshot.h"

namespace dra::inventory {

bool taintRuleSelects(
    const Snapshot &snapshot, const model::DeviceTaintRule &rule, const Device &device)
{
    const model::DeviceTaintSelector &selector = rule.selector;
    if ((!selector.driver.empty() && selector.driver != device.key.driver)
        || (!selector.pool.empty() && selector.pool != device.key.pool)
        || (!selector.device.empty() && selector.device != device.key.device))
        return false;
    if (!selector.deviceClassName.empty()) {
        const auto match = snapshot.classMatch(selector.deviceClassName);
        if (std::ranges::find(match->devices, &device) == match->devices.end())
            return false;
    }
    for (const model::DeviceSelector &expression : selector.selectors) {
        std::vector<cel::Diagnostic> diagnostics;
        const Result<cel::CompiledSelector> compiled = cel::compileSelector(
            expression.celExpression, storedSelectorOptions(snapshot), &diagnostics);
        if (!compiled || !compiled->isValid()
            || cel::evaluate(*compiled, device.view).outcome != cel::SelectorResult::Outcome::Match)
            return false;
    }
    return true;
}

} // namespace dra::inventory
