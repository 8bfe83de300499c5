// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// resource.k8s.io/v1alpha3 ResourcePoolStatusRequest (Kubernetes 1.36): a question about one
// driver's pools, answered by the cluster in its status. The fields of 1.36's alpha; the
// partition and shareable summaries 1.37 adds are kept untyped.
#include "core/model/schema_builder.h"

namespace dra::model::schema_detail {

namespace {

const SchemaNode *poolStatusRequest(SchemaBuilder &b, const CommonNodes &c)
{
    const SchemaNode *spec = b.object("Which pools to report on. Immutable.",
        { { "driver", b.string("The DRA driver whose pools are reported.") },
            { "poolName", b.string("Only the pool of this name.") },
            { "limit", b.int32("At most this many pools (1 to 1000; default 100).") },
            { "defaultPartitionTypeAttribute",
                b.string("The attribute naming partition types where a slice names none.") } },
        { "driver" });
    const SchemaNode *pool = b.partialObject("One pool's device totals.",
        { { "driver", b.string("The pool's driver.") }, { "poolName", b.string("The pool.") },
            { "generation", b.int64("The latest generation observed.") },
            { "nodeName", b.string("The node of a node-local pool.") },
            { "resourceSliceCount", b.int32("Slices observed at that generation.") },
            { "totalDevices", b.int32("Devices in the pool.") },
            { "allocatedDevices", b.int32("Devices allocated to claims.") },
            { "availableDevices", b.int32("Devices neither allocated nor unavailable.") },
            { "unavailableDevices", b.int32("Devices tainted NoSchedule or NoExecute.") },
            { "validationError",
                b.string("Why the pool could not be counted, e.g. PoolIncomplete: ...") } },
        { "driver", "poolName" });
    const SchemaNode *status = b.object("The cluster's answer, written once.",
        { { "poolCount", b.int32("Pools that matched, even beyond the limit.") },
            { "pools", b.list("The first `limit` pools, by driver then name.", pool) },
            { "conditions", b.mapList("Complete or Failed.", c.condition, { "type" }) } });
    return kindRoot(b, c, "A request for the device totals of a driver's resource pools.",
        { { "spec", spec }, { "status", status } }, { "spec" });
}

} // namespace

void addPoolStatusKinds(SchemaBuilder &b, const CommonNodes &c, KindSink &sink)
{
    sink.addKind(
        "resource.k8s.io/v1alpha3", "ResourcePoolStatusRequest", false, poolStatusRequest(b, c));
}

} // namespace dra::model::schema_detail
