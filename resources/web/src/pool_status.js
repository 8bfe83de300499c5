// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The cluster's own pool totals, asked as `dractl pools --context` asks: a
// ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, Kubernetes 1.36) created with the page's
// token, read until the cluster answered, then deleted. Resolves with the body the console API's
// POST pools takes to set it beside ours: {status} or {unanswered: why}.

import { kubeRequest } from './kube_apply.js';

export const POOL_STATUS_REQUESTS = '/apis/resource.k8s.io/v1alpha3/resourcepoolstatusrequests';

export function poolStatusRequest({ driver, pool, limit = 100 }) {
  const spec = { driver, limit };
  if (pool) spec.poolName = pool;
  return {
    apiVersion: 'resource.k8s.io/v1alpha3',
    kind: 'ResourcePoolStatusRequest',
    metadata: { generateName: 'draconsole-pools-' },
    spec,
  };
}

function why(answer) {
  return answer.body?.message ?? `HTTP ${answer.status}`;
}

export async function askPoolStatus(token, query, {
  request = kubeRequest,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs = 20000,
} = {}) {
  const created = await request(token, 'POST', POOL_STATUS_REQUESTS,
    { body: JSON.stringify(poolStatusRequest(query)), contentType: 'application/json' });
  if (created.status === 404) {
    return { unanswered: 'the cluster does not serve ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, Kubernetes 1.36 or later)' };
  }
  if (created.status >= 300) return { unanswered: why(created) };
  const path = `${POOL_STATUS_REQUESTS}/${encodeURIComponent(created.body.metadata.name)}`;
  try {
    for (let waited = 0; ; waited += 250) {
      const got = await request(token, 'GET', path);
      if (got.status >= 300) return { unanswered: why(got) };
      const status = got.body?.status;
      if (status?.poolCount !== undefined) return { status };
      const failed = status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True');
      if (failed) return { unanswered: failed.message };
      if (waited >= timeoutMs) return { unanswered: `the cluster wrote no status within ${timeoutMs / 1000} s` };
      await sleep(250);
    }
  } finally {
    // A question asked is never left behind in the cluster.
    await request(token, 'DELETE', path).catch(() => null);
  }
}
