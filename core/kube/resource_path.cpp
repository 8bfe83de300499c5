// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/resource_path.h"

#include "core/common/json_text.h"

namespace dra::kube {

QString resourcePath(std::string_view apiVersion, const model::KindInfo &kind,
    const std::string &ns, const std::string &name)
{
    const QString version = common::qs(apiVersion);
    QString path = kind.group.empty() ? QStringLiteral("/api/") + version
                                      : QStringLiteral("/apis/") + version;
    if (kind.namespaced && !ns.empty())
        path += QStringLiteral("/namespaces/") + common::qs(ns);
    path += QLatin1Char('/') + common::qs(kind.plural);
    if (!name.empty())
        path += QLatin1Char('/') + common::qs(name);
    return path;
}

} // namespace dra::kube
