// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <QObject>
#include <QStringList>

#include "core/common/result.h"

namespace dra::kube {

class RestClient;

// One resource rule of a SelfSubjectRulesReview's status.
struct ResourceRule
{
    QStringList verbs, apiGroups, resources, resourceNames;
};

// Whether `rules` let the user use every verb of `verbs` on all objects of `resource` in `group`
// (wildcards as RBAC has them; rules limited to resourceNames do not count).
bool rulesAllow(const std::vector<ResourceRule> &rules, std::string_view group,
    std::string_view resource, const QStringList &verbs);

// POSTs a SelfSubjectRulesReview for namespace `ns`: what the user may do there. Not called
// back once `context` is gone.
void reviewRules(RestClient &client, const std::string &ns, QObject *context,
    std::function<void(const Result<std::vector<ResourceRule>> &)> done);

// POSTs a SelfSubjectAccessReview: may the user `verb` `resource` of `group` (in `ns`, "" for
// cluster-wide)?
void reviewAccess(RestClient &client, const std::string &verb, const std::string &group,
    const std::string &resource, const std::string &ns, QObject *context,
    std::function<void(const Result<bool> &)> done);

} // namespace dra::kube
