// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The kinds the in-cluster mirror's manifests hold besides RBAC and the workloads: core/v1
// ServiceAccount, networking.k8s.io/v1 NetworkPolicy and coordination.k8s.io/v1 Lease (the lock
// its rollout controller holds), every field typed, so a misspelled field is refused as
// kube-apiserver refuses it; and core/v1 ResourceQuota, whose per-class device limits say who may
// use which DeviceClass.
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

namespace {

const SchemaNode *serviceAccount(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *reference = b.object("A reference to an object in the same namespace.",
        { { "name", b.string("Name of the object.") }, { "namespace", b.string("Its namespace.") },
            { "kind", b.string("Its kind.") }, { "apiVersion", b.string("Its API version.") },
            { "uid", b.string("Its UID.") }, { "resourceVersion", b.string("Its version.") },
            { "fieldPath", b.string("A part of it.") } });
    const SchemaNode *pullSecret = b.object(
        "A Secret holding registry credentials.", { { "name", b.string("Name of the Secret.") } });
    return kindRoot(b, c, "An identity for processes that run in pods.",
        { { "secrets", b.list("Secrets pods of this account may use.", reference) },
            { "imagePullSecrets", b.list("Registry credentials for its pods.", pullSecret) },
            { "automountServiceAccountToken",
                b.boolean("Whether pods get its token mounted by default.") } });
}

const SchemaNode *networkPolicy(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *port = b.object("A port traffic may use.",
        { { "protocol", b.enumeration("TCP, UDP or SCTP.", { "TCP", "UDP", "SCTP" }) },
            { "port", b.intOrString("Port number or name.") },
            { "endPort", b.int32("Last port of a range starting at port.") } });
    const SchemaNode *ipBlock = b.object("A CIDR range.",
        { { "cidr", b.string("The range, e.g. 10.0.0.0/8.") },
            { "except", b.stringList("Ranges left out.") } },
        { "cidr" });
    const SchemaNode *peer = b.object("Who traffic may come from or go to.",
        { { "podSelector", labelSelector(b, "Pods, in the namespaces selected.") },
            { "namespaceSelector", labelSelector(b, "Namespaces.") }, { "ipBlock", ipBlock } });
    const SchemaNode *ingress = b.object("Traffic allowed in.",
        { { "ports", b.list("Ports; all when empty.", port) },
            { "from", b.list("Sources; all when empty.", peer) } });
    const SchemaNode *egress = b.object("Traffic allowed out.",
        { { "ports", b.list("Ports; all when empty.", port) },
            { "to", b.list("Destinations; all when empty.", peer) } });
    const SchemaNode *spec = b.object("Which pods the policy isolates and what it allows.",
        { { "podSelector", labelSelector(b, "Pods the policy applies to; empty: all.") },
            { "ingress", b.list("Ingress rules, any of which allows.", ingress) },
            { "egress", b.list("Egress rules, any of which allows.", egress) },
            { "policyTypes", b.stringList("Ingress, Egress or both.") } },
        { "podSelector" });
    return kindRoot(
        b, c, "Which traffic selected pods may receive and send.", { { "spec", spec } });
}

const SchemaNode *lease(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *spec = b.object("Who holds the lease and until when.",
        { { "holderIdentity", b.string("The current holder; empty when released.") },
            { "leaseDurationSeconds",
                b.int32("Seconds others wait after the last renewal before taking it over.") },
            { "acquireTime",
                b.string("When the holder acquired it, in microseconds.", "date-time") },
            { "renewTime", b.string("When the holder last renewed it.", "date-time") },
            { "leaseTransitions", b.int32("How many times the holder changed.") },
            { "strategy", b.string("How a coordinated election picks the next holder.") },
            { "preferredHolder", b.string("The holder a coordinated election prefers.") } });
    return kindRoot(
        b, c, "A lock with a holder and an expiry, renewed while held.", { { "spec", spec } });
}

const SchemaNode *resourceQuota(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *requirement = b.object("A scope's condition.",
        { { "scopeName", b.string("The scope, e.g. PriorityClass.") },
            { "operator",
                b.enumeration("How values apply.", { "In", "NotIn", "Exists", "DoesNotExist" }) },
            { "values", b.stringList("Values for In and NotIn.") } },
        { "scopeName", "operator" });
    const SchemaNode *spec = b.object("What the quota limits.",
        { { "hard",
              b.map("Hard limit per resource name, e.g. "
                    "gpu.nvidia.com.deviceclass.resource.k8s.io/devices.",
                  b.quantity("The limit.")) },
            { "scopes", b.stringList("Scopes objects must match to be counted.") },
            { "scopeSelector",
                b.object("Scopes by condition.",
                    { { "matchExpressions",
                        b.list("Conditions, all of which hold.", requirement) } }) } });
    const SchemaNode *status = b.object("What the quota controller measured.",
        { { "hard", b.map("The limits in force.", b.quantity("The limit.")) },
            { "used", b.map("What the namespace uses now.", b.quantity("The usage.")) } });
    return kindRoot(b, c, "Limits on what one namespace may use in aggregate.",
        { { "spec", spec }, { "status", status } });
}

} // namespace

void addSetupKinds(SchemaBuilder &b, const CommonNodes &c, KindSink &sink)
{
    sink.addKind("v1", "ServiceAccount", true, serviceAccount(b, c));
    sink.addKind("v1", "ResourceQuota", true, resourceQuota(b, c));
    sink.addKind("networking.k8s.io/v1", "NetworkPolicy", true, networkPolicy(b, c));
    sink.addKind("coordination.k8s.io/v1", "Lease", true, lease(b, c));
}

} // namespace dra::model::schema_detail
