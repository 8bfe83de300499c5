// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/server/console_api_channel.h"

#include <QUrl>
#include <QWebSocket>

#include <nlohmann/json.hpp>

#include "core/server/console_api.h"
#include "core/server/console_api_inventory.h"
#include "core/server/console_api_rollouts.h"
#include "core/server/event_sink.h"
#include "core/server/resource_path.h"
#include "core/server/watch_hub.h"

namespace dra::server::console {

namespace {

using nlohmann::json;

// The rollouts of the state file: "changed" says the file was written (by this server's
// controllers, a verb, another process); the others follow the inventory.
constexpr const char *kRolloutsView = "rollouts";

// The views a page may follow; "changed" names the kinds whose objects moved, and the page
// asks again for what it shows.
bool isView(const std::string &view)
{
    static const char *const kViews[] = { "info", "overview", "devices", "device", "classes",
        "claims", "templates", "lint", "free", "access", kRolloutsView };
    for (const char *known : kViews)
        if (view == known)
            return true;
    return false;
}

// One watch subscription: every event of the watch goes to the page wrapped as
// {"type":"event","id":ID,"event":EVENT}.
class ChannelWatchSink final : public EventSink
{
public:
    ChannelWatchSink(ConsoleChannel &channel, std::string id)
        : EventSink(&channel)
        , m_channel(channel)
        , m_id(std::move(id))
    {
    }

    bool write(QByteArrayView event) override
    {
        if (!isOpen())
            return false;
        json parsed = json::parse(event.begin(), event.end(), nullptr, false);
        if (parsed.is_discarded())
            return true;
        if (!m_channel.send(
                { { "type", "event" }, { "id", m_id }, { "event", std::move(parsed) } })) {
            close();
            return false;
        }
        return true;
    }
    void finish() override { close(); }

