// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QProcessEnvironment>
#include <QString>

#include "core/common/result.h"
#include "core/kube/client_config.h"

namespace dra::kube {

// Where a pod finds its service account's credentials.
inline constexpr const char *kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

// The cluster a pod runs in, as client-go's rest.InClusterConfig reads it: the API server at
// KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT, trusted by `dir`/ca.crt, authenticated by
// `dir`/token (read again whenever the kubelet rotates it) and working in `dir`/namespace.
// Errors say which variable or file is missing or unreadable.
[[nodiscard]] Result<ClientConfig> inClusterConfig(
    const QString &dir = QString::fromLatin1(kServiceAccountDir),
    const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

} // namespace dra::kube
