// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/error.h"

namespace dra::common {

Error Error::withContext(const QString &context) const
{
    return Error { code, context + QStringLiteral(": ") + message, permanent };
}

QString codeName(Error::Code code)
{
    switch (code) {
    case Error::Code::Network:
        return QStringLiteral("network");
    case Error::Code::Unauthorized:
        return QStringLiteral("unauthorized");
    case Error::Code::Forbidden:
        return QStringLiteral("forbidden");
    case Error::Code::NotFound:
        return QStringLiteral("not-found");
    case Error::Code::Conflict:
        return QStringLiteral("conflict");
    case Error::Code::Gone:
        return QStringLiteral("gone");
    case Error::Code::Parse:
        return QStringLiteral("parse");
    case Error::Code::Database:
        return QStringLiteral("database");
    case Error::Code::Invalid:
        return QStringLiteral("invalid");
    case Error::Code::Unsupported:
        return QStringLiteral("unsupported");
    case Error::Code::Busy:
        return QStringLiteral("busy");
    case Error::Code::Internal:
        return QStringLiteral("internal");
    }
    return QStringLiteral("internal");
}

} // namespace dra::common
