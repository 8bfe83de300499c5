// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// A node's topology layout (GET /console/v1/topology/NODE, the JSON `dractl topology NODE -o
// layout-json` prints) drawn as SVG the way the core's SVG writer draws it
// (core/topology/topology_svg.cpp): the same frames, boxes, links, colours, labels and legend,
// so the web, the desktop and `dractl topology -o svg` show one picture. Built with DOM calls
// only: names and labels from the cluster become text nodes, never markup. The colours are the
// writer's, as presentation attributes, so a downloaded drawing looks like the CLI's; the
// page's stylesheet overrides them in the dark theme.

const SVG = 'http://www.w3.org/2000/svg';
const HEADER = 36; // the title line above the drawing
const FOOTER = 28; // the legend below it
const MIN_WIDTH = 480;
const GAP = 16;
const GROUP_PADDING = 12;
const NV_COLOUR = '#2a9d8f';
const PCIE_COLOUR = '#264653';

export const LEGEND = 'fill: orange held, green free, grey unmapped or blocked; links: solid imported, dotted attribute, dashed inferred';

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// A coordinate as the writer prints it: hundredths at most, no trailing zeros.
export function num(value) {
  const text = String(Math.round(Number(value ?? 0) * 100) / 100);
  return text === '-0' ? '0' : text;
}

// Box text is cut to fit; the whole text is in the box's tooltip.
export function elide(text, chars) {
  const value = text ?? '';
  return value.length <= chars ? value : `${value.slice(0, Math.max(chars - 1, 0))}\u2026`;
}

function title(text) {
  return svg('title', {}, text ?? '');
}

function text(x, y, content, attributes = {}) {
  return svg('text', { x: num(x), y: num(y), ...attributes }, content);
}

function rect(r, attributes) {
  return svg('rect', { x: num(r.x), y: num(r.y), width: num(r.width), height: num(r.height), ...attributes });
}

// The fill colour of a box, as the writer chooses it.
export function fillOf(device) {
  if (device.kind === 'mig') {
    if (device.fill === 'held') return '#e76f51';
    if (device.fill === 'free') return '#ffffff';
    return '#e5e5e5';
  }
  switch (device.fill) {
    case 'held': return '#f6bd60';
    case 'partly-held': return '#fbe3b4';
    case 'unmapped':
    case 'blocked': return '#e5e5e5';
    default: return device.kind === 'nic' ? '#e9f1fb' : '#d8f3dc';
  }
}

// Solid when imported (a measurement), dotted from attributes, dashed when inferred (a guess).
function dashOf(source) {
  if (source === 'attribute') return '2 4';
  if (source === 'inferred') return '8 5';
  return undefined;
}

function frameElement(frame) {
  const numa = frame.kind === 'numa';
  return svg('g', { class: numa ? 'numa' : 'pcie-root' },
    rect(frame.rect, { rx: 8, fill: numa ? '#f7f7f7' : '#fcfcfc', stroke: numa ? '#555' : '#999', class: 'frame' }),
    text(frame.rect.x + GROUP_PADDING, frame.rect.y + 16, [frame.label ?? '',
      frame.detail ? svg('tspan', { 'font-weight': 'normal', fill: '#666', class: 'frame-detail' }, `  ${frame.detail}`) : null],
    { 'font-weight': 'bold' }));
}

function migElement(device) {
  const r = device.rect;
  const out = [svg('rect', { class: `mig fill-${device.fill}`, x: num(r.x), y: num(r.y), width: num(r.width),
    height: num(r.height), rx: 2, fill: fillOf(device), stroke: '#404040' }, title(device.tooltip))];
  const fits = Math.trunc(r.width / 5.5);
  if (r.height >= 11 && fits >= 2) {
    out.push(text(r.x + r.width / 2, r.y + r.height / 2 + 3, elide(device.title, fits),
      { 'font-size': 9, 'text-anchor': 'middle', class: 'mig-label' }));
  }
  return out;
}

// A line of a box at `inset` from its left edge, cut to `chars` as the writer cuts it. It
// carries the width it may take (data-fit) and its whole text, so fitLabels() can cut it
// further once the page has measured it; a cut line shows the whole text as its tooltip.
function boxLine(r, inset, y, content, chars, attributes) {
  const whole = content ?? '';
  const shown = elide(whole, chars);
  return text(r.x + inset, y, [shown, shown !== whole ? title(whole) : null],
    { ...attributes, 'data-fit': num(r.width - 2 * inset), 'data-whole': whole });
}

// Cuts each box line of a drawing on the page (drawLayout() output, attached to the document:
// only then has text a width) until it fits inside its box, and gives every cut line a
// <title> with its whole text. A long GPU model and its memory and MIG facts would otherwise
// run past the right edge of the box.
export function fitLabels(root) {
  for (const line of root.querySelectorAll('text[data-fit]')) {
    const room = Number(line.getAttribute('data-fit'));
    const whole = line.getAttribute('data-whole') ?? '';
    const shown = line.firstChild;
    if (!(shown instanceof Text) || typeof line.getComputedTextLength !== 'function') continue;
    if (line.getComputedTextLength() <= room) continue;
    let chars = shown.data.length;
    while (chars > 1 && line.getComputedTextLength() > room) shown.data = elide(whole, --chars);
    if (!line.querySelector('title')) line.append(title(whole));
  }
}

