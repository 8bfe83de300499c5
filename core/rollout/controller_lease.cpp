// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/rollout/controller_lease.h"

#include <cerrno>
#include <charconv>

#include <signal.h>

#include <QCoreApplication>
#include <QHostInfo>

namespace dra::rollout {

namespace {

constexpr std::string_view kOn = " on ";
constexpr std::string_view kPid = " (pid ";

// Whether process `pid` of this host no longer exists (another user's process still does).
bool localProcessGone(int64_t pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

} // namespace

std::string ControllerOwner::text() const
{
    return user + std::string(kOn) + host + std::string(kPid) + std::to_string(pid) + ")";
}

std::optional<ControllerOwner> ControllerOwner::parse(std::string_view text)
{
    if (!text.ends_with(')'))
        return std::nullopt;
    const size_t pidAt = text.rfind(kPid);
    if (pidAt == std::string_view::npos)
        return std::nullopt;
    const std::string_view digits
        = text.substr(pidAt + kPid.size(), text.size() - 1 - pidAt - kPid.size());
    ControllerOwner owner;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), owner.pid);
    if (ec != std::errc() || end != digits.data() + digits.size())
        return std::nullopt;
    const std::string_view who = text.substr(0, pidAt);
    // Host names have no spaces; a user name might.
    const size_t onAt = who.rfind(kOn);
    if (onAt == std::string_view::npos || onAt == 0 || onAt + kOn.size() == who.size())
        return std::nullopt;
    owner.user = std::string(who.substr(0, onAt));
    owner.host = std::string(who.substr(onAt + kOn.size()));
    return owner;
}

ControllerOwner ControllerOwner::thisProcess()
{
    return { localUserName(), QHostInfo::localHostName().toStdString(),
        QCoreApplication::applicationPid() };
}

std::string localUserName()
{
    return qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME", QStringLiteral("unknown")))
        .toStdString();
}

std::string_view leaseStateName(LeaseState state)
{
    switch (state) {
    case LeaseState::None:
        return "none";
    case LeaseState::Live:
        return "live";
    case LeaseState::Stale:
        return "stale";
    case LeaseState::HolderGone:
        return "holder gone";
    }
    return "none";
}

LeaseState leaseState(
    const std::optional<ControllerLease> &lease, int64_t now, int64_t staleAfterMs)
{
    if (!lease)
        return LeaseState::None;
    const std::optional<ControllerOwner> holder = ControllerOwner::parse(lease->owner);
    if (holder && holder->host == QHostInfo::localHostName().toStdString()
        && localProcessGone(lease->pid))
        return LeaseState::HolderGone;
    return lease->isLive(now, staleAfterMs) ? LeaseState::Live : LeaseState::Stale;
}

Result<std::optional<ControllerLease>> othersLiveLease(store::StateDb &state,
    const std::string &rollout, const ControllerOwner &self, int64_t now, int64_t staleAfterMs)
{
    Result<std::optional<ControllerLease>> lease = ControllerInbox(state).lease(rollout);
    if (!lease)
        return fail(lease.error());
    if (leaseState(*lease, now, staleAfterMs) != LeaseState::Live)
        return std::optional<ControllerLease>();
    if ((*lease)->owner == self.text() && (*lease)->pid == self.pid)
        return std::optional<ControllerLease>();
    return lease;
}

} // namespace dra::rollout
