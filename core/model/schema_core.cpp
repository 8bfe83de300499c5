// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Shared meta types and the core/v1 kinds the console reads (Node, Pod, Namespace, Event).
// Core kinds are modelled for the fields the console shows; the rest is kept untyped
// (preserveUnknown) so nothing is pruned on the way through.
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

namespace {

const SchemaNode *ownerReference(SchemaBuilder &b)
{
    return b.object(
        "An object this one depends on; deleting the owner garbage-collects the dependant.",
        { { "apiVersion", b.string("API version of the owner.") },
            { "kind", b.string("Kind of the owner.") }, { "name", b.string("Name of the owner.") },
            { "uid", b.string("UID of the owner.") },
            { "controller", b.boolean("Whether this owner is the managing controller.") },
            { "blockOwnerDeletion",
                b.boolean("Whether the owner waits for this object in foreground deletion.") } },
        { "apiVersion", "kind", "name", "uid" });
}

const SchemaNode *managedFieldsEntry(SchemaBuilder &b)
{
    return b.object("Which manager owns which fields, as recorded by server-side apply.",
        { { "manager", b.string("Name of the workflow managing these fields.") },
            { "operation", b.string("Apply or Update: the operation that set these fields.") },
            { "apiVersion", b.string("API version the field set is expressed in.") },
            { "time", b.time("When the entry last changed.") },
            { "fieldsType", b.string("Format of fieldsV1; always FieldsV1.") },
            { "fieldsV1", b.any("The owned fields as a field set.") },
            { "subresource",
                b.string("Subresource written through, empty for the main resource.") } });
}

const SchemaNode *objectReference(SchemaBuilder &b, std::string description)
{
    return b.partialObject(std::move(description),
        { { "kind", b.string("Kind of the referenced object.") },
            { "namespace", b.string("Namespace of the referenced object.") },
            { "name", b.string("Name of the referenced object.") },
            { "uid", b.string("UID of the referenced object.") },
            { "apiVersion", b.string("API version of the referenced object.") },
            { "resourceVersion", b.string("Resource version the reference was made at.") },
            { "fieldPath", b.string("Part of the object meant, e.g. spec.containers{name}.") } });
}

// A condition in the older core/v1 shape (Node, Pod, Namespace), with its own timestamps.
const SchemaNode *coreCondition(
    SchemaBuilder &b, std::string description, std::vector<Field> timestamps)
{
    std::vector<Field> fields { { "type", b.string("Type of the condition.") },
        { "status", b.enumeration("True, False or Unknown.", { "True", "False", "Unknown" }) } };
    fields.insert(fields.end(), timestamps.begin(), timestamps.end());
    fields.push_back({ "reason", b.string("Machine-readable reason for the last transition.") });
    fields.push_back({ "message", b.string("Human-readable details of the last transition.") });
    return b.partialObject(std::move(description), std::move(fields), { "type", "status" });
}

const SchemaNode *taintEffect(SchemaBuilder &b, std::string description)
{
    return b.enumeration(std::move(description), { "NoSchedule", "PreferNoSchedule", "NoExecute" });
}

const SchemaNode *node(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *taint = b.object("A taint repelling pods that do not tolerate it.",
        { { "key", b.string("Taint key.") }, { "value", b.string("Taint value.") },
            { "effect", taintEffect(b, "What happens to pods that do not tolerate the taint.") },
            { "timeAdded", b.time("When a NoExecute taint was added.") } },
        { "key", "effect" });
    const SchemaNode *spec = b.partialObject("How the node is configured.",
        { { "podCIDR", b.string("Pod IP range assigned to the node.") },
            { "podCIDRs",
                b.set("Pod IP ranges assigned to the node, one per IP family.", b.string({})) },
            { "providerID", b.string("ID of the node at the cloud provider.") },
            { "unschedulable", b.boolean("Whether new pods are kept off the node (cordoned).") },
            { "taints", b.list("Taints of the node.", taint) } });
    const SchemaNode *nodeInfo = b.partialObject("Identity and versions reported by the kubelet.",
        { { "machineID", b.string("Machine ID of the host.") },
            { "systemUUID", b.string("System UUID of the host.") },
            { "bootID", b.string("Boot ID; changes on every reboot.") },
            { "kernelVersion", b.string("Kernel version (uname -r).") },
            { "osImage", b.string("OS image, e.g. Ubuntu 24.04 LTS.") },
            { "containerRuntimeVersion", b.string("Container runtime and version.") },
            { "kubeletVersion", b.string("Kubelet version.") },
            { "kubeProxyVersion", b.string("Kube-proxy version (deprecated).") },
            { "operatingSystem", b.string("Operating system, e.g. linux.") },
            { "architecture", b.string("CPU architecture, e.g. amd64.") } },
        { "machineID", "systemUUID", "bootID", "kernelVersion", "osImage",
            "containerRuntimeVersion", "kubeletVersion", "kubeProxyVersion", "operatingSystem",
            "architecture" });
    const SchemaNode *status = b.partialObject("What the kubelet last reported about the node.",
        { { "capacity", b.map("Total resources of the node.", b.quantity({})) },
            { "allocatable", b.map("Resources available to pods.", b.quantity({})) },
            { "phase", b.string("Lifecycle phase (deprecated).") },
            { "conditions",
                b.mapList("Health conditions such as Ready and MemoryPressure.",
                    coreCondition(b, "One health condition of the node.",
                        { { "lastHeartbeatTime", b.time("When the kubelet last confirmed it.") },
                            { "lastTransitionTime", b.time("When the status last changed.") } }),
                    { "type" }) },
            { "addresses",
                b.mapList("Addresses by which the node is reachable.",
                    b.object("One address of the node.",
                        { { "type", b.string("Hostname, InternalIP, ExternalIP, ...") },
                            { "address", b.string("The address.") } },
                        { "type", "address" }),
                    { "type" }) },
            { "nodeInfo", nodeInfo } });
    return kindRoot(
        b, c, "A worker machine of the cluster.", { { "spec", spec }, { "status", status } });
}

const SchemaNode *podSpec(SchemaBuilder &b)
{
    const SchemaNode *resourceClaimRef
        = b.object("One of the pod's resource claims used by this container.",
            { { "name", b.string("Name of an entry of the pod's spec.resourceClaims.") },
                { "request", b.string("Only this request of the claim, empty for all.") } },
            { "name" });
    const SchemaNode *resources = b.partialObject("Compute resources of the container.",
        { { "limits", b.map("Most the container may use.", b.quantity({})) },
            { "requests", b.map("What the container is guaranteed.", b.quantity({})) },
            { "claims",
                b.mapList("Resource claims of the pod this container uses.", resourceClaimRef,
                    { "name" }) } });
    const SchemaNode *container = b.partialObject("A container of the pod.",
        { { "name", b.string("Name of the container, unique in the pod.") },
            { "image", b.string("Container image reference.") },
            { "command", b.stringList("Entrypoint, replacing the image's.") },
            { "args", b.stringList("Arguments to the entrypoint.") },
            { "workingDir", b.string("Working directory.") },
            { "ports",
                b.mapList("Ports the container exposes.",
                    b.partialObject("One exposed port.",
                        { { "name", b.string("Name of the port.") },
                            { "containerPort", b.int32("Port number.") },
                            { "hostPort", b.int32("Port on the host.") },
                            { "hostIP", b.string("Host IP to bind to.") },
                            { "protocol",
                                b.enumeration("TCP, UDP or SCTP.", { "TCP", "UDP", "SCTP" }) } },
                        { "containerPort" }),
                    { "containerPort", "protocol" }) },
            { "env",
                b.mapList("Environment variables.",
                    b.partialObject("One environment variable.",
                        { { "name", b.string("Variable name.") },
                            { "value", b.string("Literal value.") },
                            { "valueFrom", b.any("Where the value comes from.") } },
                        { "name" }),
                    { "name" }) },
            { "resources", resources },
            { "imagePullPolicy",
                b.enumeration("When to pull the image.", { "Always", "Never", "IfNotPresent" }) } },
        { "name" });
    const SchemaNode *toleration = b.object("A toleration of a node taint.",
        { { "key", b.string("Taint key tolerated; empty with Exists tolerates everything.") },
            { "operator", b.enumeration("Exists or Equal.", { "Exists", "Equal" }) },
            { "value", b.string("Taint value tolerated with Equal.") },
            { "effect", taintEffect(b, "Taint effect tolerated; empty for all.") },
            { "tolerationSeconds", b.int64("How long a NoExecute taint is tolerated.") } });
    const SchemaNode *podClaim = b.object(
        "A ResourceClaim the pod uses, named or generated from a template.",
        { { "name", b.string("Name of this entry, referenced by containers.") },
            { "resourceClaimName", b.string("An existing ResourceClaim in the pod's namespace.") },
            { "resourceClaimTemplateName",
                b.string("A ResourceClaimTemplate to generate a claim for this pod from.") } },
        { "name" });
    return b.partialObject("What the pod runs and where it may run.",
        { { "containers", b.mapList("Containers of the pod.", container, { "name" }) },
            { "initContainers",
                b.mapList(
                    "Containers run to completion before the others.", container, { "name" }) },
            { "restartPolicy",
                b.enumeration("Always, OnFailure or Never.", { "Always", "OnFailure", "Never" }) },
            { "nodeSelector", b.stringMap("Labels a node must carry to run the pod.") },
            { "serviceAccountName", b.string("Service account the pod runs as.") },
            { "nodeName", b.string("Node the pod is bound to.") },
            { "schedulerName", b.string("Scheduler responsible for the pod.") },
            { "tolerations", b.list("Node taints the pod tolerates.", toleration) },
            { "priorityClassName", b.string("Priority class of the pod.") },
            { "priority", b.int32("Resolved priority value.") },
            { "resourceClaims",
                b.mapList(
                    "ResourceClaims the pod needs before it can start.", podClaim, { "name" }) } });
}

const SchemaNode *pod(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *spec = c.podSpec;
    const SchemaNode *containerStatus
        = b.partialObject("What the kubelet reports about one container.",
            { { "name", b.string("Name of the container.") },
                { "ready", b.boolean("Whether the container passes its readiness probe.") },
                { "restartCount", b.int32("How often the container restarted.") },
                { "image", b.string("Image the container runs.") },
                { "imageID", b.string("Resolved image ID.") },
                { "containerID", b.string("Runtime ID of the container.") },
                { "started", b.boolean("Whether the container passed its startup probe.") },
                { "state", b.any("Current state: waiting, running or terminated.") },
                { "lastState", b.any("The previous state.") } },
            { "name" });
    const SchemaNode *status = b.partialObject("Where the pod is in its lifecycle.",
        { { "phase",
              b.enumeration("Coarse lifecycle phase.",
                  { "Pending", "Running", "Succeeded", "Failed", "Unknown" }) },
            { "conditions",
                b.mapList("Conditions such as PodScheduled and Ready.",
                    coreCondition(b, "One condition of the pod.",
                        { { "lastProbeTime", b.time("When it was last probed.") },
                            { "lastTransitionTime", b.time("When the status last changed.") } }),
                    { "type" }) },
            { "message", b.string("Why the pod is in this state.") },
            { "reason", b.string("Short reason, e.g. Evicted.") },
            { "nominatedNodeName", b.string("Node the pod may run on after preemption.") },
            { "hostIP", b.string("IP of the node running the pod.") },
            { "podIP", b.string("IP of the pod.") },
            { "podIPs",
                b.mapList("IPs of the pod, one per IP family.",
                    b.object("One pod IP.", { { "ip", b.string("The address.") } }, { "ip" }),
                    { "ip" }) },
            { "startTime", b.time("When the kubelet accepted the pod.") },
            { "qosClass",
                b.enumeration(
                    "Quality of service class.", { "Guaranteed", "Burstable", "BestEffort" }) },
            { "initContainerStatuses",
                b.list("Statuses of the init containers.", containerStatus) },
            { "containerStatuses", b.list("Statuses of the containers.", containerStatus) },
            { "resourceClaimStatuses",
                b.mapList("Names of the claims generated for the pod's resourceClaims.",
                    b.object("The claim generated for one entry of spec.resourceClaims.",
                        { { "name", b.string("Entry of spec.resourceClaims.") },
                            { "resourceClaimName", b.string("Name of the generated claim.") } },
                        { "name" }),
                    { "name" }) } });
    return kindRoot(b, c, "A group of containers scheduled together onto one node.",
        { { "spec", spec }, { "status", status } });
}

const SchemaNode *namespaceKind(SchemaBuilder &b, const CommonNodes &c)
{
    return kindRoot(b, c, "A scope for names of namespaced objects.",
        { { "spec",
              b.partialObject("Namespace settings.",
                  { { "finalizers", b.stringList("Must be empty before removal.") } }) },
            { "status",
                b.partialObject("Lifecycle of the namespace.",
                    { { "phase",
                          b.enumeration("Active or Terminating.", { "Active", "Terminating" }) },
                        { "conditions",
                            b.mapList("Conditions of the namespace.",
                                coreCondition(b, "One condition of the namespace.",
                                    { { "lastTransitionTime",
                                        b.time("When the status last changed.") } }),
                                { "type" }) } }) } });
}

const SchemaNode *event(SchemaBuilder &b, const CommonNodes &c)
{
    return kindRoot(b, c, "A report of something that happened to an object.",
        { { "involvedObject", objectReference(b, "The object the event is about.") },
            { "reason", b.string("Short machine-readable reason, e.g. FailedScheduling.") },
            { "message", b.string("Human-readable description.") },
            { "source",
                b.partialObject("Who reported the event.",
                    { { "component", b.string("Reporting component.") },
                        { "host", b.string("Node of the reporter.") } }) },
            { "firstTimestamp", b.time("When the event was first seen.") },
            { "lastTimestamp", b.time("When the event was last seen.") },
            { "count", b.int32("How often it was seen.") },
            { "type", b.enumeration("Normal or Warning.", { "Normal", "Warning" }) },
            { "eventTime",
                b.string("When the event was first observed, in microseconds.", "date-time") },
            { "series",
                b.partialObject("A series of repeats.",
                    { { "count", b.int32("Repeats so far.") },
                        { "lastObservedTime", b.string("Last repeat.", "date-time") } }) },
            { "action", b.string("What was done or failed.") },
            { "related", objectReference(b, "A second object involved.") },
            { "reportingComponent", b.string("Controller that emitted the event.") },
            { "reportingInstance", b.string("Instance of that controller.") } },
        { "metadata", "involvedObject" });
}

} // namespace

