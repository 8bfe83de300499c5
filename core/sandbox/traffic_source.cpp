// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/sandbox/traffic_source.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <QElapsedTimer>
#include <QHostAddress>
#include <QTcpSocket>

#include "core/sandbox/controller_support.h"

namespace dra::sandbox {

using nlohmann::json;

namespace {

// What a request through a gateway answers when no backend took it.
constexpr int kGatewayUnavailable = 503;

TrafficSource::Backend backendOf(const ObjectView &view, const std::string &ns, const json &ref)
{
    TrafficSource::Backend backend;
    backend.service = ref.value("name", std::string());
    // A backendRef without a weight has the Gateway API default of 1.
    backend.weight = ref.contains("weight") && ref["weight"].is_number_integer()
        ? ref["weight"].get<int>()
        : 1;
    const std::string refNs = ref.value("namespace", ns);
    if (ref.value("kind", std::string("Service")) == "Service")
        backend.endpoints = readyEndpoints(
            view, refNs, backend.service, ref.contains("port") ? ref["port"].dump() : std::string())
                                .value_or(std::vector<ServiceEndpoint>());
    return backend;
}

} // namespace

TrafficSource::TrafficSource(
    TrafficMetrics &metrics, common::Clock &clock, Options options, QObject *parent)
    : QObject(parent)
    , m_metrics(metrics)
    , m_clock(clock)
    , m_options(options)
{
    connect(&m_sendTimer, &QTimer::timeout, this, &TrafficSource::sendRound);
    connect(&m_scrapeTimer, &QTimer::timeout, this, &TrafficSource::scrape);
}

TrafficSource::~TrafficSource()
{
    // Requests still under way are dropped without being counted: the metrics may go first.
    for (QTcpSocket *socket : findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly)) {
        socket->disconnect();
        socket->abort();
    }
}

void TrafficSource::start()
{
    if (m_options.requestsPerSecond <= 0)
        return;
    m_sendTimer.start(std::max(1, 1000 / m_options.requestsPerSecond));
    m_scrapeTimer.start(m_options.scrapeIntervalMs);
}

void TrafficSource::scrape()
{
    m_metrics.scrape(m_clock.nowMs());
}

void TrafficSource::sync(const ObjectView &view)
{
    // The round-robin state of a rule that keeps its shape carries over, so ratios stay exact
    // across passes.
    std::map<std::string, Rule> before;
    for (Rule &rule : m_rules)
        before.emplace(rule.route, std::move(rule));
    m_rules.clear();
    for (const json &route : view.all(model::Kind::HTTPRoute)) {
        const std::string ns = metaText(route, "namespace");
        const json rules = route.value("/spec/rules"_json_pointer, json::array());
        for (size_t index = 0; index < rules.size(); ++index) {
            Rule rule;
            rule.route = ns + '/' + metaText(route, "name") + '#' + std::to_string(index);
            for (const json &ref : rules[index].value("backendRefs", json::array()))
                rule.backends.push_back(backendOf(view, ns, ref));
            for (const json &filter : rules[index].value("filters", json::array())) {
                if (filter.value("type", std::string()) != "RequestMirror"
                    || !filter.contains("requestMirror"))
                    continue;
                const json &mirror = filter["requestMirror"];
                Mirror copy { backendOf(view, ns, mirror.value("backendRef", json::object())), 100,
                    0 };
                if (mirror.contains("percent") && mirror["percent"].is_number_integer())
                    copy.percent = mirror["percent"].get<int>();
                else if (mirror.contains("fraction")) // {numerator, denominator (default 100)}
                    copy.percent = int(100 * mirror["fraction"].value("numerator", 0)
                        / std::max(1, mirror["fraction"].value("denominator", 100)));
                rule.mirrors.push_back(std::move(copy));
            }
            rule.current.assign(rule.backends.size(), 0);
            if (const auto old = before.find(rule.route);
                old != before.end() && old->second.backends.size() == rule.backends.size()) {
                rule.current = old->second.current;
                for (size_t i = 0; i < rule.backends.size(); ++i)
                    rule.backends[i].next = old->second.backends[i].next;
                for (size_t i = 0; i < rule.mirrors.size() && i < old->second.mirrors.size(); ++i)
                    rule.mirrors[i].credit = old->second.mirrors[i].credit;
            }
            m_rules.push_back(std::move(rule));
        }
    }
    std::set<std::string> live;
    for (const Rule &rule : m_rules) {
        for (const Backend &backend : rule.backends)
            for (const ServiceEndpoint &endpoint : backend.endpoints)
                live.insert(endpoint.ns + '/' + endpoint.pod);
        for (const Mirror &mirror : rule.mirrors)
            for (const ServiceEndpoint &endpoint : mirror.backend.endpoints)
                live.insert(endpoint.ns + '/' + endpoint.pod);
    }
    m_metrics.retainPods(live);
}

