// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <QMetaType>
#include <QString>

namespace dra::common {

// A failure as a value. `message` is one sentence fit for a status bar or a CLI error line,
// naming the object or file concerned.
struct Error
{
    enum class Code {
        Network,
        Unauthorized,
        Forbidden,
        NotFound,
        Conflict,
        Gone,
        Parse,
        Database,
        Invalid,
        Unsupported,
        Busy,
        Internal,
    };
    Code code = Code::Internal;
    QString message;

    // Returns a copy whose message is prefixed with `context: `, e.g. a file name.
    [[nodiscard]] Error withContext(const QString &context) const;
};

// The stable lower-case name of a code ("parse", "not-found"), used in JSON output.
QString codeName(Error::Code code);

} // namespace dra::common

Q_DECLARE_METATYPE(dra::common::Error)
