// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The workload kinds a rollout works on: apps/v1 Deployment, ReplicaSet and DaemonSet, core/v1
// Service and Gateway API HTTPRoute. The fields a rollout writes and kubectl users look at are
// typed; the rest of each object is kept as sent (partial objects).
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

const SchemaNode *labelSelector(SchemaBuilder &b, std::string description)
{
    const SchemaNode *requirement = b.object("A label requirement: a key, an operator and values.",
        { { "key", b.string("Label key.") },
            { "operator",
                b.enumeration("How the key relates to the values.",
                    { "In", "NotIn", "Exists", "DoesNotExist" }) },
            { "values", b.stringList("Values for In and NotIn.") } },
        { "key", "operator" });
    return b.object(std::move(description),
        { { "matchLabels", b.stringMap("Labels an object must carry, all of them.") },
            { "matchExpressions", b.list("Further requirements, all of them.", requirement) } });
}

namespace {

const SchemaNode *podTemplate(SchemaBuilder &b, const CommonNodes &c)
{
    return b.object("The pods the workload creates.",
        { { "metadata", b.field(c.objectMeta, "Labels and annotations of the pods.") },
            { "spec", b.field(c.podSpec, "The pods' spec.") } });
}

const SchemaNode *workloadCondition(SchemaBuilder &b, std::string description)
{
    return b.partialObject(std::move(description),
        { { "type", b.string("Type of the condition, e.g. Available.") },
            { "status", b.enumeration("True, False or Unknown.", { "True", "False", "Unknown" }) },
            { "reason", b.string("Machine-readable reason for the last transition.") },
            { "message", b.string("Human-readable details.") },
            { "lastUpdateTime", b.time("When it was last updated.") },
            { "lastTransitionTime", b.time("When the status last changed.") } },
        { "type", "status" });
}

const SchemaNode *deployment(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *strategy = b.partialObject("How old pods are replaced by new ones.",
        { { "type", b.enumeration("RollingUpdate or Recreate.", { "RollingUpdate", "Recreate" }) },
            { "rollingUpdate",
                b.partialObject("Limits of a rolling update.",
                    { { "maxUnavailable",
                          b.intOrString("Pods that may be unavailable, a count or a percentage.") },
                        { "maxSurge",
                            b.intOrString(
                                "Pods above the desired count, a count or a percentage.") } }) } });
    const SchemaNode *spec = b.partialObject("The desired state of the deployment.",
        { { "replicas", b.int32("Desired number of pods; 1 when not set.") },
            { "selector",
                labelSelector(b, "Which pods belong to the workload; immutable after creation.") },
            { "template", podTemplate(b, c) }, { "strategy", strategy },
            { "minReadySeconds",
                b.int32("Seconds a new pod must be ready to count as available.") },
            { "revisionHistoryLimit", b.int32("Old ReplicaSets kept for rollback.") },
            { "paused", b.boolean("Whether the rollout of changes is paused.") },
            { "progressDeadlineSeconds",
                b.int32("Seconds before a stalled rollout is reported.") } },
        { "selector", "template" });
    const SchemaNode *status = b.partialObject("What the deployment controller observed.",
        { { "observedGeneration", b.int64("Generation the status describes.") },
            { "replicas", b.int32("Pods targeted by the deployment.") },
            { "updatedReplicas", b.int32("Pods with the current template.") },
            { "readyReplicas", b.int32("Pods that are Ready.") },
            { "availableReplicas", b.int32("Pods ready for at least minReadySeconds.") },
            { "unavailableReplicas", b.int32("Pods still needed for full availability.") },
            { "conditions",
                b.mapList("Available, Progressing, ReplicaFailure.",
                    workloadCondition(b, "One condition of the deployment."), { "type" }) },
            { "collisionCount", b.int32("Hash collisions of the template.") } });
    return kindRoot(b, c, "Declarative updates of a set of identical pods, through ReplicaSets.",
        { { "spec", spec }, { "status", status } });
}

const SchemaNode *replicaSet(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *spec = b.partialObject("The desired state of the replica set.",
        { { "replicas", b.int32("Desired number of pods; 1 when not set.") },
            { "minReadySeconds",
                b.int32("Seconds a new pod must be ready to count as available.") },
            { "selector",
                labelSelector(b, "Which pods belong to the workload; immutable after creation.") },
            { "template", podTemplate(b, c) } },
        { "selector" });
    const SchemaNode *status = b.partialObject("What the replica set controller observed.",
        { { "replicas", b.int32("Pods that exist.") },
            { "fullyLabeledReplicas", b.int32("Pods whose labels match the template's.") },
            { "readyReplicas", b.int32("Pods that are Ready.") },
            { "availableReplicas", b.int32("Pods ready for at least minReadySeconds.") },
            { "observedGeneration", b.int64("Generation the status describes.") },
            { "conditions",
                b.mapList("Conditions such as ReplicaFailure.",
                    workloadCondition(b, "One condition of the replica set."), { "type" }) } });
    return kindRoot(b, c, "Keeps a number of identical pods running.",
        { { "spec", spec }, { "status", status } });
}

const SchemaNode *daemonSet(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *spec = b.partialObject("The desired state of the daemon set.",
        { { "selector",
              labelSelector(b, "Which pods belong to the workload; immutable after creation.") },
            { "template", podTemplate(b, c) },
            { "updateStrategy", b.any("How pods are replaced when the template changes.") },
            { "minReadySeconds",
                b.int32("Seconds a new pod must be ready to count as available.") },
            { "revisionHistoryLimit", b.int32("Old revisions kept for rollback.") } },
        { "selector", "template" });
    const SchemaNode *status = b.partialObject("What the daemon set controller observed.",
        { { "currentNumberScheduled", b.int32("Nodes running a daemon pod that should.") },
            { "numberMisscheduled", b.int32("Nodes running a daemon pod that should not.") },
            { "desiredNumberScheduled", b.int32("Nodes that should run a daemon pod.") },
            { "numberReady", b.int32("Nodes whose daemon pod is Ready.") },
            { "observedGeneration", b.int64("Generation the status describes.") },
            { "updatedNumberScheduled", b.int32("Nodes running the current template.") },
            { "numberAvailable", b.int32("Nodes whose daemon pod is available.") },
            { "numberUnavailable", b.int32("Nodes whose daemon pod is not available.") } },
        { "currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled",
            "numberReady" });
    return kindRoot(b, c, "Runs a copy of a pod on every matching node (drivers, device plugins).",
        { { "spec", spec }, { "status", status } });
}

const SchemaNode *service(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *port = b.partialObject("A port the service exposes.",
        { { "name", b.string("Name of the port, unique in the service.") },
            { "protocol", b.enumeration("TCP, UDP or SCTP.", { "TCP", "UDP", "SCTP" }) },
            { "appProtocol", b.string("Application protocol, e.g. http.") },
            { "port", b.int32("Port the service listens on.") },
            { "targetPort", b.intOrString("Port (number or name) on the pods.") },
            { "nodePort", b.int32("Port on every node, for NodePort and LoadBalancer.") } },
        { "port" });
    const SchemaNode *spec = b.partialObject("How the service selects and exposes pods.",
        { { "type",
              b.enumeration("How the service is exposed.",
                  { "ClusterIP", "NodePort", "LoadBalancer", "ExternalName" }) },
            { "selector", b.stringMap("Labels of the pods traffic goes to.") },
            { "ports", b.mapList("Ports the service exposes.", port, { "port", "protocol" }) },
            { "clusterIP", b.string("Virtual IP of the service; None for a headless service.") },
            { "clusterIPs", b.stringList("Virtual IPs, one per IP family.") },
            { "sessionAffinity", b.enumeration("ClientIP or None.", { "ClientIP", "None" }) },
            { "externalName", b.string("DNS name an ExternalName service aliases.") } });
    const SchemaNode *status = b.partialObject("Load balancer state.",
        { { "loadBalancer", b.any("Ingress points of a load balancer.") } });
    return kindRoot(b, c, "A stable address in front of a set of pods.",
        { { "spec", spec }, { "status", status } });
}

const SchemaNode *httpRoute(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *backendRef = b.partialObject(
        "A backend traffic is sent to (a Service unless group/kind say otherwise).",
        { { "group", b.string("API group of the backend; empty for core.") },
            { "kind", b.string("Kind of the backend; Service when empty.") },
            { "name", b.string("Name of the backend.") },
            { "namespace", b.string("Namespace of the backend; the route's when empty.") },
            { "port", b.int32("Port of the backend.") },
            { "weight",
                b.int32("Share of the rule's traffic, relative to the other backends; 1 when not "
                        "set.") } },
        { "name" });
    const SchemaNode *filter = b.partialObject("A change applied to requests of the rule.",
        { { "type",
              b.enumeration("Which filter this is.",
                  { "RequestHeaderModifier", "ResponseHeaderModifier", "RequestMirror",
                      "RequestRedirect", "URLRewrite", "ExtensionRef" }) },
            { "requestMirror",
                b.partialObject("Sends a copy of each request to another backend, ignoring its "
                                "answers (shadow traffic).",
                    { { "backendRef", backendRef },
                        { "percent", b.int32("Share of requests mirrored, 0 to 100.") } }) } },
        { "type" });
    const SchemaNode *rule = b.partialObject("Requests matched and where they go.",
        { { "matches", b.any("Conditions on path, headers, query and method.") },
            { "filters", b.list("Changes applied to matched requests.", filter) },
            { "backendRefs",
                b.list("Backends matched requests are split between, by weight.", backendRef) } });
    const SchemaNode *parentRef
        = b.partialObject("A Gateway (or other parent) the route attaches to.",
            { { "group", b.string("API group of the parent.") },
                { "kind", b.string("Kind of the parent; Gateway when empty.") },
                { "namespace", b.string("Namespace of the parent; the route's when empty.") },
                { "name", b.string("Name of the parent.") },
                { "sectionName", b.string("Listener of the parent.") },
                { "port", b.int32("Port of the parent's listener.") } },
            { "name" });
    const SchemaNode *spec
        = b.partialObject("Which requests the route matches and where it sends them.",
            { { "parentRefs", b.list("Gateways the route attaches to.", parentRef) },
                { "hostnames", b.stringList("Host names the route matches.") },
                { "rules", b.list("Rules, each with matches, filters and backends.", rule) } });
    const SchemaNode *status = b.partialObject("What the gateways report about the route.",
        { { "parents", b.any("Per parent: accepted and resolved conditions.") } });
    return kindRoot(b, c,
        "Gateway API routing of HTTP requests to backends by weight, with mirroring.",
        { { "spec", spec }, { "status", status } });
}

// apps/v1 StatefulSet, typed through its spec (the installer's manifests are checked against it).
const SchemaNode *statefulSet(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *claimTemplate = b.object("A volume claim made for each replica.",
        { { "apiVersion", b.string("Versioned schema of the claim.") },
            { "kind", b.string("PersistentVolumeClaim.") },
            { "metadata", b.field(c.objectMeta, "Name and labels of the claims.") },
            { "spec",
                b.object("The claims' spec.",
                    { { "accessModes",
                          b.stringList("ReadWriteOnce, ReadOnlyMany, ReadWriteMany or "
                                       "ReadWriteOncePod.") },
                        { "resources",
                            b.object("How much storage to claim.",
                                { { "requests", b.map("Storage requested.", b.quantity({})) },
                                    { "limits",
                                        b.map("Most storage to use.", b.quantity({})) } }) },
                        { "storageClassName", b.string("Storage class; the default when unset.") },
                        { "volumeMode",
                            b.enumeration("Filesystem or Block.", { "Filesystem", "Block" }) },
                        { "volumeName", b.string("A persistent volume to bind to.") },
                        { "volumeAttributesClassName", b.string("Volume attributes class.") },
                        { "selector", labelSelector(b, "Volumes the claim may bind to.") },
                        { "dataSource", b.any("Where to populate the volume from.") },
                        { "dataSourceRef", b.any("Where to populate the volume from.") } }) },
            { "status", b.any("The claims' status.") } });
    const SchemaNode *updateStrategy = b.object("How pods are replaced when the template changes.",
        { { "type", b.enumeration("RollingUpdate or OnDelete.", { "RollingUpdate", "OnDelete" }) },
            { "rollingUpdate",
                b.object("Limits of a rolling update.",
                    { { "partition", b.int32("Ordinals below this keep the old template.") },
                        { "maxUnavailable",
                            b.intOrString(
                                "Pods that may be unavailable during the update.") } }) } });
    const SchemaNode *retention = b.object("What happens to the volume claims.",
        { { "whenDeleted",
              b.enumeration("When the StatefulSet is deleted.", { "Retain", "Delete" }) },
            { "whenScaled", b.enumeration("When it is scaled down.", { "Retain", "Delete" }) } });
    const SchemaNode *spec = b.object("The desired state of the stateful set.",
        { { "replicas", b.int32("Desired number of pods; 1 when not set.") },
            { "selector",
                labelSelector(b, "Which pods belong to the set; immutable after creation.") },
            { "template", podTemplate(b, c) },
            { "serviceName", b.string("The headless Service that names the pods.") },
            { "volumeClaimTemplates", b.list("Volume claims each pod gets.", claimTemplate) },
            { "podManagementPolicy",
                b.enumeration("OrderedReady or Parallel.", { "OrderedReady", "Parallel" }) },
            { "updateStrategy", updateStrategy },
            { "revisionHistoryLimit", b.int32("Old revisions kept.") },
            { "minReadySeconds",
                b.int32("Seconds a new pod must be ready to count as available.") },
            { "persistentVolumeClaimRetentionPolicy", retention },
            { "ordinals",
                b.object("The ordinals of the pods.",
                    { { "start", b.int32("The first ordinal.") } }) } },
        { "selector", "template" });
    const SchemaNode *status = b.partialObject("What the stateful set controller observed.",
        { { "observedGeneration", b.int64("Generation the status describes.") },
            { "replicas", b.int32("Pods created.") },
            { "readyReplicas", b.int32("Pods that are Ready.") },
            { "currentReplicas", b.int32("Pods at the current revision.") },
            { "updatedReplicas", b.int32("Pods at the update revision.") },
            { "availableReplicas", b.int32("Pods available.") } });
    return kindRoot(b, c, "Pods with stable names and their own volumes, made in order.",
        { { "spec", spec }, { "status", status } });
}

} // namespace

void addWorkloadKinds(SchemaBuilder &b, const CommonNodes &common, KindSink &sink)
{
    sink.addKind("apps/v1", "Deployment", true, deployment(b, common));
    sink.addKind("apps/v1", "ReplicaSet", true, replicaSet(b, common));
    sink.addKind("apps/v1", "DaemonSet", true, daemonSet(b, common));
    sink.addKind("apps/v1", "StatefulSet", true, statefulSet(b, common));
    sink.addKind("v1", "Service", true, service(b, common));
    sink.addKind("gateway.networking.k8s.io/v1", "HTTPRoute", true, httpRoute(b, common));
}

} // namespace dra::model::schema_detail