// A GPU or NIC group: its box and lines; a GPU's MIG devices are added to it by the caller.
function boxElement(device) {
  const r = device.rect;
  const gpu = device.kind === 'gpu';
  const group = svg('g', { class: `${gpu ? 'gpu' : 'nic'} fill-${device.fill}`, 'data-endpoint': device.endpoint,
    'data-device': device.device ?? undefined }, title(device.tooltip));
  group.append(rect(r, { rx: 6, fill: fillOf(device), stroke: '#333', 'stroke-dasharray': device.fill === 'unmapped' ? '4 3' : undefined, class: 'box' }));
  if (gpu) {
    group.append(boxLine(r, 8, r.y + 18, device.title, 26, { 'font-weight': 'bold', class: 'box-title' }),
      boxLine(r, 8, r.y + 34, device.subtitle, 28, { class: 'box-subtitle' }));
    if (device.holder) group.append(boxLine(r, 8, r.y + 50, device.holder, 28, { class: 'holder' }));
  } else {
    group.append(boxLine(r, 6, r.y + 16, device.title, 18, { 'font-weight': 'bold', class: 'box-title' }),
      boxLine(r, 6, r.y + r.height - 8, device.subtitle, 19, { class: 'box-subtitle' }));
  }
  return group;
}

function linkElement(link) {
  const nv = link.kind === 'NV';
  const colour = nv ? NV_COLOUR : PCIE_COLOUR;
  const kindClass = link.to === 'fabric' ? 'fabric-drop' : String(link.kind).toLowerCase();
  const classes = `link ${kindClass} ${link.source} ${nv ? 'nv' : 'pcie'}`;
  if (link.shape !== 'arc') {
    return [svg('line', { class: classes, x1: num(link.start.x), y1: num(link.start.y), x2: num(link.end.x),
      y2: num(link.end.y), stroke: colour, 'stroke-width': num(link.width), 'stroke-dasharray': dashOf(link.source) },
    title(link.tooltip))];
  }
  const d = `M ${num(link.start.x)} ${num(link.start.y)} C ${num(link.control1.x)} ${num(link.control1.y)} `
    + `${num(link.control2.x)} ${num(link.control2.y)} ${num(link.end.x)} ${num(link.end.y)}`;
  return [svg('path', { class: classes, d, fill: 'none', stroke: colour, 'stroke-width': num(link.width),
    'stroke-dasharray': dashOf(link.source) }, title(link.tooltip)),
  text(link.labelAt.x, link.labelAt.y + 11, link.label ?? '', { fill: colour, 'font-size': 11, class: `link-label ${nv ? 'nv' : 'pcie'}` })];
}

// The <svg> element of `layout`. `onDevice(device)` is called when a box of a DRA device is
// clicked (or chosen with Enter).
export function drawLayout(layout, { onDevice } = {}) {
  const b = layout.bounds;
  const width = Math.max(b.width, MIN_WIDTH);
  const height = HEADER + b.height + FOOTER;
  const root = svg('svg', { xmlns: SVG, class: 'topology', width: num(width), height: num(height),
    viewBox: `0 0 ${num(width)} ${num(height)}`, 'font-family': 'sans-serif', 'font-size': 12, role: 'img',
    'aria-label': `Topology of node ${layout.node}` });
  root.append(svg('rect', { width: '100%', height: '100%', fill: 'white', class: 'background' }));
  root.append(text(GAP, 24, `Node ${layout.node} — ${layout.imported ? 'imported nvidia-smi topo -m' : 'from ResourceSlice attributes'}`,
    { 'font-size': 15, 'font-weight': 'bold', class: 'heading' }));
  const drawing = svg('g', { transform: `translate(${num(-b.x)} ${num(HEADER - b.y)})` });
  root.append(drawing);
  for (const frame of layout.frames ?? []) drawing.append(frameElement(frame));
  // Lines go under the boxes, arcs over them: all-to-all lines would cover the labels.
  for (const link of layout.links ?? []) if (link.shape !== 'arc') drawing.append(...linkElement(link));
  if (layout.fabric) {
    const fabric = layout.fabric;
    drawing.append(svg('g', { class: 'fabric' },
      rect(fabric.rect, { fill: '#bfe6e1', stroke: NV_COLOUR, 'stroke-width': 1.5, 'stroke-dasharray': dashOf(fabric.source) }),
      text(fabric.rect.x + 8, fabric.rect.y + 15, fabric.label ?? '')));
  }
  const selectable = (element, device) => {
    if (!device.selectable || !device.device || !onDevice) return;
    element.setAttribute('tabindex', '0');
    element.classList.add('selectable');
    element.addEventListener('click', (event) => {
      event.stopPropagation(); // a MIG device sits inside its GPU's group
      onDevice(device);
    });
    element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.stopPropagation();
      onDevice(device);
    });
  };
  let group = null;
  for (const device of layout.devices ?? []) {
    if (device.kind === 'mig') {
      const [box, ...labels] = migElement(device);
      selectable(box, device);
      (group ?? drawing).append(box, ...labels);
      continue;
    }
    group = boxElement(device);
    selectable(group, device);
    drawing.append(group);
  }
  for (const link of layout.links ?? []) if (link.shape === 'arc') drawing.append(...linkElement(link));
  if (layout.empty) drawing.append(text(0, 14, layout.empty, { fill: '#666', class: 'empty' }));
  root.append(text(GAP, height - 10, LEGEND, { 'font-size': 11, class: 'legend' }));
  return root;
}

// The drawing as a standalone SVG document (the writer's colours), for download.
export function svgDocument(element) {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(element)}\n`;
}
