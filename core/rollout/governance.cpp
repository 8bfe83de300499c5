// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/governance.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include <QDateTime>
#include <QTimeZone>

#include "core/common/duration.h"

namespace dra::rollout {

namespace {

constexpr std::array<std::string_view, 7> kDayNames
    = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday" };

QTimeZone zoneOf(const std::string &timeZone)
{
    return QTimeZone(QByteArray::fromStdString(timeZone));
}

bool sameLetters(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x))
            == std::tolower(static_cast<unsigned char>(y));
    });
}

bool onDay(const MaintenanceWindow &window, int isoWeekday)
{
    return window.days.empty()
        || std::find(window.days.begin(), window.days.end(), isoWeekday) != window.days.end();
}

// The window's start on local `date`, in ms since the epoch. In a daylight-saving gap Qt moves
// the time forward, as a wall clock does.
int64_t startOn(const MaintenanceWindow &window, const QDate &date, const QTimeZone &zone)
{
    const QTime start(window.startMinute / 60, window.startMinute % 60);
    return QDateTime(date, start, zone).toMSecsSinceEpoch();
}

} // namespace

WindowState windowStateAt(const MaintenanceWindow &window, int64_t atMs)
{
    WindowState state;
    const QTimeZone zone = zoneOf(window.timeZone);
    if (!zone.isValid() || window.durationMs <= 0)
        return state;
    const QDate today = QDateTime::fromMSecsSinceEpoch(atMs, zone).date();
    // A window that opened up to 7 days ago may still be open (durations are at most 7 days).
    for (int back = 8; back >= 0; --back) {
        const QDate day = today.addDays(-back);
        if (!onDay(window, day.dayOfWeek()))
            continue;
        const int64_t opens = startOn(window, day, zone);
        if (opens <= atMs && atMs < opens + window.durationMs) {
            state.open = true;
            state.closesAt = std::max(state.closesAt, opens + window.durationMs);
        }
    }
    if (state.open)
        return state;
    for (int ahead = 0; ahead <= 7; ++ahead) {
        const QDate day = today.addDays(ahead);
        if (!onDay(window, day.dayOfWeek()))
            continue;
        if (const int64_t opens = startOn(window, day, zone); opens > atMs) {
            state.opensAt = opens;
            break;
        }
    }
    return state;
}

std::string windowText(const MaintenanceWindow &window)
{
    std::string days;
    for (int day : window.days)
        days += (days.empty() ? "" : ", ") + weekdayShortName(day);
    return (days.empty() ? std::string("every day") : days) + " "
        + minuteOfDayText(window.startMinute) + " for " + common::formatDuration(window.durationMs)
        + " (" + window.timeZone + ")";
}

std::string localTimeText(int64_t atMs, const std::string &timeZone)
{
    const QTimeZone zone = zoneOf(timeZone);
    if (!zone.isValid())
        return QDateTime::fromMSecsSinceEpoch(atMs, Qt::UTC)
            .toString(QStringLiteral("ddd yyyy-MM-dd HH:mm 'UTC'"))
            .toStdString();
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(atMs, zone);
    return local.toString(QStringLiteral("ddd yyyy-MM-dd HH:mm ")).toStdString()
        + local.timeZoneAbbreviation().toStdString();
}

std::optional<int> weekdayFromName(std::string_view name)
{
    for (size_t i = 0; i < kDayNames.size(); ++i)
        if (sameLetters(name, kDayNames[i]) || sameLetters(name, kDayNames[i].substr(0, 3)))
            return int(i) + 1;
    return std::nullopt;
}

std::string weekdayShortName(int isoWeekday)
{
    return isoWeekday >= 1 && isoWeekday <= 7
        ? std::string(kDayNames[size_t(isoWeekday - 1)].substr(0, 3))
        : "?";
}

std::string minuteOfDayText(int minute)
{
    char text[8];
    std::snprintf(text, sizeof text, "%02d:%02d", minute / 60 % 100, minute % 60);
    return text;
}

std::optional<int> minuteOfDayFromText(std::string_view text)
{
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (text.size() != 5 || text[2] != ':' || !digit(text[0]) || !digit(text[1]) || !digit(text[3])
        || !digit(text[4]))
        return std::nullopt;
    const int hours = (text[0] - '0') * 10 + (text[1] - '0');
    const int minutes = (text[3] - '0') * 10 + (text[4] - '0');
    if (hours > 23 || minutes > 59)
        return std::nullopt;
    return hours * 60 + minutes;
}

bool isKnownTimeZone(const std::string &timeZone)
{
    return !timeZone.empty() && zoneOf(timeZone).isValid();
}

