// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/mirror.h"

#include <algorithm>

#include <QStringList>

#include "core/common/json_text.h"
#include "core/common/logging.h"
#include "core/kube/access_review.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

namespace {

using common::Error;

// "kube-system namespace 1b4e28ba-… at https://10.0.0.1:6443", for notices.
QString describeIdentity(const ClusterIdentity &identity)
{
    QString text = identity.uid.empty()
        ? QStringLiteral("no readable kube-system namespace")
        : QStringLiteral("kube-system namespace %1").arg(common::qs(identity.uid));
    if (!identity.server.empty())
        text += QStringLiteral(" at %1").arg(common::qs(identity.server));
    return text;
}

bool settled(StreamState state)
{
    return state == StreamState::Synced || state == StreamState::Watching
        || state == StreamState::Forbidden;
}

} // namespace

Mirror::Mirror(RestClient &client, MirrorOptions options, common::Clock &clock, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_discoveryBackoff(m_options.reflector.backoff)
    , m_identity(m_options.recordedIdentity)
    , m_recordedBookmarkGapMs(m_options.recordedBookmarkGapMs)
{
    m_options.reflector.cluster = m_options.cluster;
    if (!m_options.reflector.bookmarks)
        m_options.reflector.bookmarks = std::make_shared<BookmarkCadence>();
    if (m_recordedBookmarkGapMs > 0)
        m_options.reflector.bookmarks->observe(m_recordedBookmarkGapMs);
    m_bookmarks = m_options.reflector.bookmarks;
    qRegisterMetaType<dra::kube::StreamStatus>();
}

Mirror::~Mirror()
{
    stop();
}

std::vector<model::Kind> Mirror::wantedKinds() const
{
    if (!m_options.kinds.empty())
        return m_options.kinds;
    std::vector<model::Kind> kinds;
    for (const model::KindInfo &kind : model::allKinds())
        if (model::isMirrored(kind.kind)
            && (!model::isWorkloadKind(kind.kind) || !m_options.workloadNamespaces.empty()))
            kinds.push_back(kind.kind);
    return kinds;
}

std::vector<std::string> Mirror::chosenNamespaces(model::Kind kind) const
{
    const std::vector<std::string> &chosen = m_options.workloadNamespaces;
    if (!model::isWorkloadKind(kind) || std::ranges::find(chosen, "*") != chosen.end())
        return {};
    return chosen;
}

void Mirror::start()
{
    stop();
    m_running = true;
    m_initialSyncDone = false;
    m_listedOnce.clear();
    runDiscovery();
}

void Mirror::stop()
{
    ++m_generation;
    m_running = false;
    m_rediscoveryQueued = false;
    for (auto &[key, reflector] : m_reflectors)
        reflector->stop();
    m_reflectors.clear();
    m_inFallback.clear();
    m_fallbackPending.clear();
    m_forbidden.clear();
    m_blocked.clear();
}

std::vector<StreamStatus> Mirror::streams() const
{
    std::vector<StreamStatus> out;
    for (const auto &[kind, status] : m_forbidden)
        out.push_back(status);
    for (const auto &[kind, status] : m_blocked)
        out.push_back(status);
    for (const auto &[key, reflector] : m_reflectors)
        out.push_back(reflector->status());
    std::ranges::stable_sort(out, [](const StreamStatus &a, const StreamStatus &b) {
        return std::tie(a.kind, a.ns) < std::tie(b.kind, b.ns);
    });
    return out;
}

void Mirror::runDiscovery()
{
    const uint64_t generation = m_generation;
    discover(m_client, this, [this, generation](const Result<ApiDiscovery> &discovery) {
        if (generation != m_generation || !m_running)
            return;
        if (!discovery) {
            retryDiscovery(discovery.error());
            return;
        }
        checkIdentity(*discovery);
    });
}

void Mirror::retryDiscovery(const Error &error)
{
    if (error.permanent) {
        blockOnDiscovery(error);
        return;
    }
    Q_EMIT notice(error);
    const uint64_t generation = m_generation;
    // At least as long as the server asked (Retry-After of a 429 or 503).
    const int64_t delay = std::max(m_discoveryBackoff.next(), error.retryAfterMs);
    m_clock.callLater(delay, this, [this, generation] {
        if (generation == m_generation && m_running)
            runDiscovery();
    });
}

void Mirror::blockOnDiscovery(const Error &error)
{
    const uint64_t generation = m_generation;
    Q_EMIT permanentFailure(error);
    if (generation != m_generation || !m_running)
        return; // a listener stopped the mirror
    const int64_t delay = permanentRetryDelay(m_options.reflector.permanentRetryMs);
    const QString reason = permanentFailureReason(error.message, delay);
    // Before any discovery no stream exists to carry the error; each wanted one gets it, so the
    // console, the web console and the cache say why nothing is mirrored. Streams already
    // running (discovery ran before) fail on their own and say so themselves.
    model::WatchBatch batch;
    batch.cluster = m_options.cluster;
    for (model::Kind kind : wantedKinds()) {
        if (std::ranges::any_of(
                m_reflectors, [kind](const auto &entry) { return entry.first.first == kind; }))
            continue;
        StreamStatus &status = m_blocked[kind];
        status.kind = kind;
        status.state = StreamState::Error;
        status.reason = reason;
        if (status.apiVersion.empty())
            status.apiVersion = m_discovery.apiVersionOf(kind);
        batch.streams.push_back(status.record());
        Q_EMIT streamChanged(status);
    }
    if (!batch.streams.empty())
        Q_EMIT batchReady(batch);
    m_clock.callLater(delay, this, [this, generation] {
        if (generation == m_generation && m_running)
            runDiscovery();
    });
}

void Mirror::checkIdentity(const ApiDiscovery &discovery)
{
    const uint64_t generation = m_generation;
    readClusterIdentity(
        m_client, this, [this, generation, discovery](const Result<ClusterIdentity> &identity) {
            if (generation != m_generation || !m_running)
                return;
            if (!identity) {
                retryDiscovery(identity.error());
                return;
            }
            m_discoveryBackoff.reset();
            m_blocked.clear(); // the streams started next say how they fare
            std::string archive;
            switch (compareIdentity(m_identity, *identity)) {
            case IdentityVerdict::Replaced:
                archive = archivedClusterName(m_options.cluster, m_identity);
                Q_EMIT notice(Error { Error::Code::Conflict,
                    QStringLiteral("context %1 now reaches another cluster (%2, was %3): its "
                                   "cached objects are replaced; the earlier cluster's change "
                                   "log is kept as cluster %4")
                        .arg(m_client.config().context, describeIdentity(*identity),
                            describeIdentity(m_identity), common::qs(archive)) });
                forgetStreams();
                m_identity = *identity;
                break;
            case IdentityVerdict::Unrecorded:
            case IdentityVerdict::Same:
                // What was not known before is now (a UID the recorded identity lacked).
                if (!identity->uid.empty())
                    m_identity.uid = identity->uid;
                m_identity.server = identity->server;
                break;
            }
            onDiscovered(discovery, archive);
        });
}

void Mirror::forgetStreams()
{
    for (auto &[key, reflector] : m_reflectors) {
        reflector->stop();
        reflector.release()->deleteLater(); // one of them may be emitting right now
    }
    m_reflectors.clear();
    m_listedOnce.clear();
    m_wasStale.clear();
    m_namespaces.clear();
    m_fallbackPending.clear();
    m_inFallback.clear();
    m_forbidden.clear();
    m_options.resumeFrom.clear();
    m_discoveredOnce = false;
    m_discovery = {};
    *m_bookmarks = {};
    m_recordedBookmarkGapMs = 0;
}

void Mirror::scheduleRediscovery()
{
    if (m_rediscoveryQueued || !m_running)
        return;
    m_rediscoveryQueued = true;
    const uint64_t generation = m_generation;
    m_clock.callLater(0, this, [this, generation] {
        if (generation != m_generation)
            return;
        m_rediscoveryQueued = false;
        runDiscovery();
    });
}

void Mirror::onDiscovered(const ApiDiscovery &discovery, const std::string &archive)
{
    const bool first = !m_discoveredOnce;
    m_discoveredOnce = true;
    const ApiDiscovery previous = m_discovery;
    m_discovery = discovery;
    Q_EMIT discovered(m_discovery);

    model::WatchBatch info;
    info.cluster = m_options.cluster;
    info.archiveHistoryAs = archive;
    info.server = m_client.config().server.toString(QUrl::RemoveUserInfo).toStdString();
    info.serverVersion = discovery.gitVersion.toStdString();
    info.clusterUid = m_identity.uid;
    Q_EMIT batchReady(info);

    for (model::Kind kind : wantedKinds()) {
        const model::KindInfo &info = model::kindInfo(kind);
        const std::string apiVersion = discovery.apiVersionOf(kind);
        const std::string before = previous.apiVersionOf(kind);
        if (apiVersion.empty()) {
            if (first || !before.empty())
                Q_EMIT notice(Error { Error::Code::NotFound,
                    QStringLiteral(
                        "%1: the cluster does not serve %2 (resource.k8s.io versions: %3)")
                        .arg(m_client.config().describe(), common::qs(info.name),
                            discovery.resourceVersions.isEmpty()
                                ? QStringLiteral("none")
                                : discovery.resourceVersions.join(QStringLiteral(", "))) });
            // Streams of a kind that went away stop; their objects stay as last seen.
            for (auto it = m_reflectors.begin(); it != m_reflectors.end();) {
                if (it->first.first == kind) {
                    it->second->stop();
                    it = m_reflectors.erase(it);
                } else {
                    ++it;
                }
            }
            m_listedOnce.insert({ kind, std::string() });
            continue;
        }
        const std::vector<std::string> chosen = chosenNamespaces(kind);
        const std::string firstStream = chosen.empty() ? std::string() : chosen.front();
        if (!first && apiVersion == before && m_reflectors.contains({ kind, firstStream }))
            continue;
        if (!first && apiVersion != before)
            qCInfo(lcKube).noquote()
                << common::qs(info.name) << "is now read as" << common::qs(apiVersion) << "(was"
                << common::qs(before) << ")";
        // New, or served in another version now: (re)start its streams, which relist.
        std::vector<std::string> namespaces = chosen;
        if (chosen.empty()) {
            namespaces.push_back(std::string());
            for (const auto &[key, reflector] : m_reflectors)
                if (key.first == kind && !key.second.empty())
                    namespaces.push_back(key.second);
            if (m_inFallback.contains(kind))
                namespaces.erase(namespaces.begin());
        }
        for (const std::string &ns : namespaces) {
            Reflector *reflector = addReflector(info, ns);
            const auto resume = m_options.resumeFrom.find({ kind, ns });
            // A stored resourceVersion is only worth resuming in the version it came from.
            if (first && resume != m_options.resumeFrom.end()
                && resume->second.apiVersion == apiVersion)
                reflector->start(resume->second.resourceVersion);
            else
                reflector->start();
        }
    }
    checkInitialSync();
}

Reflector *Mirror::addReflector(const model::KindInfo &kind, const std::string &ns)
{
    const StreamKey key { kind.kind, ns };
    if (auto it = m_reflectors.find(key); it != m_reflectors.end()) {
        it->second->stop();
        it->second.release()->deleteLater(); // it may be the one emitting right now
        m_reflectors.erase(it);
    }
    auto reflector = std::make_unique<Reflector>(
        m_client, kind, m_discovery.apiVersionOf(kind.kind), ns, m_options.reflector, m_clock);
    Reflector *raw = reflector.get();
    connect(raw, &Reflector::batchReady, this, &Mirror::onBatch);
    connect(raw, &Reflector::statusChanged, this, &Mirror::onStatus);
    connect(
        raw, &Reflector::listProgress, this, [this, raw] { Q_EMIT listProgress(raw->status()); });
    connect(raw, &Reflector::objectRejected, this, &Mirror::notice);
    connect(raw, &Reflector::notServed, this, &Mirror::scheduleRediscovery);
    connect(raw, &Reflector::permanentFailure, this, &Mirror::permanentFailure);
    m_reflectors[key] = std::move(reflector);
    return raw;
}

void Mirror::onBatch(const model::WatchBatch &batch)
{
    // Keep the set of namespaces current, for namespace fallbacks.
    bool replaced = false;
    for (const auto &[group, kind] : batch.replaceKinds)
        replaced = replaced || (group.empty() && kind == "Namespace");
    if (replaced)
        m_namespaces.clear();
    std::vector<std::string> added;
    for (const model::Change &change : batch.changes) {
        if (!change.object.key.group.empty() || change.object.key.kind != "Namespace")
            continue;
        if (change.type == model::ChangeType::Deleted) {
            m_namespaces.erase(change.object.key.name);
        } else if (m_namespaces.insert(change.object.key.name).second) {
            added.push_back(change.object.key.name);
        }
    }
    if (m_bookmarks->longestGapMs > m_recordedBookmarkGapMs) {
        // First seen, or longer than recorded: kept, so a later run knows it from the start.
        m_recordedBookmarkGapMs = m_bookmarks->longestGapMs;
        model::WatchBatch recorded = batch;
        recorded.bookmarkGapMs = m_recordedBookmarkGapMs;
        Q_EMIT batchReady(recorded);
    } else {
        Q_EMIT batchReady(batch);
    }
    // A namespace created later may be readable for kinds in fallback.
    if (!replaced && !added.empty() && !m_inFallback.empty()) {
        for (model::Kind kind : m_inFallback) {
            const model::KindInfo &info = model::kindInfo(kind);
            for (const std::string &ns : added) {
                if (m_reflectors.contains({ kind, ns }))
                    continue;
                const uint64_t generation = m_generation;
                reviewRules(m_client, ns, this,
                    [this, generation, kind, ns, &info](
                        const Result<std::vector<ResourceRule>> &rules) {
                        if (generation != m_generation || !rules
                            || m_reflectors.contains({ kind, ns }))
                            return;
                        if (rulesAllow(*rules, info.group, info.plural,
                                { QStringLiteral("list"), QStringLiteral("watch") }))
                            addReflector(info, ns)->start();
                    });
            }
        }
    }
}

void Mirror::onStatus(const StreamStatus &status)
{
    const StreamKey key { status.kind, status.ns };
    Q_EMIT streamChanged(status);
    if (status.state == StreamState::Stale)
        m_wasStale.insert(key);
    if ((status.state == StreamState::Watching || status.state == StreamState::Synced)
        && m_wasStale.erase(key) > 0)
        scheduleRediscovery(); // back after losing the server: it may have been upgraded meanwhile
    if (settled(status.state) || status.state == StreamState::Error)
        m_listedOnce.insert(key);

    const model::KindInfo &info = model::kindInfo(status.kind);
    if (status.state == StreamState::Forbidden && status.ns.empty() && info.namespaced
        && !m_inFallback.contains(status.kind))
        fallBackToNamespaces(status.kind);
    if (status.kind == model::Kind::Namespace && status.state != StreamState::Listing
        && !m_fallbackPending.empty())
        startNamespaceFallbacks();
    checkInitialSync();
}

void Mirror::fallBackToNamespaces(model::Kind kind)
{
    m_inFallback.insert(kind);
    const StreamKey key { kind, std::string() };
    if (auto it = m_reflectors.find(key); it != m_reflectors.end()) {
        StreamStatus status = it->second->status();
        it->second->stop();
        it->second.release()->deleteLater(); // it is emitting the 403 right now
        m_reflectors.erase(it);
        m_forbidden[kind] = status;
    }
    m_fallbackPending.insert(kind);
    const auto namespaceStream = m_reflectors.find({ model::Kind::Namespace, std::string() });
    const bool waitForNamespaces = namespaceStream != m_reflectors.end()
        && namespaceStream->second->status().state == StreamState::Listing;
    if (!waitForNamespaces)
        startNamespaceFallbacks();
}

void Mirror::startNamespaceFallbacks()
{
    std::set<std::string> candidates = m_namespaces;
    candidates.insert(m_options.namespaces.begin(), m_options.namespaces.end());
    candidates.insert(m_client.config().ns.toStdString());
    std::vector<std::string> chosen(candidates.begin(), candidates.end());
    const int skipped = std::max(0, int(chosen.size()) - m_options.maxFallbackNamespaces);
    chosen.resize(std::min<size_t>(chosen.size(), size_t(m_options.maxFallbackNamespaces)));

    const std::set<model::Kind> kinds = std::exchange(m_fallbackPending, {});
    const uint64_t generation = m_generation;
    // One rules review per namespace answers for every kind at once.
    struct Pending
    {
        int outstanding = 0;
        std::map<model::Kind, QStringList> readable;
        QStringList unknown; // namespaces whose review failed: tried directly
    };
    auto pending = std::make_shared<Pending>();
    pending->outstanding = int(chosen.size());
    auto finish = [this, generation, kinds, pending, skipped, total = int(chosen.size())] {
        if (generation != m_generation)
            return;
        for (model::Kind kind : kinds) {
            const model::KindInfo &info = model::kindInfo(kind);
            QStringList namespaces = pending->readable[kind] + pending->unknown;
            namespaces.removeDuplicates();
            namespaces.sort();
            for (const QString &ns : namespaces)
                if (!m_reflectors.contains({ kind, ns.toStdString() }))
                    addReflector(info, ns.toStdString())->start();
            StreamStatus &status = m_forbidden[kind];
            status.kind = kind;
            status.state = StreamState::Forbidden;
            status.apiVersion = m_discovery.apiVersionOf(kind);
            const int invisible = total - int(namespaces.size()) + skipped;
            status.reason
                = QStringLiteral(
                    "%1 may not be listed in all namespaces; mirroring %2 namespace(s)%3%4")
                      .arg(common::qs(info.name))
                      .arg(namespaces.size())
                      .arg(namespaces.isEmpty() ? QString()
                                                : QStringLiteral(" (")
                                  + namespaces.join(QStringLiteral(", ")) + QLatin1Char(')'))
                      .arg(invisible > 0 ? QStringLiteral("; %1 known namespace(s) are not visible")
                                               .arg(invisible)
                                         : QString());
            model::WatchBatch batch;
            batch.cluster = m_options.cluster;
            batch.streams.push_back(status.record());
            Q_EMIT batchReady(batch);
            Q_EMIT streamChanged(status);
            Q_EMIT notice(Error { Error::Code::Forbidden,
                m_client.config().describe() + QStringLiteral(": ") + status.reason });
        }
        checkInitialSync();
    };
    if (chosen.empty()) {
        finish();
        return;
    }
    for (const std::string &ns : chosen) {
        reviewRules(m_client, ns, this,
            [kinds, ns, pending, finish](const Result<std::vector<ResourceRule>> &rules) {
                if (!rules) {
                    pending->unknown.append(common::qs(ns));
                } else {
                    for (model::Kind kind : kinds) {
                        const model::KindInfo &info = model::kindInfo(kind);
                        if (rulesAllow(*rules, info.group, info.plural,
                                { QStringLiteral("list"), QStringLiteral("watch") }))
                            pending->readable[kind].append(common::qs(ns));
                    }
                }
                if (--pending->outstanding == 0)
                    finish();
            });
    }
}

void Mirror::checkInitialSync()
{
    if (m_initialSyncDone || !m_discoveredOnce || !m_fallbackPending.empty())
        return;
    for (const auto &[key, reflector] : m_reflectors)
        if (!m_listedOnce.contains(key))
            return;
    m_initialSyncDone = true;
    Q_EMIT initialSynced();
}

std::vector<std::string> parseNamespaceList(const QString &text)
{
    std::vector<std::string> namespaces;
    for (const QString &ns : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (const QString trimmed = ns.trimmed(); !trimmed.isEmpty())
            namespaces.push_back(trimmed.toStdString());
    }
    return namespaces;
}

} // namespace dra::kube
