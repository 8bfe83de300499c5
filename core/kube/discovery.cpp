// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/kube/discovery.h"
#include "core/kube/resource_path.h"

#include <memory>
#include <set>

#include <QPointer>

#include <nlohmann/json.hpp>

#include "core/common/json_text.h"
#include "core/kube/rest_client.h"

namespace dra::kube {

namespace {

using common::Error;

// The discovery walk: one object per run, alive until its last callback.
struct DiscoveryRun
{
    RestClient *client = nullptr;
    QPointer<QObject> context;
    std::function<void(const Result<ApiDiscovery> &)> done;
    ApiDiscovery result;
    QStringList pending; // versions whose resource lists are still to be read
    std::map<QString, std::set<std::string>> resources; // version -> plurals served
    std::string gatewayVersion; // the Gateway API version HTTPRoutes are read in, "" when absent

    void finish(const Result<ApiDiscovery> &outcome)
    {
        if (context)
            done(outcome);
    }
};

Result<nlohmann::json> parse(const RestResponse &response, const QString &what)
{
    return common::parseJson(response.body.toStdString(), what);
}

void chooseVersions(const std::shared_ptr<DiscoveryRun> &run)
{
    ApiDiscovery &out = run->result;
    for (const model::KindInfo &kind : model::allKinds()) {
        if (kind.group.empty()) {
            out.apiVersions[kind.kind] = "v1";
            continue;
        }
        // apps/v1, rbac.authorization.k8s.io/v1, networking.k8s.io/v1 and coordination.k8s.io/v1
        // are what every supported release serves.
        if (kind.group == model::kAppsGroup || kind.group == model::kRbacGroup
            || kind.group == model::kNetworkingGroup || kind.group == model::kCoordinationGroup) {
            out.apiVersions[kind.kind] = std::string(kind.group) + "/v1";
            continue;
        }
        if (kind.group == model::kGatewayGroup) {
            if (!run->gatewayVersion.empty())
                out.apiVersions[kind.kind] = std::string(kind.group) + "/" + run->gatewayVersion;
            continue;
        }
        // The newest served version that lists the kind; only DeviceTaintRule may fall back to
        // an alpha version.
        for (const QString &version : out.resourceVersions) {
            if (version == QLatin1String("v1alpha3") && kind.kind != model::Kind::DeviceTaintRule)
                continue;
            if (run->resources[version].contains(std::string(kind.plural))) {
                out.apiVersions[kind.kind] = std::string(kind.group) + "/" + version.toStdString();
                break;
            }
        }
    }
    run->finish(out);
}

// The Gateway API is an add-on: HTTPRoutes are mirrored in v1 where it is served, else v1beta1,
// and not at all on a cluster without it. A failure here only means no routes.
void readGatewayGroup(const std::shared_ptr<DiscoveryRun> &run)
{
    const QString path = QStringLiteral("/apis/") + common::qs(model::kGatewayGroup);
    run->client->get(path, {}, run->context, [run, path](const Result<RestResponse> &response) {
        if (response) {
            Result<nlohmann::json> group = parse(*response, path);
            std::set<std::string> served;
            if (group && group->is_object())
                for (const nlohmann::json &version :
                    group->value("versions", nlohmann::json::array()))
                    if (version.is_object()
                        && version.value("version", nlohmann::json()).is_string())
                        served.insert(version["version"].get<std::string>());
            for (const char *candidate : { "v1", "v1beta1" }) {
                if (served.contains(candidate)) {
                    run->gatewayVersion = candidate;
                    break;
                }
            }
        }
        chooseVersions(run);
    });
}

void readNextVersion(const std::shared_ptr<DiscoveryRun> &run)
{
    if (run->pending.isEmpty()) {
        readGatewayGroup(run);
        return;
    }
    const QString version = run->pending.takeFirst();
    run->client->get(QStringLiteral("/apis/resource.k8s.io/") + version, {}, run->context,
        [run, version](const Result<RestResponse> &response) {
            if (!response) {
                run->finish(fail(response.error()));
                return;
            }
            Result<nlohmann::json> list
                = parse(*response, QStringLiteral("resource.k8s.io/") + version);
            if (!list) {
                run->finish(fail(list.error()));
                return;
            }
            if (!list->is_object()) {
                run->finish(fail(Error::Code::Parse,
                    run->client->describe("GET", QStringLiteral("/apis/resource.k8s.io/") + version)
                        + QStringLiteral(": not an APIResourceList")));
                return;
            }
            for (const nlohmann::json &resource : list->value("resources", nlohmann::json::array()))
                if (resource.is_object() && resource.value("name", nlohmann::json()).is_string())
                    run->resources[version].insert(resource["name"].get<std::string>());
            readNextVersion(run);
        });
}

void readGroup(const std::shared_ptr<DiscoveryRun> &run)
{
    run->client->get(QStringLiteral("/apis/resource.k8s.io"), {}, run->context,
        [run](const Result<RestResponse> &response) {
            if (!response) {
                if (response.error().code == Error::Code::NotFound) { // no DRA on this cluster
                    readGatewayGroup(run);
                    return;
                }
                run->finish(fail(response.error()));
                return;
            }
            Result<nlohmann::json> group
                = parse(*response, QStringLiteral("/apis/resource.k8s.io"));
            if (!group) {
                run->finish(fail(group.error()));
                return;
            }
            if (!group->is_object()) {
                run->finish(fail(Error::Code::Parse,
                    run->client->describe("GET", QStringLiteral("/apis/resource.k8s.io"))
                        + QStringLiteral(": not an APIGroup")));
                return;
            }
            std::set<QString> served;
            for (const nlohmann::json &version : group->value("versions", nlohmann::json::array()))
                if (version.is_object() && version.value("version", nlohmann::json()).is_string())
                    served.insert(common::qs(version["version"].get<std::string>()));
            for (const QString &known : knownResourceVersions())
                if (served.contains(known))
                    run->result.resourceVersions.append(known);
            run->pending = run->result.resourceVersions;
            readNextVersion(run);
        });
}

} // namespace

const QStringList &knownResourceVersions()
{
    static const QStringList versions { QStringLiteral("v1"), QStringLiteral("v1beta2"),
        QStringLiteral("v1beta1"), QStringLiteral("v1alpha3") };
    return versions;
}

std::string ApiDiscovery::apiVersionOf(model::Kind kind) const
{
    const auto it = apiVersions.find(kind);
    return it == apiVersions.end() ? std::string() : it->second;
}

QString ApiDiscovery::collectionPath(const model::KindInfo &kind, const std::string &ns) const
{
    return resourcePath(apiVersionOf(kind.kind), kind, ns);
}

void discover(
    RestClient &client, QObject *context, std::function<void(const Result<ApiDiscovery> &)> done)
{
    auto run = std::make_shared<DiscoveryRun>();
    run->client = &client;
    run->context = context;
    run->done = std::move(done);
    client.get(
        QStringLiteral("/version"), {}, context, [run](const Result<RestResponse> &response) {
            if (!response) {
                run->finish(fail(response.error()));
                return;
            }
            Result<nlohmann::json> version = parse(*response, QStringLiteral("/version"));
            if (!version) {
                run->finish(fail(version.error()));
                return;
            }
            if (version->is_object() && version->value("gitVersion", nlohmann::json()).is_string())
                run->result.gitVersion = common::qs((*version)["gitVersion"].get<std::string>());
            readGroup(run);
        });
}

} // namespace dra::kube