std::string personOf(std::string_view actor)
{
    if (const size_t open = actor.find(" (");
        open != std::string_view::npos && actor.ends_with(')'))
        actor = actor.substr(0, open);
    return std::string(actor);
}

bool isController(std::string_view actor)
{
    return personOf(actor) == "controller";
}

std::string starterOf(const RolloutState &state)
{
    for (auto entry = state.history.rbegin(); entry != state.history.rend(); ++entry)
        if (entry->verb == Verb::Start)
            return entry->actor;
    return {};
}

bool boundToWindow(Verb verb)
{
    return verb == Verb::Start || verb == Verb::Promote || verb == Verb::Resume
        || verb == Verb::Finalise;
}

bool needsSecondApproval(Verb verb)
{
    return verb == Verb::Promote || verb == Verb::Finalise;
}

std::optional<Requirement> windowRequirement(
    const RolloutPlan &plan, const Command &command, int64_t nowMs)
{
    if (!plan.maintenanceWindow || !boundToWindow(command.verb))
        return std::nullopt;
    const MaintenanceWindow &window = *plan.maintenanceWindow;
    const WindowState now = windowStateAt(window, nowMs);
    Requirement r { "inside the maintenance window, " + windowText(window), now.open, {} };
    const std::string opens = now.opensAt
        ? "it opens " + localTimeText(now.opensAt, window.timeZone)
        : std::string("it never opens (is the time zone known here?)");
    if (now.open) {
        r.detail = "open until " + localTimeText(now.closesAt, window.timeZone);
    } else if (command.force && !command.reason.empty()) {
        r.met = r.noted = true;
        r.detail = "forced outside the window by " + command.actor + " (" + opens
            + "): " + command.reason;
    } else if (command.force) {
        r.detail = "closed; forcing it needs a reason";
    } else {
        r.detail = "closed, " + opens + "; outside it give --force and a reason";
    }
    return r;
}

std::optional<Requirement> approvalRequirement(
    const RolloutPlan &plan, const RolloutState &state, const Command &command)
{
    if (plan.approvals < 2 || !needsSecondApproval(command.verb))
        return std::nullopt;
    const std::string starter = personOf(starterOf(state));
    const std::string person = personOf(command.actor);
    Requirement r { "a second person approves (approvals: 2)", false, {} };
    if (isController(command.actor))
        r.detail = "the controller cannot approve; a person other than " + starter + " must";
    else if (person == starter)
        r.detail = starter + " started the rollout; another person must approve";
    else {
        r.met = r.noted = true;
        r.detail = "started by " + starter + ", approved by " + person;
    }
    return r;
}

nlohmann::json governanceJson(const RolloutPlan &plan, const RolloutState &state, int64_t nowMs)
{
    if (plan.owner.empty() && plan.approvals < 2 && !plan.maintenanceWindow)
        return nullptr;
    nlohmann::json document { { "owner", plan.owner }, { "approvals", plan.approvals },
        { "startedBy", personOf(starterOf(state)) } };
    if (const auto &window = plan.maintenanceWindow) {
        // The facts below word it for people; these are for tools.
        const WindowState now = windowStateAt(*window, nowMs);
        document["maintenanceWindow"] = { { "open", now.open },
            { now.open ? "closesAt" : "opensAt", now.open ? now.closesAt : now.opensAt } };
    }
    nlohmann::json facts = nlohmann::json::array();
    for (const GovernanceFact &fact : governanceFacts(plan, state, nowMs))
        facts.push_back({ { "label", fact.label }, { "text", fact.text } });
    document["facts"] = std::move(facts);
    return document;
}

std::vector<GovernanceFact> governanceFacts(
    const RolloutPlan &plan, const RolloutState &state, int64_t nowMs)
{
    std::vector<GovernanceFact> facts;
    if (!plan.owner.empty())
        facts.push_back({ "owner", plan.owner });
    if (plan.approvals >= 2) {
        const std::string starter = personOf(starterOf(state));
        facts.push_back({ "approvals",
            "2: promotion and finalise by someone other than "
                + (starter.empty() ? std::string("the one who starts it") : starter) });
    }
    if (const auto &window = plan.maintenanceWindow) {
        const WindowState now = windowStateAt(*window, nowMs);
        facts.push_back({ "window",
            windowText(*window) + ": "
                + (now.open ? "open until " + localTimeText(now.closesAt, window->timeZone)
                        : now.opensAt
                        ? "closed, opens " + localTimeText(now.opensAt, window->timeZone)
                        : std::string("closed")) });
    }
    return facts;
}

} // namespace dra::rollout
