// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// Topology of one node: the drawing the desktop and `dractl topology NODE -o svg` show (GPUs,
// MIG devices, NICs in their NUMA and PCIe frames, NVLink and PCIe links, coloured by holder),
// from the server's layout (`dractl topology NODE -o layout-json`), with SVG and PNG downloads;
// the node picker above it and the node's devices by kind, with who holds them, below.

import { h, fill, link, table } from '../dom.js';
import { formatHash } from '../location.js';
import { drawLayout, fitLabels, svgDocument } from '../topology_drawing.js';
import { ApiError } from '../api.js';
import { follow } from './live.js';

// The layout, or null when the node has nothing to draw (the server answers 404).
async function loadLayout(api, node) {
  try {
    return await api.get(`topology/${encodeURIComponent(node)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { missing: error.message };
    throw error;
  }
}

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// The drawing as a PNG: the SVG document rendered into a canvas at twice its size.
function downloadPng(name, element) {
  const url = URL.createObjectURL(new Blob([svgDocument(element)], { type: 'image/svg+xml' }));
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = image.width * 2;
    canvas.height = image.height * 2;
    const context2d = canvas.getContext('2d');
    context2d.scale(2, 2);
    context2d.drawImage(image, 0, 0);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => blob && download(name, blob), 'image/png');
  };
  image.src = url;
}

function deviceTables(rows) {
  const groups = new Map();
  for (const row of rows) {
    const kind = row.partition ? 'MIG partitions' : row.type ? `${row.type} devices` : `${row.driver} devices`;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(row);
  }
  return [...groups].map(([kind, list]) => h('section', {}, h('h3', {}, `${kind} (${list.length})`),
    table([['Device', (r) => r.name], ['Product', (r) => r.product], ['Memory', (r) => r.memory],
      ['State', (r) => r.state], ['Held by', (r) => r.holder || '—']], list,
    { rowClass: (r) => `state-${r.state}` })));
}

export const topology = {
  name: 'topology',
  title: 'Topology',
  render(context) {
    const node = context.arg;
    const picker = h('div', { class: 'node-picker' });
    const summary = h('p');
    const drawing = h('figure', { class: 'topology-drawing', id: 'topology-drawing' });
    const list = h('div', { id: 'topology-devices' });
    let svgElement = null;
    const svgButton = h('button', { type: 'button', disabled: true,
      onclick: () => svgElement && download(`${node}-topology.svg`, new Blob([svgDocument(svgElement)], { type: 'image/svg+xml' })) }, 'SVG');
    const pngButton = h('button', { type: 'button', disabled: true,
      onclick: () => svgElement && downloadPng(`${node}-topology.png`, svgElement) }, 'PNG');
    fill(context.root, h('h2', {}, 'Topology ', node ? h('span', { class: 'muted' }, node) : ''), picker,
      node ? [h('div', { class: 'toolbar' }, summary, h('span', { class: 'downloads' }, 'Download ', svgButton, ' ', pngButton)),
        drawing, list] : list);
    return follow(context, 'devices', async () => {
      const [overview, devices] = await Promise.all([
        context.api.get('overview'),
        node ? context.api.get('devices', { node, sort: 'name', limit: 1000 }) : null,
      ]);
      // A node the overview knows without GPUs or NICs has nothing to draw: not asked (the
      // server would answer 404, which the browser reports as an error).
      const known = overview.nodes.find((n) => n.name === node);
      const layout = !node ? null : known && !known.gpus.total && !known.nics.total
        ? { missing: `No GPUs or NICs on node ${node} to draw.` } : await loadLayout(context.api, node);
      return { overview, layout, devices };
    }, ({ overview, layout, devices }) => {
      fill(picker, overview.nodes.map((n) => [n.name === node ? h('strong', {}, n.name)
        : link(formatHash('topology', n.name), n.name), ' ']));
      if (!node) {
        fill(list, h('p', { class: 'muted' }, 'Choose a node.'));
        return;
      }
      const nodeSummary = overview.nodes.find((n) => n.name === node);
      if (!nodeSummary && layout?.missing) {
        fill(drawing);
        fill(list, h('p', { class: 'warn' }, `No node ${node} in this cluster.`));
        return;
      }
      summary.textContent = nodeSummary
        ? `${nodeSummary.models.join(', ') || 'no GPUs'} · ${nodeSummary.gpus.free} of ${nodeSummary.gpus.total} GPUs free` : '';
      if (layout?.missing) {
        svgElement = null;
        fill(drawing, h('p', { class: 'muted' }, layout.missing));
      } else {
        svgElement = drawLayout(layout, {
          onDevice: (device) => context.navigate('devices', '', { node, q: device.device }),
        });
        fill(drawing, svgElement);
        fitLabels(svgElement);
      }
      svgButton.disabled = !svgElement;
      pngButton.disabled = !svgElement;
      fill(list, devices.rows.length ? deviceTables(devices.rows) : h('p', { class: 'muted' }, 'No devices on this node.'));
    });
  },
};
