// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Leader election over a Lease: the rule a candidate follows, and candidates competing for one
// Lease on a real (in-process) API server, with time moved by hand.
#include <memory>

#include <QEventLoop>
#include <QTimer>

#include <gtest/gtest.h>

#include "core/common/clock.h"
#include "core/kube/leader_lease.h"
#include "core/kube/rest_client.h"
#include "tests/support/kube_fixture.h"
#include "tests/support/test_cluster.h"

namespace dra::kube {
namespace leader_lease_test {

using nlohmann::json;
using test::spinUntil;

constexpr int64_t kNow = 1'800'000'000'000;

TEST(LeaseMoveTest, ACandidateTakesOnlyAFreeReleasedOrExpiredLease)
{
    EXPECT_EQ(nextLeaseMove(std::nullopt, "a", kNow, kNow), LeaseMove::Create);
    const LeaseRecord heldByB { "b", 15, "", "", 0 };
    EXPECT_EQ(nextLeaseMove(heldByB, "a", kNow, kNow + 14'999), LeaseMove::Wait);
    EXPECT_EQ(nextLeaseMove(heldByB, "a", kNow, kNow + 15'000), LeaseMove::Take);
    EXPECT_EQ(nextLeaseMove(heldByB, "b", kNow, kNow + 60'000), LeaseMove::Renew);
    const LeaseRecord released { "", 1, "", "", 3 };
    EXPECT_EQ(nextLeaseMove(released, "a", kNow, kNow), LeaseMove::Take);
}

TEST(LeaseMoveTest, TheRecordReadsAndWritesTheLeaseSpec)
{
    const LeaseRecord record { "pod-0_1a2b", 15, microTime(kNow), microTime(kNow + 2'500), 4 };
    EXPECT_EQ(record.renewTime, "2027-01-15T08:00:02.500000Z");
    EXPECT_EQ(readLeaseRecord({ { "spec", leaseSpec(record) } }), record);
    EXPECT_EQ(readLeaseRecord(json::object()), LeaseRecord {});
}

class LeaderLeaseTest : public testing::Test
{
protected:
    void SetUp() override
    {
        m_cluster.put({ test::namespaceObject("draconsole") });
        m_client = std::make_unique<RestClient>(m_cluster.clientConfig());
    }

    std::unique_ptr<LeaderLease> candidate(const std::string &identity)
    {
        LeaderLeaseOptions options;
        options.ns = "draconsole";
        options.name = "draconsole-rollouts";
        options.identity = identity;
        options.durationSeconds = 15;
        options.renewDeadlineMs = 10'000;
        options.retryMs = 2'000;
        return std::make_unique<LeaderLease>(*m_client, options, m_clock);
    }

    // Starts `leader`, which takes the Lease, then `follower`, which reads who holds it.
    static void leadAndFollow(LeaderLease &leader, LeaderLease &follower)
    {
        leader.start();
        ASSERT_TRUE(spinUntil([&] { return leader.leading(); }));
        follower.start();
        ASSERT_TRUE(spinUntil([&] { return follower.holder() == leader.options().identity; }));
    }

    // The Lease as the server holds it.
    json lease()
    {
        std::optional<json> found;
        m_client->get(QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/draconsole/leases/"
                                     "draconsole-rollouts"),
            {}, m_client.get(), [&](const Result<RestResponse> &response) {
                found = response ? json::parse(response->body.constData(), nullptr, false)
                                 : json(nullptr);
            });
        EXPECT_TRUE(spinUntil([&] { return found.has_value(); }));
        return found.value_or(json(nullptr));
    }

    size_t leaseRequests() const
    {
        size_t count = 0;
        for (const std::string &target : m_cluster.requests)
            count += target.find("/leases") != std::string::npos;
        return count;
    }

    // Moves time one retry period on and lets every candidate's read and write land.
    void nextRound(size_t expectedRequests)
    {
        const size_t before = leaseRequests();
        m_clock.advance(2'000);
        ASSERT_TRUE(spinUntil([&] { return leaseRequests() >= before + expectedRequests; }));
        settle();
    }

    static void settle()
    {
        QEventLoop loop;
        QTimer::singleShot(50, &loop, &QEventLoop::quit);
        loop.exec();
    }

    test::TestCluster m_cluster { test::TestCluster::Options { .writable = true } };
    common::ManualClock m_clock { kNow };
    std::unique_ptr<RestClient> m_client;
};

TEST_F(LeaderLeaseTest, OneCandidateLeadsAndTheOtherTakesOverOnlyOnceItsRenewalsStop)
{
    std::unique_ptr<LeaderLease> a = candidate("pod-0_a");
    std::unique_ptr<LeaderLease> b = candidate("pod-0_b");
    ASSERT_NO_FATAL_FAILURE(leadAndFollow(*a, *b));
    EXPECT_FALSE(b->leading());
    EXPECT_EQ(lease()["spec"]["holderIdentity"], "pod-0_a");

    // While A renews, B waits however long it waits.
    for (int round = 0; round < 12; ++round)
        nextRound(3); // A's read and renewal, B's read
    EXPECT_TRUE(a->leading());
    EXPECT_FALSE(b->leading());

    // A stops renewing without a word (its process killed): B takes over once the Lease's
    // duration passed since it last saw a renewal (A's last one, read in that round or the
    // next), never before.
    a.reset();
    for (int round = 0; round < 7; ++round) {
        nextRound(1);
        EXPECT_FALSE(b->leading()) << "after " << (round + 1) * 2 << " s";
    }
    for (int round = 0; round < 2 && !b->leading(); ++round)
        nextRound(1);
    EXPECT_TRUE(b->leading());
    const json taken = lease();
    EXPECT_EQ(taken["spec"]["holderIdentity"], "pod-0_b");
    EXPECT_EQ(taken["spec"]["leaseTransitions"], 1);
}

TEST_F(LeaderLeaseTest, AReleasedLeaseGoesToTheNextCandidateAtItsNextTry)
{
    std::unique_ptr<LeaderLease> a = candidate("pod-0_a");
    std::unique_ptr<LeaderLease> b = candidate("pod-1_b");
    ASSERT_NO_FATAL_FAILURE(leadAndFollow(*a, *b));

    bool released = false;
    a->release([&] { released = true; });
    EXPECT_FALSE(a->leading());
    ASSERT_TRUE(spinUntil([&] { return released; }));
    EXPECT_EQ(lease()["spec"]["holderIdentity"], "");
    nextRound(2); // B's read and its write
    EXPECT_TRUE(b->leading());
}

TEST_F(LeaderLeaseTest, AReleaseWhileARenewalIsUnderWayStillGivesTheLeaseUp)
{
    std::unique_ptr<LeaderLease> a = candidate("pod-0_a");
    a->start();
    ASSERT_TRUE(spinUntil([&] { return a->leading(); }));
    m_clock.advance(2'000); // a renewal starts: its read is on its way
    bool released = false;
    a->release([&] { released = true; });
    ASSERT_TRUE(spinUntil([&] { return released; }));
    settle();
    EXPECT_FALSE(a->leading());
    EXPECT_EQ(lease()["spec"]["holderIdentity"], "");
}

TEST_F(LeaderLeaseTest, ALeaderThatCannotRenewStopsLeadingBeforeTheLeaseCouldExpire)
{
    std::unique_ptr<LeaderLease> a = candidate("pod-0_a");
    std::vector<bool> changes;
    QObject::connect(a.get(), &LeaderLease::leadingChanged,
        [&](bool leading, const QString &) { changes.push_back(leading); });
    QStringList problems;
    QObject::connect(
        a.get(), &LeaderLease::problem, [&](const QString &message) { problems << message; });
    a->start();
    ASSERT_TRUE(spinUntil([&] { return a->leading(); }));
    m_cluster.failNext("/leases", 503, 1000);
    int64_t stoppedAfter = 0;
    for (int64_t waited = 2'000; waited <= 16'000 && a->leading(); waited += 2'000) {
        nextRound(1);
        stoppedAfter = waited;
    }
    EXPECT_FALSE(a->leading());
    EXPECT_GT(stoppedAfter, 10'000); // not at the first failure: the deadline is 10 s
    EXPECT_LT(stoppedAfter, 15'000); // before another candidate could take the Lease
    EXPECT_EQ(changes, (std::vector<bool> { true, false }));
    // Every try failed alike: said once, not at every try.
    ASSERT_EQ(problems.size(), 1) << problems.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(problems[0].contains(QStringLiteral("HTTP 503"))) << problems[0].toStdString();
}

} // namespace leader_lease_test
} // namespace dra::kube
