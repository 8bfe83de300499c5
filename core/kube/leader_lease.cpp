// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/leader_lease.h"

#include <functional>
#include <memory>
#include <utility>

#include <QDateTime>

#include "core/common/json_text.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

using nlohmann::json;

namespace {

std::string leaseString(const json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

int leaseInt(const json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_number_integer() ? found->get<int>() : 0;
}

} // namespace

// The Lease object of an answer; an error naming the Lease when it is not one.
Result<json> LeaderLease::leaseAnswer(const RestResponse &response) const
{
    const QString what = QStringLiteral("Lease %1").arg(common::qs(leaseName()));
    Result<json> lease = common::parseJson(response.body.toStdString(), what);
    if (lease && !lease->is_object())
        return dra::fail(common::Error::Code::Parse, what + QStringLiteral(": not an object"));
    return lease;
}

// An update of `lease` as read, with `record` as its spec: if anyone wrote it since, the server
// refuses (409).
RestRequest LeaderLease::updateRequest(json lease, const LeaseRecord &record) const
{
    lease["spec"] = leaseSpec(record);
    RestRequest request;
    request.method = "PUT";
    request.path = path(true);
    request.body = QByteArray::fromStdString(lease.dump());
    request.timeoutMs = int(m_options.renewDeadlineMs);
    return request;
}

LeaseRecord readLeaseRecord(const json &lease)
{
    LeaseRecord record;
    const auto spec = lease.find("spec");
    if (spec == lease.end() || !spec->is_object())
        return record;
    record.holder = leaseString(*spec, "holderIdentity");
    record.durationSeconds = leaseInt(*spec, "leaseDurationSeconds");
    record.acquireTime = leaseString(*spec, "acquireTime");
    record.renewTime = leaseString(*spec, "renewTime");
    record.transitions = leaseInt(*spec, "leaseTransitions");
    return record;
}

json leaseSpec(const LeaseRecord &record)
{
    json spec
        = { { "holderIdentity", record.holder }, { "leaseDurationSeconds", record.durationSeconds },
              { "leaseTransitions", record.transitions } };
    if (!record.acquireTime.empty())
        spec["acquireTime"] = record.acquireTime;
    if (!record.renewTime.empty())
        spec["renewTime"] = record.renewTime;
    return spec;
}

std::string microTime(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss.zzz'000Z'"))
        .toStdString();
}

LeaseMove nextLeaseMove(const std::optional<LeaseRecord> &current, const std::string &identity,
    int64_t observedAtMs, int64_t nowMs)
{
    if (!current)
        return LeaseMove::Create;
    if (current->holder == identity)
        return LeaseMove::Renew;
    if (current->holder.empty())
        return LeaseMove::Take;
    const int64_t expiresAt = observedAtMs + int64_t(current->durationSeconds) * 1000;
    return nowMs >= expiresAt ? LeaseMove::Take : LeaseMove::Wait;
}

LeaderLease::LeaderLease(
    RestClient &client, LeaderLeaseOptions options, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_options(std::move(options))
    , m_clock(clock)
{
}

LeaderLease::~LeaderLease() = default;

std::string LeaderLease::leaseName() const
{
    return m_options.ns + "/" + m_options.name;
}

QString LeaderLease::path(bool named) const
{
    QString path = QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/%1/leases")
                       .arg(common::qs(m_options.ns));
    if (named)
        path += QLatin1Char('/') + common::qs(m_options.name);
    return path;
}

void LeaderLease::start()
{
    m_running = true;
    tryOnce();
}

void LeaderLease::scheduleNext()
{
    m_clock.callLater(m_options.retryMs, this, [this]() {
        if (m_running)
            tryOnce();
    });
}

void LeaderLease::tryOnce()
{
    if (m_busy)
        return;
    // A leader that could not renew within the deadline stops leading before its record can
    // expire in another candidate's eyes.
    if (m_leading && m_clock.nowMs() - m_renewedAtMs > m_options.renewDeadlineMs)
        setLeading(false);
    m_busy = true;
    m_client.get(path(true), {}, this, [this](const Result<RestResponse> &response) {
        if (!m_running) { // released meanwhile: the Lease must not be taken again
            m_busy = false;
            return;
        }
        if (!response && response.error().code != common::Error::Code::NotFound) {
            failed(response.error());
            return;
        }
        std::optional<json> lease;
        if (response) {
            Result<json> read = leaseAnswer(*response);
            if (!read) {
                failed(read.error());
                return;
            }
            lease = std::move(*read);
        }
        observe(lease);
        const std::optional<LeaseRecord> record
            = m_observed ? std::optional(readLeaseRecord(*m_observed)) : std::nullopt;
        const LeaseMove move
            = nextLeaseMove(record, m_options.identity, m_observedAtMs, m_clock.nowMs());
        if (move == LeaseMove::Wait) {
            setLeading(false);
            m_busy = false;
            scheduleNext();
            return;
        }
        write(move);
    });
}

void LeaderLease::observe(const std::optional<json> &lease)
{
    const std::optional<LeaseRecord> before
        = m_observed ? std::optional(readLeaseRecord(*m_observed)) : std::nullopt;
    const std::optional<LeaseRecord> now
        = lease ? std::optional(readLeaseRecord(*lease)) : std::nullopt;
    if (before != now || m_observedAtMs == 0)
        m_observedAtMs = m_clock.nowMs();
    m_observed = lease;
    const std::string holder = now ? now->holder : std::string();
    if (holder != m_holder) {
        m_holder = holder;
        Q_EMIT holderChanged(common::qs(m_holder));
    }
}

void LeaderLease::write(LeaseMove move)
{
    const int64_t now = m_clock.nowMs();
    LeaseRecord record = m_observed ? readLeaseRecord(*m_observed) : LeaseRecord {};
    if (move != LeaseMove::Renew) {
        if (move == LeaseMove::Take)
            ++record.transitions;
        record.acquireTime = microTime(now);
    }
    record.holder = m_options.identity;
    record.durationSeconds = m_options.durationSeconds;
    record.renewTime = microTime(now);
    RestRequest request;
    if (move == LeaseMove::Create) {
        request.method = "POST";
        request.path = path(false);
        const json body = { { "apiVersion", "coordination.k8s.io/v1" }, { "kind", "Lease" },
            { "metadata", { { "name", m_options.name }, { "namespace", m_options.ns } } },
            { "spec", leaseSpec(record) } };
        request.body = QByteArray::fromStdString(body.dump());
        request.timeoutMs = int(m_options.renewDeadlineMs);
    } else {
        request = updateRequest(*m_observed, record); // a 409: this candidate reads it again
    }
    m_client.send(std::move(request), this, [this](const Result<RestResponse> &response) {
        wrote(response ? leaseAnswer(*response) : Result<json>(std::unexpected(response.error())));
    });
}

void LeaderLease::wrote(const Result<json> &stored)
{
    m_busy = false;
    if (!stored) {
        failed(stored.error());
        return;
    }
    observe(*stored);
    m_renewedAtMs = m_clock.nowMs();
    m_lastProblem.clear();
    setLeading(m_running && m_holder == m_options.identity);
    if (m_running)
        scheduleNext();
}

void LeaderLease::failed(const common::Error &error)
{
    m_busy = false;
    // Someone else wrote (or created) the Lease between our read and our write: not a problem,
    // the next read tells who holds it.
    if (error.code != common::Error::Code::Conflict) {
        const QString message
            = QStringLiteral("Lease %1: %2").arg(common::qs(leaseName()), error.message);
        if (message != std::exchange(m_lastProblem, message))
            Q_EMIT problem(message);
    }
    if (m_leading && m_clock.nowMs() - m_renewedAtMs > m_options.renewDeadlineMs)
        setLeading(false);
    if (m_running)
        scheduleNext();
}

void LeaderLease::setLeading(bool leading)
{
    if (leading == m_leading)
        return;
    m_leading = leading;
    Q_EMIT leadingChanged(leading, common::qs(m_holder));
}

void LeaderLease::release(std::function<void()> done)
{
    m_running = false;
    const bool held = m_leading;
    setLeading(false);
    if (!held) {
        done();
        return;
    }
    // Read first, and again after a conflict: a renewal may have been in flight, and the update
    // must be of the current version.
    m_releasing = true;
    auto finish = std::make_shared<std::function<void()>>([this, done = std::move(done)]() {
        m_releasing = false;
        done();
    });
    auto attempt = std::make_shared<std::function<void(int)>>();
    *attempt = [this, finish, weak = std::weak_ptr(attempt)](int attemptsLeft) {
        // The requests' callbacks hold the attempt alive (it holds itself only weakly).
        m_client.get(path(true), {}, this,
            [this, finish, self = weak.lock(), attemptsLeft](const Result<RestResponse> &response) {
                Result<json> lease = response ? leaseAnswer(*response)
                                              : Result<json>(std::unexpected(response.error()));
                if (!lease || readLeaseRecord(*lease).holder != m_options.identity) {
                    (*finish)();
                    return;
                }
                // As client-go releases: no holder and a duration of one second, so the next
                // candidate takes the lease at its next try.
                LeaseRecord record = readLeaseRecord(*lease);
                record.holder.clear();
                record.durationSeconds = 1;
                record.renewTime = microTime(m_clock.nowMs());
                RestRequest request = updateRequest(std::move(*lease), record);
                m_client.send(std::move(request), this,
                    [finish, self, attemptsLeft](const Result<RestResponse> &written) {
                        if (!written && written.error().code == common::Error::Code::Conflict
                            && attemptsLeft > 1 && self) {
                            (*self)(attemptsLeft - 1);
                            return;
                        }
                        (*finish)();
                    });
            });
    };
    (*attempt)(3);
}

} // namespace dra::kube
