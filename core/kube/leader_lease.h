// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Leader election over a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: a
// candidate takes the Lease when it is free, released or not renewed for its duration, renews it
// while it leads, and stops leading when it could not renew in time, before anyone else may take
// it. The in-cluster mirror holds one so that an old and a new replica never both drive rollouts.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include "core/common/clock.h"
#include "core/common/result.h"

namespace dra::kube {

class RestClient;
struct RestRequest;
struct RestResponse;

// What a Lease's spec says.
struct LeaseRecord
{
    std::string holder; // "" when released
    int durationSeconds = 0;
    std::string acquireTime, renewTime; // RFC 3339 with microseconds
    int transitions = 0;

    bool operator==(const LeaseRecord &) const = default;
};

// The spec of a Lease object (missing fields are empty).
LeaseRecord readLeaseRecord(const nlohmann::json &lease);
// A Lease's `spec` for `record`.
nlohmann::json leaseSpec(const LeaseRecord &record);
// A MicroTime as the API writes it: "2026-12-04T19:40:01.123000Z".
std::string microTime(int64_t ms);

struct LeaderLeaseOptions
{
    std::string ns, name; // where the Lease lives
    std::string identity; // this candidate, unique among candidates (pod name and a nonce)
    // How long a holder's last renewal keeps others out, how long a leader may go without
    // renewing before it stops leading (less, so it stops before others may take over), and how
    // often candidates try and leaders renew.
    int durationSeconds = 15;
    int64_t renewDeadlineMs = 10'000;
    int64_t retryMs = 2'000;
};

// What a candidate does next with the Lease as it last read it: create it, take it (free,
// released, or not renewed within its duration since this candidate saw it change), renew it
// (its own), or wait for its holder. Expiry is measured from when the record was last seen to
// change on this candidate's clock (`observedAtMs`), never from the holder's timestamps: the two
// clocks need not agree.
enum class LeaseMove { Create, Take, Renew, Wait };
LeaseMove nextLeaseMove(const std::optional<LeaseRecord> &current, const std::string &identity,
    int64_t observedAtMs, int64_t nowMs);

// Runs the election for one candidate on its parent's thread, over `client` (which must outlive
// it). Errors are said in problem() and retried; leading() turns false as soon as the lease is
// lost or could not be renewed within the deadline.
class LeaderLease final : public QObject
{
    Q_OBJECT
public:
    LeaderLease(RestClient &client, LeaderLeaseOptions options,
        common::Clock &clock = common::Clock::system(), QObject *parent = nullptr);
    ~LeaderLease() override;

    // Tries now and every retryMs until release().
    void start();
    // Stops trying; if this candidate leads, gives the lease up (holder cleared) so that the next
    // candidate takes it at once instead of after its duration. `done` on this object's thread,
    // after the cluster answered or failed.
    void release(std::function<void()> done);

    // Whether a release() is waiting for the cluster's answer.
    bool releasing() const { return m_releasing; }
    bool leading() const { return m_leading; }
    // The holder as last read ("" when none or unknown).
    const std::string &holder() const { return m_holder; }
    const LeaderLeaseOptions &options() const { return m_options; }
    // "NAMESPACE/NAME".
    std::string leaseName() const;

Q_SIGNALS:
    void leadingChanged(bool leading, const QString &holder);
    // Another holder read (or none): who leads, as followers see it.
    void holderChanged(const QString &holder);
    // Why the Lease could not be read or written; a problem that repeats is said once.
    void problem(const QString &message);

private:
    void tryOnce();
    void scheduleNext();
    void observe(const std::optional<nlohmann::json> &lease);
    void write(LeaseMove move);
    void wrote(const Result<nlohmann::json> &stored);
    void failed(const common::Error &error);
    void setLeading(bool leading);
    QString path(bool named) const;
    Result<nlohmann::json> leaseAnswer(const RestResponse &response) const;
    RestRequest updateRequest(nlohmann::json lease, const LeaseRecord &record) const;

    RestClient &m_client;
    LeaderLeaseOptions m_options;
    common::Clock &m_clock;
    bool m_running = false;
    bool m_busy = false;
    bool m_leading = false;
    bool m_releasing = false;
    std::string m_holder;
    QString m_lastProblem; // said once until the next success or another problem
    std::optional<nlohmann::json> m_observed; // the Lease as last read or written
    int64_t m_observedAtMs = 0; // when its record last changed, on our clock
    int64_t m_renewedAtMs = 0; // our last successful write as the holder
};

} // namespace dra::kube
