// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
#include "core/alloc/migration_proposal.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/alloc/node_taints.h"
#include "core/model/device_taints.h"
#include "core/model/object.h"

namespace dra::alloc {

namespace {

using nlohmann::json;

constexpr std::string_view kNvidiaDriver = "gpu.nvidia.com";
constexpr std::string_view kMigPrefix = "nvidia.com/mig-";
// GPU feature discovery's label naming a node's GPU model ("NVIDIA-H100-80GB-HBM3").
constexpr std::string_view kProductLabel = "nvidia.com/gpu.product";

// Where the devices of one extended resource come from.
struct ResourceMapping
{
    std::string className; // the class a claim's request names
    bool classExists = false;
    std::string classSelector; // CEL of the class when it has to be created
    std::string requestSelector; // CEL the request adds (a MIG profile)
    std::string claimRequestName; // "gpu", "mig-1g-10gb"
    std::string problem; // set when the resource maps to no devices
};

std::string dnsLabel(std::string_view text)
{
    std::string out;
    for (char c : text) {
        const char lower = char(std::tolower(static_cast<unsigned char>(c)));
        if (std::isalnum(static_cast<unsigned char>(lower)))
            out += lower;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "device" : out;
}

std::string celLiteral(std::string_view text)
{
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

std::string nvidiaTypeSelector(std::string_view type)
{
    return "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == "
        + celLiteral(type);
}

const model::Object *classWithExtendedResource(
    const inventory::Snapshot &snapshot, std::string_view resource)
{
    for (const auto &object : snapshot.objects(model::Kind::DeviceClass))
        if (const auto *klass = object->as<model::DeviceClass>();
            klass && klass->extendedResourceName == resource)
            return object.get();
    return nullptr;
}

ResourceMapping claimMapping(const inventory::Snapshot &snapshot, const std::string &resource)
{
    ResourceMapping mapping;
    const auto useClass = [&](std::string name, std::string_view type) {
        mapping.className = std::move(name);
        mapping.classExists
            = snapshot.object(model::Kind::DeviceClass, "", mapping.className) != nullptr;
        if (!mapping.classExists)
            mapping.classSelector = nvidiaTypeSelector(type);
    };
    if (resource == "nvidia.com/gpu") {
        useClass("gpu.nvidia.com", "gpu");
        mapping.claimRequestName = "gpu";
    } else if (resource.starts_with(kMigPrefix) && resource.size() > kMigPrefix.size()) {
        const std::string profile = resource.substr(kMigPrefix.size());
        useClass("mig.nvidia.com", "mig");
        mapping.requestSelector
            = "device.attributes['gpu.nvidia.com'].profile == " + celLiteral(profile);
        mapping.claimRequestName = "mig-" + dnsLabel(profile);
    } else if (const model::Object *klass = classWithExtendedResource(snapshot, resource)) {
        mapping.className = klass->meta.name;
        mapping.classExists = true;
        mapping.claimRequestName = dnsLabel(resource.substr(resource.find('/') + 1));
    } else {
        mapping.problem = "no DeviceClass maps " + resource
            + " (spec.extendedResourceName) and the console does not know which devices it "
              "stands for";
    }
    return mapping;
}

json deviceClassManifest(
    const std::string &name, const std::string &selector, const std::string &extendedResource)
{
    json spec = { { "selectors", json::array({ { { "cel", { { "expression", selector } } } } }) } };
    if (!extendedResource.empty())
        spec["extendedResourceName"] = extendedResource;
    return { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "DeviceClass" },
        { "metadata", { { "name", name } } }, { "spec", std::move(spec) } };
}

// The productName a GPU feature discovery product label stands for: the inventory's GFD writes
// the product name with '-' for ' '.
std::string productNameOf(const inventory::Snapshot &snapshot, const std::string &label)
{
    for (const inventory::Device *device : snapshot.devicesOfDriver(kNvidiaDriver)) {
        std::string name = device->productName();
        std::string dashed = name;
        std::replace(dashed.begin(), dashed.end(), ' ', '-');
        if (!name.empty() && dashed == label)
            return name;
    }
    std::string guess = label;
    std::replace(guess.begin(), guess.end(), '-', ' ');
    return guess;
}

model::StringPairs nodeSelectorOf(const json &podTemplate)
{
    model::StringPairs out;
    const json selector = podTemplate.value("spec", json::object()).value("nodeSelector", json());
    if (selector.is_object())
        for (const auto &[key, value] : selector.items())
            if (value.is_string())
                out.emplace_back(key, value.get<std::string>());
    return out;
}

// Products named by required node affinity on the product label (`In` values).
std::vector<std::string> affinityProducts(const json &podTemplate)
{
    std::vector<std::string> out;
    const json terms = podTemplate.value("spec", json::object())
                           .value("affinity", json::object())
                           .value("nodeAffinity", json::object())
                           .value("requiredDuringSchedulingIgnoredDuringExecution", json::object())
                           .value("nodeSelectorTerms", json::array());
    for (const json &term : terms)
        for (const json &requirement : term.value("matchExpressions", json::array()))
            if (requirement.value("key", "") == kProductLabel
                && requirement.value("operator", "") == "In")
                for (const json &value : requirement.value("values", json::array()))
                    if (value.is_string())
                        out.push_back(value.get<std::string>());
    return out;
}

// The nodes with DRA devices of the mapped classes (or of the NVIDIA driver for a class to come).
std::set<std::string> draNodes(
    const inventory::Snapshot &snapshot, const std::vector<ResourceMapping> &mappings)
{
    std::set<std::string> nodes;
    for (const ResourceMapping &mapping : mappings) {
        if (mapping.classExists) {
            if (const auto match = snapshot.classMatch(mapping.className))
                for (const inventory::Device *device : match->devices)
                    nodes.insert(device->node);
        } else {
            for (const inventory::Device *device : snapshot.devicesOfDriver(kNvidiaDriver))
                nodes.insert(device->node);
        }
    }
    nodes.erase("");
    return nodes;
}

const std::string *labelOfNode(
    const inventory::Snapshot &snapshot, const std::string &node, const std::string &key)
{
    const model::Object *object = snapshot.object(model::Kind::Node, "", node);
    return object ? object->meta.label(key) : nullptr;
}

// The nodeSelector entries that pin the device-plugin pool (no DRA node matches them) are
// replaced by the value every DRA node shares for that key, or removed. GPU model labels are
// removed when `modelInClaim` (the claim's CEL takes them over).
void changeNodeSelector(const inventory::Snapshot &snapshot,
    const std::vector<ResourceMapping> &mappings, bool modelInClaim, MigrationProposal &proposal,
    json &change)
{
    const std::set<std::string> nodes = draNodes(snapshot, mappings);
    json removed = json::array(), set = json::object();
    model::StringPairs kept;
    for (const auto &[key, value] : proposal.nodeSelector) {
        if (key == kProductLabel && modelInClaim) {
            removed.push_back(key);
            continue;
        }
        bool matchesDra = false;
        std::set<std::string> values;
        for (const std::string &node : nodes) {
            const std::string *label = labelOfNode(snapshot, node, key);
            matchesDra = matchesDra || (label && *label == value);
            values.insert(label ? *label : std::string("\x01"));
        }
        if (matchesDra || nodes.empty()) {
            kept.emplace_back(key, value);
            continue;
        }
        if (values.size() == 1 && *values.begin() != "\x01") {
            set[key] = *values.begin();
            kept.emplace_back(key, *values.begin());
            proposal.notes.push_back("nodeSelector " + key + "=" + value
                + " pins the device-plugin nodes; the DRA nodes have " + key + "="
                + *values.begin());
        } else {
            removed.push_back(key);
            proposal.notes.push_back(
                "nodeSelector " + key + "=" + value + " matches no DRA node and is removed");
        }
    }
    proposal.nodeSelector = std::move(kept);
    if (!removed.empty() || !set.empty())
        change["nodeSelector"] = { { "remove", removed }, { "set", set } };
}

// Pods that ask for an extended resource get a toleration of the taint named after it from
// Kubernetes' ExtendedResourceToleration admission plugin, which is how GPU nodes tainted
// `nvidia.com/gpu:NoSchedule` admit only GPU pods. Pods that stop asking for the resource lose
// it: where the DRA nodes carry such a taint and the template does not tolerate it by itself,
// the toleration is written into the template.
void keepExtendedResourceTolerations(const inventory::Snapshot &snapshot,
    const std::vector<ResourceMapping> &mappings, const std::set<std::string> &removed,
    MigrationProposal &proposal, json &change)
{
    json &spec = proposal.podTemplate["spec"];
    const std::vector<model::Toleration> own
        = model::parseTolerations(spec.value("tolerations", json()));
    const std::set<std::string> nodes = draNodes(snapshot, mappings);
    for (const std::string &resource : removed) {
        bool tainted = false;
        for (const std::string &node : nodes)
            for (const model::DeviceTaint &taint : nodeTaints(snapshot, node))
                tainted = tainted || (taint.key == resource && model::taintBlocksAllocation(taint));
        const model::DeviceTaint probe { resource, "", "NoSchedule", {} };
        if (!tainted || std::ranges::any_of(own, [&](const model::Toleration &t) {
                return model::tolerates(t, probe);
            }))
            continue;
        const json toleration
            = { { "key", resource }, { "operator", "Exists" }, { "effect", "NoSchedule" } };
        spec["tolerations"].push_back(toleration);
        change["addTolerations"].push_back(toleration);
        proposal.notes.push_back("the DRA nodes are tainted " + resource
            + ":NoSchedule; the pods no longer ask for " + resource
            + ", so the toleration Kubernetes added for it is written into the template");
    }
}

void applyNodeSelector(MigrationProposal &proposal)
{
    json &spec = proposal.podTemplate["spec"];
    spec.erase("nodeSelector");
    if (proposal.nodeSelector.empty())
        return;
    for (const auto &[key, value] : proposal.nodeSelector)
        spec["nodeSelector"][key] = value;
}

MigrationProposal none(std::string reason)
{
    MigrationProposal proposal;
    proposal.reason = std::move(reason);
    return proposal;
}

std::vector<ResourceMapping> mappingsOf(
    const LegacyWorkload &workload, const inventory::Snapshot &snapshot, std::string *problem)
{
    std::vector<ResourceMapping> mappings;
    for (const ExtendedRequest &request : workload.requests) {
        mappings.push_back(claimMapping(snapshot, request.resource));
        if (!mappings.back().problem.empty() && problem->empty())
            *problem = mappings.back().problem;
    }
    return mappings;
}

void addClass(MigrationProposal &proposal, const std::string &name)
{
    if (std::find(proposal.deviceClasses.begin(), proposal.deviceClasses.end(), name)
        == proposal.deviceClasses.end())
        proposal.deviceClasses.push_back(name);
}

// The claim spec as Kubernetes would decode the manifest (the simulator's input).
model::ResourceClaimSpec decodedSpec(const json &claimManifest)
{
    Result<model::Object> object = model::decodeObject(claimManifest);
    if (object) {
        if (const auto *tmpl = object->as<model::ResourceClaimTemplate>())
            return tmpl->spec;
        if (const auto *claim = object->as<model::ResourceClaim>())
            return claim->spec;
    }
    return {};
}

} // namespace

std::string_view migrationFormName(MigrationForm form)
{
    switch (form) {
    case MigrationForm::ExtendedResourceClass:
        return "extendedResourceClass";
    case MigrationForm::ClaimTemplate:
        return "claimTemplate";
    case MigrationForm::None:
        break;
    }
    return "none";
}

MigrationProposal proposeClaimTemplate(
    const LegacyWorkload &workload, const inventory::Snapshot &snapshot)
{
    std::string problem;
    const std::vector<ResourceMapping> mappings = mappingsOf(workload, snapshot, &problem);
    if (!problem.empty())
        return none(problem);

    MigrationProposal proposal;
    proposal.form = MigrationForm::ClaimTemplate;
    proposal.podTemplate = workload.podTemplate;
    proposal.nodeSelector = nodeSelectorOf(workload.podTemplate);

    // A GPU model pinned by node labels becomes a selector on productName.
    std::vector<std::string> products = affinityProducts(workload.podTemplate);
    for (const auto &[key, value] : proposal.nodeSelector)
        if (key == kProductLabel)
            products.push_back(value);
    std::string productSelector;
    for (const std::string &label : products)
        productSelector
            += (productSelector.empty() ? "" : ", ") + celLiteral(productNameOf(snapshot, label));
    if (!productSelector.empty())
        productSelector = products.size() == 1
            ? "device.attributes['gpu.nvidia.com'].productName == " + productSelector
            : "device.attributes['gpu.nvidia.com'].productName in [" + productSelector + "]";

    std::set<std::string> containersWithRequests;
    for (const ExtendedRequest &request : workload.requests)
        containersWithRequests.insert(request.container);
    const bool perContainer = containersWithRequests.size() > 1;

    proposal.claimName = perContainer ? "devices" : mappings.front().claimRequestName;
    proposal.templateName = workload.name + "-" + proposal.claimName;
    json requests = json::array();
    std::map<std::string, json> containerClaims;
    std::set<std::string> removeResources;
    for (size_t i = 0; i < workload.requests.size(); ++i) {
        const ExtendedRequest &request = workload.requests[i];
        const ResourceMapping &mapping = mappings[i];
        addClass(proposal, mapping.className);
        if (!mapping.classExists) {
            json klass = deviceClassManifest(mapping.className, mapping.classSelector, "");
            if (std::find(proposal.objects.begin(), proposal.objects.end(), klass)
                == proposal.objects.end())
                proposal.objects.push_back(std::move(klass));
        }
        const std::string requestName = perContainer
            ? dnsLabel(request.container + "-" + mapping.claimRequestName)
            : mapping.claimRequestName;
        json exactly = { { "deviceClassName", mapping.className },
            { "allocationMode", "ExactCount" }, { "count", request.count } };
        std::vector<std::string> selectors;
        if (!mapping.requestSelector.empty())
            selectors.push_back(mapping.requestSelector);
        if (!productSelector.empty() && mapping.className == "gpu.nvidia.com")
            selectors.push_back(productSelector);
        for (const std::string &cel : selectors)
            exactly["selectors"].push_back({ { "cel", { { "expression", cel } } } });
        requests.push_back({ { "name", requestName }, { "exactly", std::move(exactly) } });
        json claimRef = { { "name", proposal.claimName } };
        if (perContainer)
            claimRef["request"] = requestName;
        containerClaims[request.container].push_back(std::move(claimRef));
        removeResources.insert(request.resource);
    }
    json rct = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaimTemplate" },
        { "metadata", { { "name", proposal.templateName }, { "namespace", workload.ns } } },
        { "spec", { { "spec", { { "devices", { { "requests", std::move(requests) } } } } } } } };
    proposal.claim = { workload.ns, proposal.templateName, decodedSpec(rct) };
    proposal.objects.push_back(std::move(rct));

