// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#pragma once

#include <cstdint>

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
    // Trying again cannot help until the user changes something (a CA, a kubeconfig, a
    // credential): callers that retry should stop, or retry only rarely, and say so.
    bool permanent = false;
    // How long the server asked the client to wait before trying again (the Retry-After of a
    // 429 or 5xx answer, or a Status' details.retryAfterSeconds); 0 when it did not say.
    int64_t retryAfterMs = 0;

    // Returns a copy whose message is prefixed with `context: `, e.g. a file name.
    [[nodiscard]] Error withContext(const QString &context) const;
};

// The stable lower-case name of a code ("parse", "not-found"), used in JSON output.
QString codeName(Error::Code code);

} // namespace dra::common

Q_DECLARE_METATYPE(dra::common::Error)
