// Formatting for bench.mjs: the console tables and the Markdown report.
import { bytesMoved } from './data.mjs';

export const OP_TITLES = { rmsnorm: 'RMSNorm', layernorm: 'LayerNorm', softmax: 'Softmax' };
export const sizeName = ([rows, dim]) => `${rows}x${dim}`;

export function fmtUs(us) {
  if (!Number.isFinite(us)) return '-';
  if (us < 10) return us.toFixed(2);
  if (us < 100) return us.toFixed(1);
  return us.toFixed(0);
}
export const gbps = (us, [rows, dim]) => bytesMoved(rows, dim) / (us * 1e3);
export function fmtRatio(r) {
  if (!Number.isFinite(r)) return 'n/a';
  return r < 10 ? `${r.toFixed(2)}x` : `${r.toFixed(1)}x`;
}

const pad = (s, n) => String(s).padStart(n);
const padEnd = (s, n) => String(s).padEnd(n);

// rows: [{ label, cells: [string per size] }]
export function textTable(title, headers, rows, firstWidth = 30, cellWidth = 22) {
  const out = [title];
  out.push(padEnd('', firstWidth) + headers.map((h) => pad(h, cellWidth)).join(''));
  for (const r of rows) out.push(padEnd(r.label, firstWidth) + r.cells.map((c) => pad(c, cellWidth)).join(''));
  return out.join('\n');
}

export function mdTable(headers, rows) {
  const out = [`| ${headers.join(' | ')} |`, `|${headers.map((_, i) => (i ? ' ---: ' : ' --- ')).join('|')}|`];
  for (const r of rows) out.push(`| ${[r.label, ...r.cells].join(' | ')} |`);
  return out.join('\n');
}
