// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Who drives a rollout: the owner's text form, and the lease decisions both faces rely on
// before they drive a rollout or queue a verb for another controller.
#include "core/rollout/controller_lease.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/rollout/controller_inbox.h"
#include "core/store/state_db.h"

using namespace dra::rollout;

namespace {

constexpr int64_t kNow = 1'000'000'000;

// The pid of a process of this host that has exited (and been reaped).
int64_t exitedPid()
{
    QProcess process;
    process.start(QStringLiteral("true"), QStringList());
    EXPECT_TRUE(process.waitForStarted());
    const int64_t pid = process.processId();
    EXPECT_TRUE(process.waitForFinished());
    return pid;
}

ControllerLease leaseOf(const ControllerOwner &owner, int64_t heartbeatAt)
{
    return { owner.text(), owner.pid, heartbeatAt - 60'000, heartbeatAt };
}

std::string localHost()
{
    return QHostInfo::localHostName().toStdString();
}

} // namespace

TEST(ControllerOwnerTest, TextRoundTripsAndOtherTextIsNoOwner)
{
    const ControllerOwner alice { "alice", "gpu-admin-1", 1234 };
    EXPECT_EQ(alice.text(), "alice on gpu-admin-1 (pid 1234)");
    EXPECT_EQ(ControllerOwner::parse(alice.text()), alice);
    const ControllerOwner spaced { "Jane on call", "ops", 7 };
    EXPECT_EQ(ControllerOwner::parse(spaced.text()), spaced) << "the host is after the last ' on '";
    for (const char *text : { "controller", "alice on host", "alice on host (pid x)",
             "alice on host (pid 12", " on host (pid 1)", "alice on  (pid 1)" })
        EXPECT_FALSE(ControllerOwner::parse(text).has_value()) << text;

    const ControllerOwner self = ControllerOwner::thisProcess();
    EXPECT_EQ(self.pid, QCoreApplication::applicationPid());
    EXPECT_EQ(self.host, localHost());
    EXPECT_EQ(self.user, localUserName());
}

TEST(LeaseStateTest, LiveStaleAndADeadLocalProcess)
{
    EXPECT_EQ(leaseState(std::nullopt, kNow), LeaseState::None);

    const ControllerOwner remote { "bob", "far-away-host.invalid", 4242 };
    EXPECT_EQ(leaseState(leaseOf(remote, kNow - 1'000), kNow), LeaseState::Live);
    EXPECT_EQ(leaseState(leaseOf(remote, kNow - kLeaseStaleMs), kNow), LeaseState::Live)
        << "at the limit it still binds";
    EXPECT_EQ(leaseState(leaseOf(remote, kNow - kLeaseStaleMs - 1), kNow), LeaseState::Stale);
    EXPECT_EQ(leaseState(leaseOf(remote, kNow - 5'000), kNow, 2'000), LeaseState::Stale)
        << "the limit is the caller's";

    // A controller of this host whose process is gone frees the lease at once, heartbeat or not.
    const ControllerOwner killed { "alice", localHost(), exitedPid() };
    EXPECT_EQ(leaseState(leaseOf(killed, kNow - 1'000), kNow), LeaseState::HolderGone);
    const ControllerOwner running { "alice", localHost(), QCoreApplication::applicationPid() };
    EXPECT_EQ(leaseState(leaseOf(running, kNow - 1'000), kNow), LeaseState::Live);
    // The same dead pid on another host says nothing about that host's process.
    const ControllerOwner elsewhere { "alice", "far-away-host.invalid", killed.pid };
    EXPECT_EQ(leaseState(leaseOf(elsewhere, kNow - 1'000), kNow), LeaseState::Live);
    EXPECT_EQ(leaseStateName(LeaseState::HolderGone), "holder gone");
}

TEST(LeaseStateTest, OthersLiveLeaseIgnoresOurOwnAndFreedOnes)
{
    QTemporaryDir dir;
    dra::Result<dra::store::StateDb> db = dra::store::StateDb::open(
        dir.filePath(QStringLiteral("state.db")), dra::store::OpenMode::ReadWrite);
    ASSERT_TRUE(db.has_value()) << db.error().message.toStdString();
    ControllerInbox inbox(*db);
    const ControllerOwner self { "carol", "console-c", 77 };
    const auto others = [&](int64_t now) {
        const auto lease = othersLiveLease(*db, "r1", self, now);
        EXPECT_TRUE(lease.has_value());
        return lease ? *lease : std::nullopt;
    };
    EXPECT_FALSE(others(kNow)) << "no lease at all";

    const ControllerOwner bob { "bob", "far-away-host.invalid", 4242 };
    ASSERT_TRUE(inbox.heartbeat("r1", bob.text(), bob.pid, kNow - 60'000, kNow).has_value());
    ASSERT_TRUE(others(kNow + 1'000));
    EXPECT_EQ(others(kNow + 1'000)->owner, bob.text());
    EXPECT_FALSE(others(kNow + kLeaseStaleMs + 1)) << "stale";

    ASSERT_TRUE(inbox.heartbeat("r1", self.text(), self.pid, kNow, kNow).has_value());
    EXPECT_FALSE(others(kNow + 1'000)) << "ours, left by a controller that stopped uncleanly";
    const ControllerOwner samePidOtherConsole { "dave", "console-d", self.pid };
    ASSERT_TRUE(
        inbox.heartbeat("r1", samePidOtherConsole.text(), samePidOtherConsole.pid, kNow, kNow)
            .has_value());
    EXPECT_TRUE(others(kNow + 1'000)) << "the same pid on another console is another controller";

    const ControllerOwner killed { "erin", localHost(), exitedPid() };
    ASSERT_TRUE(inbox.heartbeat("r1", killed.text(), killed.pid, kNow, kNow).has_value());
    EXPECT_FALSE(others(kNow + 1'000)) << "its process is gone";
}
