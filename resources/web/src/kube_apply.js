// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The editor's writes go to the Kubernetes API the server serves, as `kubectl apply
// --server-side [--dry-run=server]` sends them: PATCH with application/apply-patch+yaml, the
// text as it is, fieldManager=dra-console-web. These helpers find what the text names, build
// the paths and read a refusal (a Status with causes). Pure: node tests them.

export const FIELD_MANAGER = 'dra-console-web';

const RESOURCES = { ResourceClaimTemplate: 'resourceclaimtemplates', ResourceClaim: 'resourceclaims' };

function unquote(text) {
  const value = text.trim();
  if (/^".*"$/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value.slice(1, -1);
    }
  }
  return /^'.*'$/.test(value) ? value.slice(1, -1).replace(/''/g, "'") : value;
}

// The text up to a comment that starts with " #".
function withoutComment(text) {
  const at = text.search(/\s#/);
  return at < 0 ? text : text.slice(0, at);
}

// {apiVersion, kind, name, namespace} of the first object of `text` (JSON, or YAML with these
// keys at the top level and metadata as a block or a flow map); fields not found are ''.
export function manifestIdentity(text) {
  const identity = { apiVersion: '', kind: '', name: '', namespace: '' };
  if (/^\s*\{/.test(text)) {
    try {
      const object = JSON.parse(text);
      return { apiVersion: String(object.apiVersion ?? ''), kind: String(object.kind ?? ''),
        name: String(object.metadata?.name ?? ''), namespace: String(object.metadata?.namespace ?? '') };
    } catch {
      // Not JSON after all: read it as YAML.
    }
  }
  const lines = text.split('\n');
  let inMetadata = false;
  let childIndent = -1;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (/^(---|\.\.\.)\s*$/.test(line)) {
      if (identity.kind || identity.apiVersion) break; // the first document only
      continue;
    }
    if (!line.trim() || /^\s*#/.test(line)) continue;
    const top = /^([A-Za-z]+):(.*)$/.exec(line);
    if (top) {
      inMetadata = false;
      const [, key, rest] = top;
      const value = withoutComment(rest).trim();
      if (key === 'apiVersion' || key === 'kind') identity[key] = unquote(value);
      if (key === 'metadata') {
        if (value.startsWith('{')) {
          for (const field of ['name', 'namespace']) {
            const match = new RegExp(`[{,]\\s*${field}\\s*:\\s*("[^"]*"|'[^']*'|[^,}\\s]+)`).exec(value);
            if (match) identity[field] = unquote(match[1]);
          }
        } else {
          inMetadata = true;
          childIndent = -1;
        }
      }
      continue;
    }
    if (!inMetadata) continue;
    const child = /^(\s+)([A-Za-z]+):(.*)$/.exec(line);
    if (!child) continue;
    if (childIndent < 0) childIndent = child[1].length;
    if (child[1].length !== childIndent) continue;
    if (child[2] === 'name' || child[2] === 'namespace') {
      identity[child[2]] = unquote(withoutComment(child[3]));
    }
  }
  return identity;
}

// Why the text cannot be applied from the editor, or '' when it can.
export function identityProblem(identity) {
  if (!identity.apiVersion.includes('/')) return 'the text has no apiVersion of a group (resource.k8s.io/v1)';
  if (!RESOURCES[identity.kind]) return `the editor applies a ResourceClaimTemplate or a ResourceClaim, not ${identity.kind || 'a text without kind'}`;
  if (!identity.name) return 'the text has no metadata.name';
  return '';
}

// The object's path under /apis/ (namespace "default" when the text names none).
export function objectPath(identity) {
  const ns = encodeURIComponent(identity.namespace || 'default');
  return `/apis/${identity.apiVersion}/namespaces/${ns}/${RESOURCES[identity.kind]}/${encodeURIComponent(identity.name)}`;
}

// The list of the object's collection holding only it: a missing object is an empty list,
// not a 404 the browser would log as an error.
export function lookupPath(identity) {
  const ns = encodeURIComponent(identity.namespace || 'default');
  return `/apis/${identity.apiVersion}/namespaces/${ns}/${RESOURCES[identity.kind]}`
    + `?fieldSelector=${encodeURIComponent(`metadata.name=${identity.name}`)}`;
}

// The server-side apply of the text (a dry run unless `dryRun` is false).
export function applyPath(identity, { dryRun }) {
  return `${objectPath(identity)}?fieldManager=${FIELD_MANAGER}${dryRun ? '&dryRun=All' : ''}`;
}

// A refusal as lines a user reads: the Status message, then "field: message" per cause.
export function statusLines(status, httpStatus) {
  if (!status || typeof status !== 'object' || status.kind !== 'Status') {
    return [`HTTP ${httpStatus}: the server answered no Status`];
  }
  const lines = [status.message || status.reason || `HTTP ${status.code ?? httpStatus}`];
  for (const cause of status.details?.causes ?? []) {
    lines.push(cause.field ? `${cause.field}: ${cause.message ?? cause.reason}` : (cause.message ?? cause.reason));
  }
  return lines;
}

// One write or read of the Kubernetes API with the page's token; resolves with {status, body}
// (body: the JSON answer, or null), never throws on an HTTP error status.
export async function kubeRequest(token, method, path, { body, contentType } = {},
  fetchImpl = globalThis.fetch.bind(globalThis)) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (contentType) headers['Content-Type'] = contentType;
  const response = await fetchImpl(path, { method, headers, body, cache: 'no-store' });
  const answer = await response.json().catch(() => null);
  return { status: response.status, body: answer };
}
