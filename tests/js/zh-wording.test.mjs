// Chinese wording that read wrongly to a Chinese reader: the placement
// diagrams' edges (下一层 / 上一层 read as "next" / "previous", so "from the
// next layer" at the bottom read backwards) and a dash that glued √d to the
// following "d = 1024" into one expression.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import zhCN from '../../web/src/i18n/zh-CN.js';

test('the placement diagrams: the stream comes from the layer before and goes on to the layer after', () => {
  assert.equal(zhCN.placement.layerIn, '来自前一层');
  assert.equal(zhCN.placement.layerOut, '送往后一层');
});

test('no formula runs into the next one through a dash', () => {
  const strings = [];
  const walk = (node) => {
    for (const value of Object.values(node)) {
      if (typeof value === 'string') strings.push(value);
      else walk(value);
    }
  };
  walk(zhCN);
  for (const s of strings) assert.doesNotMatch(s, /\$——\$/, s);
  assert.match(zhCN.formula.consequence, /\$\\sqrt\{d\}\$。\$d = 1024\$ 时它等于 32/);
});
