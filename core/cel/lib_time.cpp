// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Timestamp and duration accessors (getFullYear(), getHours('Europe/Paris'), ...).

#include "core/cel/env.h"
#include "core/cel/program.h"
#include "core/cel/time_util.h"

namespace dra::cel {

namespace {

using Args = std::span<const Value>;

enum class Field {
    FullYear,
    Month,
    Date,
    DayOfMonth,
    DayOfWeek,
    DayOfYear,
    Hours,
    Minutes,
    Seconds,
    Milliseconds
};

template <Field F> Value timestampField(Args a, EvalFrame &)
{
    const Timestamp t = a[0].asTimestamp();
    const std::string_view zone = a.size() > 1 ? a[1].asString() : std::string_view("UTC");
    const std::optional<CivilTime> c = civilTime(t, zone);
    if (!c)
        return Value::error("unknown time zone: " + std::string(zone));
    switch (F) {
    case Field::FullYear:
        return Value::integer(c->year);
    case Field::Month:
        return Value::integer(c->month - 1);
    case Field::Date:
        return Value::integer(c->day);
    case Field::DayOfMonth:
        return Value::integer(c->day - 1);
    case Field::DayOfWeek:
        return Value::integer(c->dayOfWeek);
    case Field::DayOfYear:
        return Value::integer(c->dayOfYear);
    case Field::Hours:
        return Value::integer(c->hour);
    case Field::Minutes:
        return Value::integer(c->minute);
    case Field::Seconds:
        return Value::integer(c->second);
    case Field::Milliseconds:
        return Value::integer(t.nanos / 1000000);
    }
    return Value::error("unsupported timestamp field");
}

template <int64_t Divisor> Value durationField(Args a, EvalFrame &)
{
    // Truncated toward zero, as Go's Duration.Hours() etc. converted to int.
    const Int128 n = toNanos(a[0].asDuration());
    return Value::integer(static_cast<int64_t>(n / Divisor));
}

// The millisecond part of a duration, as cel-go gives it (1.5s -> 500).
Value durationMilliseconds(Args a, EvalFrame &)
{
    const Int128 n = toNanos(a[0].asDuration());
    return Value::integer(static_cast<int64_t>((n / 1000000) % 1000));
}

template <Field F> void addTimestampField(FunctionRegistry &r, std::string_view name)
{
    r.member(name, { Kind::Timestamp }, timestampField<F>);
    r.member(name, { Kind::Timestamp, Kind::String }, timestampField<F>);
}

} // namespace

void registerTimeLibrary(FunctionRegistry &r)
{
    addTimestampField<Field::FullYear>(r, "getFullYear");
    addTimestampField<Field::Month>(r, "getMonth");
    addTimestampField<Field::Date>(r, "getDate");
    addTimestampField<Field::DayOfMonth>(r, "getDayOfMonth");
    addTimestampField<Field::DayOfWeek>(r, "getDayOfWeek");
    addTimestampField<Field::DayOfYear>(r, "getDayOfYear");
    addTimestampField<Field::Hours>(r, "getHours");
    addTimestampField<Field::Minutes>(r, "getMinutes");
    addTimestampField<Field::Seconds>(r, "getSeconds");
    addTimestampField<Field::Milliseconds>(r, "getMilliseconds");
    r.member("getHours", { Kind::Duration }, durationField<3600000000000LL>);
    r.member("getMinutes", { Kind::Duration }, durationField<60000000000LL>);
    r.member("getSeconds", { Kind::Duration }, durationField<1000000000LL>);
    r.member("getMilliseconds", { Kind::Duration }, durationMilliseconds);
}

} // namespace dra::cel
