// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/pool_status_request.h"

#include <memory>

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>

namespace dra::kube {

using common::Error;
using nlohmann::json;

namespace {

constexpr int kPollMs = 250;

struct PoolStatusQuestion
{
    RestClient *client = nullptr;
    QPointer<QObject> context;
    QString path; // of the created request
    int timeoutMs = 0;
    QElapsedTimer waited;
    std::function<void(Result<json>)> done;
};

// Deletes the request, then answers: a question asked is never left behind in the cluster.
void finish(const std::shared_ptr<PoolStatusQuestion> &a, Result<json> answer)
{
    RestRequest remove;
    remove.method = "DELETE";
    remove.path = a->path;
    a->client->send(
        remove, a->context, [a, answer = std::move(answer)](const Result<RestResponse> &) mutable {
            a->done(std::move(answer));
        });
}

void poll(const std::shared_ptr<PoolStatusQuestion> &a)
{
    a->client->get(a->path, {}, a->context, [a](const Result<RestResponse> &got) {
        if (!got)
            return finish(a, dra::fail(got.error()));
        const json object = json::parse(got->body.constData(), nullptr, false);
        const json status = object.is_object() ? object.value("status", json()) : json();
        if (status.is_object() && status.contains("poolCount"))
            return finish(a, status);
        if (status.is_object())
            for (const json &c : status.value("conditions", json::array()))
                if (c.value("type", "") == "Failed" && c.value("status", "") == "True")
                    return finish(a,
                        dra::fail(Error::Code::Invalid,
                            QStringLiteral("the cluster could not answer the "
                                           "ResourcePoolStatusRequest: %1")
                                .arg(QString::fromStdString(c.value("message", "")))));
        if (a->waited.elapsed() >= a->timeoutMs)
            return finish(a,
                dra::fail(Error::Code::Busy,
                    QStringLiteral("the cluster wrote no status for the ResourcePoolStatusRequest "
                                   "within %1 s (is its resource pool status controller on?)")
                        .arg(a->timeoutMs / 1000.0)));
        QTimer::singleShot(kPollMs, a->context, [a]() { poll(a); });
    });
}

} // namespace

void requestPoolStatus(RestClient &client, const json &request, int timeoutMs, QObject *context,
    std::function<void(Result<json>)> done)
{
    auto a = std::make_shared<PoolStatusQuestion>();
    a->client = &client;
    a->context = context;
    a->timeoutMs = timeoutMs;
    a->done = std::move(done);
    a->waited.start();
    RestRequest create;
    create.method = "POST";
    create.path = QString::fromLatin1(kPoolStatusRequests);
    create.body = QByteArray::fromStdString(request.dump());
    client.send(create, context, [a](const Result<RestResponse> &created) {
        if (!created) {
            Error error = created.error();
            if (error.code == Error::Code::NotFound)
                error.message = QStringLiteral("the cluster does not serve "
                                               "ResourcePoolStatusRequest (resource.k8s.io/"
                                               "v1alpha3: Kubernetes 1.36 or later with the "
                                               "DRAResourcePoolStatus feature): ")
                    + error.message;
            return a->done(dra::fail(std::move(error)));
        }
        const json object = json::parse(created->body.constData(), nullptr, false);
        const std::string name = object.is_object()
            ? object.value("metadata", json::object()).value("name", std::string())
            : std::string();
        if (name.empty())
            return a->done(dra::fail(Error::Code::Parse,
                QStringLiteral("the cluster's answer to creating a ResourcePoolStatusRequest "
                               "names no object")));
        a->path = QString::fromLatin1(kPoolStatusRequests) + QLatin1Char('/')
            + QString::fromStdString(name);
        poll(a);
    });
}

} // namespace dra::kube
