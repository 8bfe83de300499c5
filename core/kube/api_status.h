// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include "core/common/error.h"

namespace dra::kube {

// The Error code for an HTTP status: 401 Unauthorized, 403 Forbidden, 404 NotFound, 409
// Conflict, 410 Gone, 400/422 Invalid, 429 Busy, 5xx and others Network (worth retrying).
common::Error::Code codeForStatus(int httpStatus);

// The error for a failed response: the Status object's message and reason when the body is one
// ("deviceclasses.resource.k8s.io \"x\" not found (NotFound, HTTP 404)"), else the HTTP status
// and the start of the body. `prefix` leads the message (context and request). A resourceVersion
// newer than the server's (504 Timeout, cause ResourceVersionTooLarge) is Gone, as 410 is: the
// resourceVersion means nothing on this server, and a mirror lists again from scratch.
common::Error statusError(int httpStatus, const QByteArray &body, const QString &prefix);

// The longest wait a server's Retry-After is taken for: a server cannot park a client for hours.
inline constexpr int64_t kMaxRetryAfterMs = 10 * 60 * 1000;

// The wait a Retry-After header asks for, as delta-seconds ("3") or an HTTP-date (relative to
// `nowMs`, ms since the epoch), capped at kMaxRetryAfterMs; 0 for no header, a date already past
// or a value that cannot be read.
int64_t retryAfterMs(QByteArrayView header, int64_t nowMs);

// The same for a Status object (a watch ERROR event); the code comes from its `code` field.
common::Error statusObjectError(const nlohmann::json &status, const QString &prefix);

} // namespace dra::kube
