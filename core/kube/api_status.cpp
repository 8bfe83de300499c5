// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/api_status.h"

#include <algorithm>

#include <QDateTime>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"

namespace dra::kube {

namespace {

using common::Error;

QString field(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? common::qs(it->get<std::string>()) : QString();
}

QString describe(const nlohmann::json &status, int httpStatus)
{
    const QString message = field(status, "message");
    const QString reason = field(status, "reason");
    QString text = message.isEmpty() ? QStringLiteral("the server answered HTTP %1").arg(httpStatus)
                                     : message;
    text += reason.isEmpty() ? QStringLiteral(" (HTTP %1)").arg(httpStatus)
                             : QStringLiteral(" (%1, HTTP %2)").arg(reason).arg(httpStatus);
    return text;
}

// kube-apiserver's answer to a resourceVersion newer than its own (a restored or recreated
// cluster): 504 Timeout with a cause of type ResourceVersionTooLarge. The resourceVersion is of
// no use on this server, which for a mirror means what 410 means: list again from scratch.
bool isTooLargeResourceVersion(const nlohmann::json &status)
{
    if (field(status, "reason") != QLatin1String("Timeout"))
        return false;
    const auto details = status.find("details");
    if (details == status.end() || !details->is_object())
        return false;
    const auto causes = details->find("causes");
    if (causes == details->end() || !causes->is_array())
        return false;
    for (const nlohmann::json &cause : *causes)
        if (cause.is_object() && field(cause, "reason") == QLatin1String("ResourceVersionTooLarge"))
            return true;
    return false;
}

// A Status' details.retryAfterSeconds (kube-apiserver sets it with 429 and some 5xx answers).
int64_t statusRetryAfterMs(const nlohmann::json &status)
{
    const auto details = status.find("details");
    if (details == status.end() || !details->is_object())
        return 0;
    const auto seconds = details->find("retryAfterSeconds");
    if (seconds == details->end() || !seconds->is_number_integer())
        return 0;
    return std::clamp<int64_t>(seconds->get<int64_t>() * 1000, 0, kMaxRetryAfterMs);
}

} // namespace

Error::Code codeForStatus(int httpStatus)
{
    switch (httpStatus) {
    case 400:
    case 422:
        return Error::Code::Invalid;
    case 401:
        return Error::Code::Unauthorized;
    case 403:
        return Error::Code::Forbidden;
    case 404:
        return Error::Code::NotFound;
    case 409:
        return Error::Code::Conflict;
    case 410:
        return Error::Code::Gone;
    case 429:
        return Error::Code::Busy;
    default:
        return Error::Code::Network;
    }
}

Error statusError(int httpStatus, const QByteArray &body, const QString &prefix)
{
    const nlohmann::json status = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (status.is_object() && field(status, "kind") == QLatin1String("Status"))
        return Error { isTooLargeResourceVersion(status) ? Error::Code::Gone
                                                         : codeForStatus(httpStatus),
            prefix + QStringLiteral(": ") + describe(status, httpStatus), false,
            statusRetryAfterMs(status) };
    QString text = QString::fromUtf8(body.left(200)).simplified();
    return Error { codeForStatus(httpStatus),
        prefix
            + QStringLiteral(": the server answered HTTP %1%2")
                  .arg(httpStatus)
                  .arg(text.isEmpty() ? QString() : QStringLiteral(": ") + text) };
}

Error statusObjectError(const nlohmann::json &status, const QString &prefix)
{
    int code = 500;
    if (const auto it = status.find("code"); it != status.end() && it->is_number_integer())
        code = it->get<int>();
    // Old servers say Gone, newer ones Expired; both mean "relist" (client-go treats them alike).
    const QString reason = field(status, "reason");
    if (reason == QLatin1String("Expired") || reason == QLatin1String("Gone"))
        code = 410;
    return Error { isTooLargeResourceVersion(status) ? Error::Code::Gone : codeForStatus(code),
        prefix + QStringLiteral(": ") + describe(status, code), false, statusRetryAfterMs(status) };
}

int64_t retryAfterMs(QByteArrayView header, int64_t nowMs)
{
    const QByteArray text = header.trimmed().toByteArray();
    if (text.isEmpty())
        return 0;
    bool number = false;
    const qint64 seconds = text.toLongLong(&number);
    if (number)
        return seconds > 0 ? std::min<int64_t>(seconds * 1000, kMaxRetryAfterMs) : 0;
    // An HTTP-date: IMF-fixdate ("Wed, 02 Dec 2026 15:30:00 GMT"), always in GMT.
    QDateTime at = QDateTime::fromString(
        QString::fromLatin1(text), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"));
    if (!at.isValid())
        return 0;
    at.setTimeSpec(Qt::UTC);
    const int64_t wait = at.toMSecsSinceEpoch() - nowMs;
    return wait > 0 ? std::min<int64_t>(wait, kMaxRetryAfterMs) : 0;
}

} // namespace dra::kube