void TrafficSource::sendRound()
{
    for (Rule &rule : m_rules) {
        // Smooth weighted round robin: every backend gains its weight, the richest is picked and
        // pays the total, so over any window the shares follow the weights closely.
        int total = 0, pick = -1;
        for (size_t i = 0; i < rule.backends.size(); ++i) {
            if (rule.backends[i].weight <= 0)
                continue;
            total += rule.backends[i].weight;
            rule.current[i] += rule.backends[i].weight;
            if (pick < 0 || rule.current[i] > rule.current[size_t(pick)])
                pick = int(i);
        }
        if (pick < 0)
            continue;
        rule.current[size_t(pick)] -= total;
        send(rule.backends[size_t(pick)]);
        for (Mirror &mirror : rule.mirrors) {
            mirror.credit += mirror.percent * 10;
            if (mirror.credit >= 1000) {
                mirror.credit -= 1000;
                send(mirror.backend);
            }
        }
    }
}

void TrafficSource::send(Backend &backend)
{
    if (backend.endpoints.empty() || m_inFlight >= m_options.maxInFlight)
        return;
    const ServiceEndpoint endpoint = backend.endpoints[backend.next++ % backend.endpoints.size()];
    m_metrics.ensurePod(endpoint.ns, endpoint.deployment, endpoint.pod);
    ++m_inFlight;
    auto *socket = new QTcpSocket(this);
    auto started = std::make_shared<QElapsedTimer>();
    started->start();
    auto done = std::make_shared<bool>(false);
    auto finish = [this, socket, started, done, endpoint](int code) {
        if (*done)
            return;
        *done = true;
        --m_inFlight;
        m_metrics.observe(endpoint.ns, endpoint.deployment, endpoint.pod, code,
            double(started->nsecsElapsed()) / 1e9);
        socket->abort();
        socket->deleteLater();
    };
    connect(socket, &QTcpSocket::connected, socket, [socket, endpoint] {
        socket->write(QByteArray::fromStdString("GET /v1/models HTTP/1.1\r\nHost: " + endpoint.ip
            + "\r\nUser-Agent: draconsole-demo-traffic\r\nConnection: close\r\n\r\n"));
    });
    // The responders close after answering: the status line is all that is needed.
    connect(socket, &QTcpSocket::readyRead, socket, [socket, finish] {
        const QByteArray head = socket->peek(64);
        const qsizetype space = head.indexOf(' ');
        if (space < 0 || head.size() < space + 4)
            return;
        finish(head.mid(space + 1, 3).toInt());
    });
    connect(socket, &QTcpSocket::errorOccurred, socket, [finish] { finish(kGatewayUnavailable); });
    QTimer::singleShot(m_options.timeoutMs, socket, [finish] { finish(kGatewayUnavailable); });
    socket->connectToHost(
        QHostAddress(QString::fromStdString(endpoint.ip)), quint16(endpoint.port));
}

} // namespace dra::sandbox