    json containers = json::array();
    for (const auto &[name, claims] : containerClaims)
        containers.push_back({ { "name", name }, { "claims", claims } });
    json change = { { "removeResources", removeResources },
        { "resourceClaims",
            json::array({ { { "name", proposal.claimName },
                { "resourceClaimTemplateName", proposal.templateName } } }) },
        { "containers", containers } };
    changeNodeSelector(snapshot, mappings, true, proposal, change);

    // The pod template with the change applied.
    json &spec = proposal.podTemplate["spec"];
    for (json &container : spec["containers"]) {
        json &resources = container["resources"];
        for (const char *list : { "limits", "requests" })
            if (resources.contains(list)) {
                for (const std::string &resource : removeResources)
                    resources[list].erase(resource);
                if (resources[list].empty())
                    resources.erase(list);
            }
        const auto claims = containerClaims.find(container.value("name", ""));
        if (claims != containerClaims.end())
            for (const json &claim : claims->second)
                resources["claims"].push_back(claim);
        if (resources.empty())
            container.erase("resources");
    }
    spec["resourceClaims"] = change["resourceClaims"];
    keepExtendedResourceTolerations(snapshot, mappings, removeResources, proposal, change);
    applyNodeSelector(proposal);
    if (!products.empty())
        proposal.notes.push_back(
            "the GPU model the pods were pinned to by node labels is a CEL selector on "
            "productName");
    proposal.podTemplateChange = std::move(change);
    proposal.reason = "a ResourceClaimTemplate per pod, from DeviceClass "
        + proposal.deviceClasses.front() + (proposal.deviceClasses.size() > 1 ? " and others" : "");
    return proposal;
}

MigrationProposal proposeExtendedResourceClass(
    const LegacyWorkload &workload, const inventory::Snapshot &snapshot)
{
    MigrationProposal proposal;
    proposal.form = MigrationForm::ExtendedResourceClass;
    proposal.podTemplate = workload.podTemplate;
    proposal.nodeSelector = nodeSelectorOf(workload.podTemplate);
    std::vector<ResourceMapping> mappings;
    json requests = json::array();
    std::set<std::string> resources;
    for (size_t i = 0; i < workload.requests.size(); ++i) {
        const ExtendedRequest &request = workload.requests[i];
        resources.insert(request.resource);
        ResourceMapping mapping = claimMapping(snapshot, request.resource);
        json exactly = { { "allocationMode", "ExactCount" }, { "count", request.count } };
        if (const model::Object *klass = classWithExtendedResource(snapshot, request.resource)) {
            // The scheduler asks the class for the devices; nothing to create.
            exactly["deviceClassName"] = klass->meta.name;
            addClass(proposal, klass->meta.name);
            mapping.className = klass->meta.name;
            mapping.classExists = true;
        } else if (!mapping.problem.empty()) {
            return none(mapping.problem);
        } else if (mapping.classExists && mapping.requestSelector.empty()) {
            // The class selects exactly these devices: it gets the extendedResourceName.
            const model::Object *existing
                = snapshot.object(model::Kind::DeviceClass, "", mapping.className);
            json manifest = *existing->raw;
            manifest["metadata"].erase("managedFields");
            manifest["metadata"].erase("resourceVersion");
            manifest.erase("status");
            manifest["spec"]["extendedResourceName"] = request.resource;
            if (std::find(proposal.objects.begin(), proposal.objects.end(), manifest)
                == proposal.objects.end())
                proposal.objects.push_back(std::move(manifest));
            proposal.notes.push_back("DeviceClass " + mapping.className
                + " gets spec.extendedResourceName " + request.resource);
            exactly["deviceClassName"] = mapping.className;
            addClass(proposal, mapping.className);
        } else {
            // A class of its own for the partition profile (or the GPUs when no class exists).
            const std::string name
                = dnsLabel(request.resource.substr(request.resource.find('/') + 1)) + ".nvidia.com";
            std::string selector = mapping.classExists || mapping.classSelector.empty()
                ? nvidiaTypeSelector(mapping.requestSelector.empty() ? "gpu" : "mig")
                : mapping.classSelector;
            if (!mapping.requestSelector.empty())
                selector += " && " + mapping.requestSelector;
            json manifest = deviceClassManifest(name, selector, request.resource);
            if (std::find(proposal.objects.begin(), proposal.objects.end(), manifest)
                == proposal.objects.end())
                proposal.objects.push_back(std::move(manifest));
            addClass(proposal, name);
            // Simulated with what the new class will select: the base class and the profile.
            if (!mapping.classExists)
                exactly["deviceClassName"] = name;
            else {
                exactly["deviceClassName"] = mapping.className;
                exactly["selectors"]
                    = json::array({ { { "cel", { { "expression", mapping.requestSelector } } } } });
            }
            mapping.className = exactly["deviceClassName"];
        }
        requests.push_back(
            { { "name", "container-" + std::to_string(i) + "-request-" + std::to_string(i) },
                { "exactly", std::move(exactly) } });
        mappings.push_back(std::move(mapping));
    }
    // The claim kube-scheduler makes for the pod's extended resources.
    json implicit = { { "apiVersion", "resource.k8s.io/v1" }, { "kind", "ResourceClaim" },
        { "metadata",
            { { "name", workload.name + "-extended-resources" }, { "namespace", workload.ns } } },
        { "spec", { { "devices", { { "requests", std::move(requests) } } } } } };
    proposal.claim = { workload.ns, workload.name + "-extended-resources", decodedSpec(implicit) };

    // The device plugin keeps serving the resource on nodes that advertise it.
    for (const auto &node : snapshot.objects(model::Kind::Node))
        if (const auto *body = node->as<model::Node>())
            for (const auto &[name, value] : body->allocatable)
                if (resources.contains(name) && value != "0") {
                    proposal.excludedNodes.push_back(node->meta.name);
                    break;
                }

    json change = json::object();
    changeNodeSelector(snapshot, mappings, false, proposal, change);
    if (!change.empty()) {
        proposal.podTemplateChange = std::move(change);
        applyNodeSelector(proposal);
    }
    proposal.reason = "the release serves DRA-backed extended resources: DeviceClass "
        + proposal.deviceClasses.front() + " answers the pods' "
        + workload.requests.front().resource + " with DRA devices, "
        + (proposal.podTemplateChange.is_null()
                ? "the pod spec stays as it is"
                : "the pods' resources stay as they are (only their nodeSelector moves)");
    return proposal;
}

MigrationProposal proposeMigration(const LegacyWorkload &workload,
    const inventory::Snapshot &snapshot, const release::KubernetesRelease &release)
{
    if (release.gates.extendedResource) {
        MigrationProposal proposal = proposeExtendedResourceClass(workload, snapshot);
        if (proposal.form != MigrationForm::None)
            return proposal;
    }
    MigrationProposal proposal = proposeClaimTemplate(workload, snapshot);
    if (proposal.form == MigrationForm::ClaimTemplate && !release.gates.extendedResource)
        proposal.reason += "; Kubernetes " + release.version()
            + " does not serve extended resources from DRA (DRAExtendedResource is off)";
    return proposal;
}

} // namespace dra::alloc
