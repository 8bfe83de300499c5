// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <QObject>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kube/access_review.h"
#include "core/kube/rest_client.h"
#include "core/model/rbac_policy.h"

namespace dra::kube {

// Who the cluster says the user is, and what it answered to a SelfSubjectRulesReview in each
// namespace, as RBAC rules (inventory::SelfRules takes them as they are).
struct SelfRulesAnswer
{
    std::string username;
    std::map<std::string, std::vector<model::PolicyRule>> rulesByNamespace;
};

// Asks a SelfSubjectReview (who am I) and then a SelfSubjectRulesReview per namespace of
// `namespaces`, one after another: every user may ask both about themselves. `done` runs once
// on `context`'s thread with the answers, or the first error.
void requestSelfRules(RestClient &client, std::vector<std::string> namespaces, QObject *context,
    std::function<void(Result<SelfRulesAnswer>)> done);

} // namespace dra::kube
