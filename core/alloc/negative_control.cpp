// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// How the negative selector is chosen. A negative control is only convincing when it differs
// from the original as little as possible, so that "it stays Pending" can only be blamed on the
// selector. For each request, with C1 && ... && Cn the top-level clauses of all its selectors:
//
// 1. "negated clause": the original with one clause Ck replaced by !(Ck), trying the last
//    clause first (the narrowing test usually comes last: a product after a driver, a memory
//    bound after a product). It asks for "a device like the original's in every other respect
//    that fails this one test". It is taken only when it matches no device of the class on
//    this inventory and fails on none, which the check below verifies device by device.
// 2. "contradiction": (C1 && ... && Cn) && !(C1 && ... && Cn). It reads every attribute the
//    original reads, evaluates wherever the original evaluates (the && short-circuits on the
//    original's own outcome), and no device can satisfy it on any inventory.
// 3. A request without selectors has no selector to negate: the class itself is the boundary,
//    and the negative control asks for a device of none of the drivers the class's devices
//    come from.
//
// Runtime errors matter because Kubernetes' allocator fails a claim whose selector errors on a
// device instead of skipping the device: a negative control must be Pending for "no device
// matches", not for an error, so a candidate that errors anywhere is passed over.
#include "core/alloc/negative_control.h"

#include <set>

#include "core/alloc/allocated_state.h"
#include "core/alloc/selector_clauses.h"
#include "core/alloc/session.h"
#include "core/alloc/simulator.h"
#include "core/model/object.h"

