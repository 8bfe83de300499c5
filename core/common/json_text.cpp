// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/common/json_text.h"

namespace dra::common {

Result<nlohmann::json> parseJson(std::string_view text, const QString &origin)
{
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error &e) {
        return fail(Error::Code::Parse,
            origin + QStringLiteral(": malformed JSON at byte %1: ").arg(e.byte)
                + QString::fromUtf8(e.what()).section(QStringLiteral(": "), -1));
    }
}

std::string compactJson(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace dra::common
