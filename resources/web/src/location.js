// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The page's address: a route in the fragment (#/devices?node=n1), which may carry the bearer
// token (#/devices?token=T, or the old #token=T). The fragment never reaches the server; the
// page keeps the token for the tab and removes it from the address bar. Pure functions.

export const ROUTES = ['overview', 'devices', 'classes', 'access', 'topology', 'claims', 'templates',
  'editor', 'lint', 'readiness', 'free', 'rollouts', 'migration'];

// {name, arg, params, token} of a location hash. name is '' for an empty or unknown route.
export function parseHash(hash) {
  let text = (hash ?? '').replace(/^#/, '');
  let query = '';
  const question = text.indexOf('?');
  if (question >= 0) {
    query = text.slice(question + 1);
    text = text.slice(0, question);
  } else if (!text.startsWith('/') && text.includes('=')) {
    query = text; // "#token=T": parameters without a route
    text = '';
  }
  const params = new URLSearchParams(query);
  const token = params.get('token') ?? '';
  params.delete('token');
  const segments = text.replace(/^\/+/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const name = ROUTES.includes(segments[0]) ? segments[0] : '';
  return { name, arg: name ? segments.slice(1).join('/') : '', params, token };
}

// The hash of a route: formatHash('devices', '', {node: 'n1'}) is '#/devices?node=n1'.
export function formatHash(name, arg = '', params = {}) {
  const search = new URLSearchParams(params instanceof URLSearchParams ? params : Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== null && value !== ''));
  const path = `#/${name || 'overview'}${arg ? '/' + arg.split('/').map(encodeURIComponent).join('/') : ''}`;
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

// The hash with the token taken out and the route kept ('#/overview' when there is none).
export function hashWithoutToken(hash) {
  const { name, arg, params } = parseHash(hash);
  return formatHash(name || 'overview', arg, params);
}

// The WebSocket subprotocol that carries a bearer token, as kube-apiserver reads it: a browser
// cannot set an Authorization header on a WebSocket. The token is sent as unpadded base64url.
export function bearerProtocol(token) {
  const bytes = new TextEncoder().encode(token);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64url = btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `base64url.bearer.authorization.k8s.io.${base64url}`;
}

// The ws:// or wss:// address of a path on the server that served `location`.
export function webSocketUrl(location, path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}