CommonNodes buildCommonNodes(SchemaBuilder &b)
{
    CommonNodes c;
    c.objectMeta = b.object(
        "Standard object metadata: identity, labels, annotations and ownership.",
        { { "name", b.string("Name, unique per kind (and namespace).") },
            { "generateName", b.string("Prefix from which the server generates a unique name.") },
            { "namespace", b.string("Namespace of a namespaced object.") },
            { "selfLink", b.string("Legacy URL of the object; no longer set.") },
            { "uid", b.string("Unique ID of this incarnation of the object, set by the server.") },
            { "resourceVersion",
                b.string("Opaque version for watches and optimistic concurrency.") },
            { "generation", b.int64("Sequence number of spec changes.") },
            { "creationTimestamp", b.time("When the object was created.") },
            { "deletionTimestamp", b.time("When deletion was requested.") },
            { "deletionGracePeriodSeconds", b.int64("Seconds allowed to terminate gracefully.") },
            { "labels", b.stringMap("Identifying key/value pairs used by selectors.") },
            { "annotations", b.stringMap("Non-identifying key/value data for tools.") },
            { "ownerReferences",
                b.mapList("Objects this one belongs to.", ownerReference(b), { "uid" }) },
            { "finalizers",
                b.set("Tasks that must finish before the object is removed.", b.string({})) },
            { "managedFields",
                b.list(
                    "Field ownership recorded by server-side apply.", managedFieldsEntry(b)) } });
    c.listMeta = b.object("Metadata of a list.",
        { { "selfLink", b.string("Legacy URL of the list; no longer set.") },
            { "resourceVersion", b.string("Version to start a watch from after this list.") },
            { "continue", b.string("Token for the next page of a paged list.") },
            { "remainingItemCount", b.int64("Estimate of items not yet returned.") } });

    const SchemaNode *requirement = b.object("A selector term: a key, an operator and values.",
        { { "key", b.string("Label or field key.") },
            { "operator",
                b.enumeration("How the key relates to the values.",
                    { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" }) },
            { "values", b.stringList("Values compared against; one integer for Gt and Lt.") } },
        { "key", "operator" });
    const SchemaNode *term = b.object("Requirements that must all match (AND).",
        { { "matchExpressions", b.list("Requirements on node labels.", requirement) },
            { "matchFields", b.list("Requirements on node fields.", requirement) } });
    c.nodeSelector = b.object("Nodes matched by any of the terms (OR).",
        { { "nodeSelectorTerms", b.list("Alternative terms; a node matches if one does.", term) } },
        { "nodeSelectorTerms" });
    c.condition = b.object("One aspect of the current state.",
        { { "type", b.string("Type of the condition, e.g. Ready.") },
            { "status", b.enumeration("True, False or Unknown.", { "True", "False", "Unknown" }) },
            { "observedGeneration", b.int64("Generation the condition was computed for.") },
            { "lastTransitionTime", b.time("When the status last changed.") },
            { "reason", b.string("Machine-readable CamelCase reason for the last transition.") },
            { "message", b.string("Human-readable details.") } },
        { "type", "status", "lastTransitionTime", "reason", "message" });
    c.podSpec = podSpec(b);
    return c;
}

void addCoreKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink)
{
    sink.addKind("v1", "Node", false, node(b, common));
    sink.addKind("v1", "Pod", true, pod(b, common));
    sink.addKind("v1", "Namespace", false, namespaceKind(b, common));
    sink.addKind("v1", "Event", true, event(b, common));
}

} // namespace dra::model::schema_detail