namespace dra::alloc {
namespace {

using nlohmann::json;

constexpr std::string_view kSuffix = "-negative-control";

// Matches of one selector list over the devices of a class.
struct Tally
{
    std::set<int> devices; // device ids
    std::string error; // the first compile or runtime error
};

Tally tally(Session &session, const std::vector<int> &classDevices,
    const std::vector<model::DeviceSelector> &selectors)
{
    Tally result;
    const int list = session.selectorList(selectors);
    const Cluster &cluster = session.cluster();
    for (const int device : classDevices) {
        const SelectorMatch match = session.matches(list, device);
        if (match.outcome == SelectorMatch::Outcome::Match)
            result.devices.insert(cluster.devices()[size_t(device)].id);
        else if (match.outcome != SelectorMatch::Outcome::NoMatch && result.error.empty())
            result.error = "selectors[" + std::to_string(match.selector) + "]: " + match.message;
    }
    return result;
}

std::vector<model::DeviceSelector> selectorsOf(std::initializer_list<std::string> expressions)
{
    std::vector<model::DeviceSelector> selectors;
    for (const std::string &expression : expressions)
        selectors.push_back({ expression });
    return selectors;
}

std::string joinClauses(const std::vector<std::string> &clauses)
{
    std::string text;
    for (const std::string &clause : clauses)
        text += (text.empty() ? "" : " && ") + clause;
    return text;
}

std::string celString(std::string_view text)
{
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    return quoted + "\"";
}

// Devices (indexes) the class selects, and the drivers they come from.
std::vector<int> devicesOfClass(
    Session &session, const Cluster::Class *klass, std::set<std::string> *drivers)
{
    std::vector<int> devices;
    if (!klass)
        return devices;
    const int list = session.selectorList(klass->spec->selectors);
    const Cluster &cluster = session.cluster();
    for (int device = 0; device < int(cluster.devices().size()); ++device) {
        if (session.matches(list, device).outcome != SelectorMatch::Outcome::Match)
            continue;
        devices.push_back(device);
        drivers->insert(cluster.driverOf(device));
    }
    return devices;
}

NegativeRequest negateRequest(Session &session, const model::DeviceRequestSpec &spec,
    std::string name, std::set<int> &originalUnion, std::set<int> &negativeUnion)
{
    NegativeRequest request;
    request.name = std::move(name);
    request.deviceClass = spec.deviceClassName;
    const Cluster::Class *klass = session.cluster().findClass(spec.deviceClassName);
    if (!klass)
        request.errors.push_back(
            "DeviceClass " + spec.deviceClassName + " is not in the inventory");
    std::set<std::string> drivers;
    const std::vector<int> classDevices = devicesOfClass(session, klass, &drivers);

    std::vector<std::string> clauses;
    for (const model::DeviceSelector &selector : spec.selectors) {
        request.originalSelectors.push_back(selector.celExpression);
        for (std::string &clause : splitClauses(selector.celExpression))
            clauses.push_back(std::move(clause));
    }
    const Tally original = tally(session, classDevices, spec.selectors);
    request.originalMatches = int(original.devices.size());
    originalUnion.insert(original.devices.begin(), original.devices.end());
    if (!original.error.empty())
        request.errors.push_back("original " + original.error);

    if (clauses.empty()) {
        std::string list;
        for (const std::string &driver : drivers)
            list += (list.empty() ? "" : ", ") + celString(driver);
        request.negativeSelector = drivers.empty() ? "false" : "!(device.driver in [" + list + "])";
        request.method = "no selector to negate: a driver none of the class's devices comes from";
    } else {
        for (size_t k = clauses.size(); k-- > 0;) {
            std::vector<std::string> candidate = clauses;
            candidate[k] = "!(" + clauses[k] + ")";
            const std::string expression = joinClauses(candidate);
            const Tally negative = tally(session, classDevices, selectorsOf({ expression }));
            if (negative.devices.empty() && negative.error.empty()
                && session.compile(expression).error.empty()) {
                request.negativeSelector = expression;
                request.method = "clause " + std::to_string(k + 1) + " of "
                    + std::to_string(clauses.size()) + " negated: every other clause kept";
                break;
            }
        }
        if (request.negativeSelector.empty()) {
            const std::string all = joinClauses(clauses);
            request.negativeSelector = "(" + all + ") && !(" + all + ")";
            request.method = "the original and its negation: no device can meet both";
        }
    }
    const Tally negative = tally(session, classDevices, selectorsOf({ request.negativeSelector }));
    request.negativeMatches = int(negative.devices.size());
    negativeUnion.insert(negative.devices.begin(), negative.devices.end());
    if (!negative.error.empty())
        request.errors.push_back("negative control " + negative.error);
    return request;
}

json selectorJson(const std::string &expression)
{
    return json::array({ { { "cel", { { "expression", expression } } } } });
}

// Writes the negative selectors into the manifest's requests, in the order negateRequest() met
// them: `exactly`, else each `firstAvailable` subrequest, else (v1beta1) the request itself.
void writeSelectors(json &requests, const std::vector<NegativeRequest> &negatives)
{
    size_t next = 0;
    for (json &request : requests) {
        if (next >= negatives.size())
            return;
        if (request.contains("exactly") && request["exactly"].is_object()) {
            request["exactly"]["selectors"] = selectorJson(negatives[next++].negativeSelector);
        } else if (request.contains("firstAvailable") && request["firstAvailable"].is_array()) {
            for (json &sub : request["firstAvailable"])
                if (next < negatives.size())
                    sub["selectors"] = selectorJson(negatives[next++].negativeSelector);
        } else {
            request["selectors"] = selectorJson(negatives[next++].negativeSelector);
        }
    }
}

// The value at `path`, or nullptr where some step is missing (never creates one).
json *findPath(json &value, std::initializer_list<const char *> path)
{
    json *at = &value;
    for (const char *key : path) {
        if (!at->is_object() || !at->contains(key))
            return nullptr;
        at = &(*at)[key];
    }
    return at;
}

} // namespace

bool NegativeControl::proves() const
{
    if (requests.empty() || negativeMatches != 0 || negativeAllocated || pendingReason.empty())
        return false;
    for (const NegativeRequest &request : requests)
        if (request.originalMatches == 0 || !request.errors.empty())
            return false;
    return true;
}

std::string NegativeControl::verdict() const
{
    if (requests.empty())
        return "The negative control proves nothing: the claim requests no device.";
    for (const NegativeRequest &request : requests) {
        if (!request.errors.empty())
            return "The negative control proves nothing: request " + request.name + ": "
                + request.errors.front();
        if (request.originalMatches == 0)
            return "The negative control proves nothing: the original request " + request.name
                + " matches no device either, so both stay Pending alike.";
    }
    if (negativeMatches != 0)
        return "The negative control still matches " + std::to_string(negativeMatches)
            + " device(s).";
    if (negativeAllocated)
        return "The allocator placed the negative control: the selectors are not what stops it.";
    return "The selectors are a real boundary: the original matches "
        + std::to_string(originalMatches)
        + " device(s), the negative control none, and it stays Pending.";
}

Result<NegativeControl> negativeControl(
    const Cluster &cluster, const release::KubernetesRelease &release, const json &object)
{
    Result<model::Object> decoded = model::decodeObject(object);
    if (!decoded)
        return fail(decoded.error());
    const model::ResourceClaimSpec *spec = nullptr;
    json *requests = nullptr;
    NegativeControl control;
    control.manifest = object;
    if (const auto *tmpl = decoded->as<model::ResourceClaimTemplate>()) {
        spec = &tmpl->spec;
        requests = findPath(control.manifest, { "spec", "spec", "devices", "requests" });
    } else if (const auto *claim = decoded->as<model::ResourceClaim>()) {
        spec = &claim->spec;
        requests = findPath(control.manifest, { "spec", "devices", "requests" });
        control.manifest.erase("status"); // a new claim has no allocation yet
    } else {
        return fail(common::Error::Code::Invalid,
            QStringLiteral(
                "%1: a negative control is made from a ResourceClaimTemplate or a ResourceClaim")
                .arg(QString::fromStdString(decoded->display())));
    }
    control.kind = decoded->info().name;
    control.ns = decoded->meta.ns.empty() ? "default" : decoded->meta.ns;
    control.name = decoded->meta.name;

    json &meta = control.manifest["metadata"];
    meta["name"] = control.name + std::string(kSuffix);
    for (const char *field : { "resourceVersion", "uid", "creationTimestamp", "generation",
             "managedFields", "ownerReferences", "selfLink" })
        meta.erase(field);

    Session session(cluster, release);
    std::set<int> originalUnion, negativeUnion;
    for (const model::DeviceRequest &request : spec->requests) {
        if (request.exactly)
            control.requests.push_back(negateRequest(
                session, *request.exactly, request.name, originalUnion, negativeUnion));
        for (const model::DeviceRequestSpec &sub : request.firstAvailable)
            control.requests.push_back(negateRequest(
                session, sub, request.name + "/" + sub.name, originalUnion, negativeUnion));
    }
    control.originalMatches = int(originalUnion.size());
    control.negativeMatches = int(negativeUnion.size());
    if (requests && requests->is_array())
        writeSelectors(*requests, control.requests);

    // The allocator's answer for the negative control as it will be applied.
    Result<model::Object> negative = model::decodeObject(control.manifest);
    if (!negative)
        return fail(negative.error().withContext(QStringLiteral("the generated negative control")));
    const model::ResourceClaimSpec &negativeSpec = negative->as<model::ResourceClaimTemplate>()
        ? negative->as<model::ResourceClaimTemplate>()->spec
        : negative->as<model::ResourceClaim>()->spec;
    Simulator simulator(cluster, release, AllocatedState::fromClaims(cluster));
    SimulationOptions options;
    options.maxExplainedNodes = 5;
    const Placement placement = simulator.place(
        { ClaimToAllocate { control.ns, control.name + std::string(kSuffix), negativeSpec } },
        options);
    control.negativeAllocated = placement.allocated;
    if (!placement.allocated)
        control.pendingReason = !placement.error.empty() ? placement.error : placement.summary;
    return control;
}

json negativeControlJson(const NegativeControl &control)
{
    json requests = json::array();
    for (const NegativeRequest &request : control.requests)
        requests.push_back({ { "name", request.name }, { "deviceClassName", request.deviceClass },
            { "originalSelectors", request.originalSelectors },
            { "negativeSelector", request.negativeSelector }, { "method", request.method },
            { "originalMatches", request.originalMatches },
            { "negativeMatches", request.negativeMatches }, { "errors", request.errors } });
    return { { "kind", control.kind }, { "namespace", control.ns }, { "name", control.name },
        { "negativeControl", control.manifest["metadata"].value("name", "") },
        { "originalMatches", control.originalMatches },
        { "negativeMatches", control.negativeMatches },
        { "negativeAllocated", control.negativeAllocated },
        { "pendingReason", control.pendingReason }, { "proves", control.proves() },
        { "verdict", control.verdict() }, { "requests", requests } };
}

} // namespace dra::alloc
