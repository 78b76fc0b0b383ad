// The "after pre-norm" section's diagrams (<svg data-diagram="name"> in
// index.html), drawn here from short descriptions instead of being written
// out as SVG in the page: each shows one layer in the placement section's
// style, the residual stream as the highway on the left, the side branch
// on the right, in the same classes (web/styles/sections.css). Texts with a
// dot are keys of the page's dictionary, set as data-i18n for static-text.js
// to fill in the reader's language; the others are formulas, the same in
// every language.
const NS = 'http://www.w3.org/2000/svg';
const ARROW = 'url(#arrow-pre)'; // the placement section's arrowhead

// Items, bottom to top as the stream flows:
//   ['h', d, end]      a stretch of the highway (SVG path data); end: an arrowhead
//   ['b', d]           a stretch of the branch, ending in an arrowhead
//   ['n', x, y, w, t]  a norm's box, 32 high, its text t
//   ['f', x, y, w, h, t, ty]  a block's box, its text t at height ty
//   ['s', y]           the addition on the highway at height y
//   ['t', x, y, t]     a text
//   ['l', y, x]        the highway's name along it, centred at height y (x: 62)
const FRAME = [
  ['t', 80, 14, 'placement.layerOut', 'diagram-edge'],
  ['t', 80, 334, 'placement.layerIn', 'diagram-edge'],
];
const BLOCK = 'placement.block';
const NORM = 'placement.norm';
const DIAGRAMS = {
  qk: [
    ['h', 'M80,318 V100', true],
    ['h', 'M80,80 V24', true],
    ['b', 'M80,296 H200 V276'],
    ['n', 160, 244, 80, NORM],
    ['b', 'M200,244 V222'],
    ['f', 126, 112, 148, 110, 'after.attention', 134],
    ['t', 200, 158, 'q·k / √dₕ'],
    ['n', 136, 170, 60, 'Norm'],
    ['n', 204, 170, 60, 'Norm'],
    ['t', 166, 216, 'q'],
    ['t', 234, 216, 'k'],
    ['b', 'M200,112 V90 H92'],
    ['s', 90],
    ['l', 220],
  ],
  sandwich: [
    ['h', 'M80,318 V70', true],
    ['h', 'M80,50 V24', true],
    ['b', 'M80,304 H200 V286'],
    ['n', 160, 254, 80, NORM],
    ['b', 'M200,254 V236'],
    ['f', 126, 196, 148, 40, BLOCK, 220],
    ['b', 'M200,196 V178'],
    ['n', 160, 146, 80, NORM],
    ['b', 'M200,146 V60 H92'],
    ['s', 60],
    ['l', 220],
  ],
  output: [
    ['h', 'M80,318 V100', true],
    ['h', 'M80,80 V24', true],
    ['b', 'M80,296 H200 V252'],
    ['f', 126, 212, 148, 40, BLOCK, 236],
    ['b', 'M200,212 V184'],
    ['n', 160, 152, 80, NORM],
    ['b', 'M200,152 V90 H92'],
    ['s', 90],
    ['l', 220],
  ],
  deep: [
    ['h', 'M80,318 V238', true],
    ['f', 52, 206, 56, 32, '×α', 226],
    ['h', 'M80,206 V160', true],
    ['h', 'M80,140 V116'],
    ['h', 'M80,84 V24', true],
    ['b', 'M80,296 H200 V272'],
    ['f', 126, 232, 148, 40, 'after.betaInit', 256],
    ['b', 'M200,232 V150 H92'],
    ['s', 150],
    ['n', 40, 84, 80, NORM, 'on-highway'],
    ['l', 170, 30],
  ],
  dyt: [
    ['h', 'M80,318 V130', true],
    ['h', 'M80,110 V24', true],
    ['b', 'M80,296 H200 V276'],
    ['n', 140, 244, 120, 'γ·tanh(αx)+β'],
    ['b', 'M200,244 V212'],
    ['f', 126, 172, 148, 40, BLOCK, 196],
    ['b', 'M200,172 V120 H92'],
    ['s', 120],
    ['l', 220],
  ],
};

function element(doc, parent, name, attrs) {
  const node = doc.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent.append(node);
  return node;
}

function text(doc, svg, x, y, label, className) {
  const node = element(doc, svg, 'text', { class: className, x, y, 'text-anchor': 'middle' });
  if (label.includes('.')) node.dataset.i18n = label;
  else node.textContent = label;
  return node;
}

function draw(doc, svg, items) {
  for (const [kind, ...a] of items) {
    if (kind === 'h' || kind === 'b') {
      const path = element(doc, svg, 'path', { class: kind === 'h' ? 'highway' : 'branch', d: a[0] });
      if (kind === 'b' || a[1]) path.setAttribute('marker-end', ARROW);
    } else if (kind === 'n') {
      const [x, y, w, label, extra] = a;
      element(doc, svg, 'rect', { class: extra ? `norm ${extra}` : 'norm', x, y, width: w, height: 32, rx: 6 });
      text(doc, svg, x + w / 2, y + 20, label, 'norm-text');
    } else if (kind === 'f') {
      const [x, y, w, h, label, ty] = a;
      element(doc, svg, 'rect', { class: 'block', x, y, width: w, height: h, rx: 6 });
      text(doc, svg, x + w / 2, ty, label, 'block-text');
    } else if (kind === 's') {
      element(doc, svg, 'circle', { class: 'sum', cx: 80, cy: a[0], r: 10 });
      element(doc, svg, 'path', { class: 'sum-sign', d: `M74,${a[0]} H86 M80,${a[0] - 6} V${a[0] + 6}` });
    } else if (kind === 't') {
      text(doc, svg, a[0], a[1], a[2], a[3] ?? 'block-text');
    } else if (kind === 'l') {
      const label = text(doc, svg, 0, 0, 'placement.highway', 'highway-label');
      label.setAttribute('transform', `translate(${a[1] ?? 62},${a[0]}) rotate(-90)`);
    }
  }
}

// Draws every empty <svg data-diagram> under root (once: a drawn one has
// children).
export function drawLayerDiagrams(doc, root = doc) {
  for (const svg of root.querySelectorAll('svg[data-diagram]')) {
    if (svg.firstChild) continue;
    const items = DIAGRAMS[svg.dataset.diagram];
    if (!items) throw new Error(`no layer diagram named ${svg.dataset.diagram}`);
    draw(doc, svg, [...FRAME, ...items]);
  }
}