    void close()
    {
        if (!isOpen())
            return;
        markClosed();
        deleteLater(); // the watcher, its child, goes with it
    }

private:
    ConsoleChannel &m_channel;
    std::string m_id;
};

} // namespace

ConsoleChannel::ConsoleChannel(QWebSocket *socket, qint64 maxPendingWriteBytes,
    ConsoleInventory &inventory, ConsoleRollouts &rollouts, const ServedApi &api, WatchHub &watches,
    AccessCheck check, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_maxPendingWriteBytes(maxPendingWriteBytes)
    , m_inventory(inventory)
    , m_api(api)
    , m_watches(watches)
    , m_check(std::move(check))
{
    socket->setParent(this);
    connect(socket, &QWebSocket::textMessageReceived, this, &ConsoleChannel::onMessage);
    connect(socket, &QWebSocket::disconnected, this, &QObject::deleteLater);
    connect(&m_inventory, &ConsoleInventory::changed, this, &ConsoleChannel::onChanged);
    connect(&rollouts, &ConsoleRollouts::changed, this, &ConsoleChannel::onRolloutsChanged);
    const ConsoleState *state = m_inventory.current();
    send({ { "type", "hello" }, { "protocol", kChannelProtocol },
        { "rev", state ? json(state->snapshot->rev()) : json(nullptr) } });
    if (!state) // the first snapshot is on its way: say so when it is there
        m_inventory.whenReady(
            [self = QPointer<ConsoleChannel>(this)](const Result<ConsoleState> &ready) {
                if (self && ready)
                    self->onChanged(ready->snapshot->rev(), {});
            });
}

ConsoleChannel::~ConsoleChannel() = default;

bool ConsoleChannel::send(const json &message)
{
    if (!m_socket || m_socket->state() != QAbstractSocket::ConnectedState)
        return false;
    if (m_socket->bytesToWrite() > m_maxPendingWriteBytes) {
        m_socket->abort(); // a page that does not read is not buffered for forever
        return false;
    }
    m_socket->sendTextMessage(QString::fromStdString(message.dump()));
    return true;
}

void ConsoleChannel::sendError(const std::string &id, int code, const std::string &message)
{
    json error = { { "type", "error" }, { "code", code }, { "message", message } };
    if (!id.empty())
        error["id"] = id;
    send(error);
}

void ConsoleChannel::onMessage(const QString &text)
{
    const json message = json::parse(text.toStdString(), nullptr, false);
    if (message.is_discarded() || !message.is_object()) {
        sendError({}, 400, "a message is one JSON object");
        return;
    }
    const std::string type = message.value("type", "");
    const std::string id = message.contains("id") && message["id"].is_string()
        ? message["id"].get<std::string>()
        : std::string();
    if (type == "subscribe")
        subscribe(message);
    else if (type == "unsubscribe")
        unsubscribe(id);
    else if (type == "ping")
        send({ { "type", "pong" }, { "id", id } });
    else
        sendError(id, 400, "unknown message type '" + type + "' (subscribe, unsubscribe, ping)");
}

void ConsoleChannel::subscribe(const json &message)
{
    const json idValue = message.value("id", json());
    if (!idValue.is_string() || idValue.get<std::string>().empty()) {
        sendError({}, 400, "subscribe: a subscription needs an id (a string)");
        return;
    }
    const std::string id = idValue.get<std::string>();
    if (m_views.contains(id) || m_watchSinks.contains(id)) {
        sendError(id, 409, "subscribe: the id " + id + " is already subscribed");
        return;
    }
    if (message.contains("watch")) {
        subscribeWatch(id, message["watch"]);
        return;
    }
    const std::string view = message.value("view", "");
    if (!isView(view)) {
        sendError(id, 400,
            "subscribe: no view '" + view
                + "' (info, overview, devices, device, classes, claims, templates, lint, free, "
                  "rollouts)");
        return;
    }
    m_views[id] = view;
    if (view == kRolloutsView) { // of the state file, which has no revision
        send({ { "type", "subscribed" }, { "id", id }, { "view", view } });
        return;
    }
    const ConsoleState *state = m_inventory.current();
    send({ { "type", "subscribed" }, { "id", id }, { "view", view },
        { "rev", state ? json(state->snapshot->rev()) : json(nullptr) } });
}

void ConsoleChannel::subscribeWatch(const std::string &id, const json &watch)
{
    if (!watch.is_object() || !watch.value("path", json()).is_string()) {
        sendError(
            id, 400, "subscribe: watch needs a path, e.g. /apis/resource.k8s.io/v1/resourceslices");
        return;
    }
    const std::string path = watch["path"].get<std::string>();
    const std::optional<ResourcePath> resource = resolveResourcePath(m_api, splitPath(path));
    if (!resource || !resource->isCollection()) {
        sendError(id, 404, "subscribe: " + path + " is no collection this server serves");
        return;
    }
    // The watch is checked as the same watch over HTTP would be.
    Request request;
    std::string query = "watch=true&allowWatchBookmarks=true";
    for (const char *name : { "resourceVersion", "labelSelector", "fieldSelector" }) {
        const json value = watch.value(name, json());
        if (value.is_string())
            query += std::string("&") + name + "="
                + QUrl::toPercentEncoding(QString::fromStdString(value.get<std::string>()))
                      .toStdString();
    }
    request.query = QueryParams::parse(query);
    Result<WatchRequest> parsed = parseWatchRequest(request);
    if (!parsed) {
        sendError(id, 400, "subscribe: " + parsed.error().message.toStdString());
        return;
    }
    if (!m_check) {
        startWatch(id, path, std::move(*parsed), *resource);
        return;
    }
    // As the same watch over HTTP would be authorised for the page's user.
    model::AccessAttributes attributes;
    attributes.verb = "watch";
    attributes.apiGroup = std::string(resource->kind->group);
    attributes.resource = std::string(resource->kind->plural);
    attributes.ns = resource->ns;
    QPointer<ConsoleChannel> self(this);
    m_check(attributes,
        [self, id, path, watchRequest = std::move(*parsed), resource = *resource](
            bool allowed) mutable {
            if (!self)
                return;
            if (!allowed) {
                self->sendError(id, 403, "subscribe: you may not watch " + path);
                return;
            }
            self->startWatch(id, path, std::move(watchRequest), resource);
        });
}

void ConsoleChannel::startWatch(const std::string &id, const std::string &path, WatchRequest watch,
    const ResourcePath &resource)
{
    auto *sink = new ChannelWatchSink(*this, id);
    m_watchSinks[id] = sink;
    connect(sink, &EventSink::closed, this, [this, id] { m_watchSinks.erase(id); });
    send({ { "type", "subscribed" }, { "id", id }, { "watch", path } });
    m_watches.start(sink, std::move(watch), *resource.kind, resource.ns, resource.apiVersion);
}

void ConsoleChannel::unsubscribe(const std::string &id)
{
    if (m_views.erase(id) > 0) {
        send({ { "type", "unsubscribed" }, { "id", id } });
        return;
    }
    if (const auto it = m_watchSinks.find(id); it != m_watchSinks.end()) {
        QPointer<EventSink> sink = it->second;
        m_watchSinks.erase(it);
        if (sink)
            sink->finish();
        send({ { "type", "unsubscribed" }, { "id", id } });
        return;
    }
    sendError(id, 404, "unsubscribe: no subscription " + id);
}

void ConsoleChannel::onChanged(qint64 rev, const QStringList &kinds)
{
    json kindList = json::array();
    for (const QString &kind : kinds)
        kindList.push_back(kind.toStdString());
    for (const auto &[id, view] : m_views)
        if (view != kRolloutsView)
            send({ { "type", "changed" }, { "id", id }, { "view", view }, { "rev", rev },
                { "kinds", kindList } });
}

void ConsoleChannel::onRolloutsChanged()
{
    for (const auto &[id, view] : m_views)
        if (view == kRolloutsView)
            send({ { "type", "changed" }, { "id", id }, { "view", view } });
}

} // namespace dra::server::console
