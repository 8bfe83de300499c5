// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "app/dractl/commands/history_support.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

#include "core/common/duration.h"

namespace dra::cli {

namespace {

using common::Error;

bool plainKey(const std::string &key)
{
    if (key.empty())
        return false;
    for (const char c : key)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            return false;
    return true;
}

std::string child(const std::string &path, const std::string &key)
{
    if (plainKey(key))
        return path.empty() ? key : path + "." + key;
    return path + "[" + nlohmann::json(key).dump() + "]";
}

void walk(const nlohmann::json &from, const nlohmann::json &to, const std::string &path,
    std::vector<JsonDifference> &out)
{
    if (from.is_object() && to.is_object()) {
        for (auto it = from.begin(); it != from.end(); ++it) {
            const auto other = to.find(it.key());
            if (other == to.end())
                out.push_back({ '-', child(path, it.key()), &it.value(), nullptr });
            else
                walk(it.value(), *other, child(path, it.key()), out);
        }
        for (auto it = to.begin(); it != to.end(); ++it)
            if (!from.contains(it.key()))
                out.push_back({ '+', child(path, it.key()), nullptr, &it.value() });
        return;
    }
    if (from.is_array() && to.is_array()) {
        const size_t common = std::min(from.size(), to.size());
        for (size_t i = 0; i < common; ++i)
            walk(from[i], to[i], path + "[" + std::to_string(i) + "]", out);
        for (size_t i = common; i < from.size(); ++i)
            out.push_back({ '-', path + "[" + std::to_string(i) + "]", &from[i], nullptr });
        for (size_t i = common; i < to.size(); ++i)
            out.push_back({ '+', path + "[" + std::to_string(i) + "]", nullptr, &to[i] });
        return;
    }
    if (from != to)
        out.push_back({ '~', path, &from, &to });
}

} // namespace

Result<int64_t> parseTimePoint(const QString &textIn, const QString &option, int64_t nowMs)
{
    const QString text = textIn.trimmed();
    if (text == QLatin1String("now"))
        return nowMs;
    if (const std::optional<int64_t> age = common::parseDuration(text.toStdString()))
        return nowMs - *age;
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid()) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (date.isValid())
            time = date.startOfDay();
    }
    if (!time.isValid())
        return dra::fail(Error::Code::Invalid,
            QStringLiteral(
                "%1 %2: expected now, an age (10m, 2h, 3d) or a time (2026-11-30T10:00:00Z)")
                .arg(option, text));
    return time.toMSecsSinceEpoch();
}

QString formatTime(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

std::vector<JsonDifference> diffJson(const nlohmann::json &from, const nlohmann::json &to)
{
    std::vector<JsonDifference> out;
    if (from.is_null() != to.is_null()) { // created or deleted in between: the whole object
        if (from.is_null())
            out.push_back({ '+', {}, nullptr, &to });
        else
            out.push_back({ '-', {}, &from, nullptr });
        return out;
    }
    walk(from, to, {}, out);
    return out;
}

} // namespace dra::cli
