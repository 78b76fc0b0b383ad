// Determinism of the model through the JS API: the same seed and prompt give
// identical results on one build, and the SIMD128 and scalar builds agree
// within 1e-4 of each statistic's scale (their reductions are ordered
// differently and their exp differs, so bit-equality is not expected).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { LONG_PROMPTS, PROMPT_16, leaves } from './model-fixtures.mjs';

const TOLERANCE = 1e-4;

let simd;
let scalar;
before(async () => {
  [simd, scalar] = await Promise.all([loadNormlab({ backend: 'simd128' }), loadNormlab({ backend: 'scalar' })]);
});
after(() => {
  simd.dispose();
  scalar.dispose();
});

const CONFIGS = [{}, { placement: 'post' }, { norm: 'layernorm' }, { layers: 6, hidden: 256, heads: 8, seed: 7 }];

// Without a norm the two builds cannot agree to 1e-4, and should not: the
// deep layers' attention logits reach hundreds, so the builds' ~1e-6
// relative rounding differences move them by ~1e-3, which shifts a saturated,
// near-tied softmax row by up to a few percent, and that flows on into the
// stream. This is the ill-conditioning the chapter attributes to missing
// norms, so it is measured with its own, looser bounds (seen: 1.4e-2 on
// attention, 5e-4 on the statistics).
const NO_NORM = { norm: 'none' };
const NO_NORM_TOLERANCE = { attention: 5e-2, other: 2e-3 };

function withModel(nl, options, f) {
  const model = nl.createModel(options);
  try {
    return f(model);
  } finally {
    model.delete();
  }
}

// The scale a value is judged on: the largest magnitude of its statistic
// across the whole array (a mean near 0 is judged on the probe's rms, since
// it has no meaningful relative error).
function scaleOf(path, value, run) {
  const magnitude = (arr) =>
    typeof arr === 'number' ? Math.abs(arr) : arr.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  // 'probes.inputNorm.out.perToken.mean', 'final.finalNorm.in.mean.mean'
  const [group, a, b, kind, stat] = path.split('.');
  if ((group === 'probes' || group === 'final') && stat === 'mean') {
    const rms = run[group][`${a}.${b}`][kind].rms;
    return Math.max(magnitude(value), magnitude(rms));
  }
  return Math.max(magnitude(value), Number.MIN_VALUE);
}

function assertAgree(a, b, what, tolerance = () => TOLERANCE) {
  const la = leaves(a);
  const lb = new Map(leaves(b));
  assert.equal(la.length, lb.size, `${what}: same fields`);
  for (const [path, va] of la) {
    const vb = lb.get(path);
    if (path === 'next.tokens' || path === 'next.token' || path === 'tokens' || /^(layers|hidden|heads)$/.test(path)) {
      // Discrete: greedy choices could only differ on a near tie, which the
      // probabilities (compared below) would show first.
      assert.deepEqual(vb, va, `${what}: ${path}`);
      continue;
    }
    const scale = scaleOf(path, va, a);
    const xs = typeof va === 'number' ? [va] : va;
    const ys = typeof vb === 'number' ? [vb] : vb;
    let worst = 0;
    for (let i = 0; i < xs.length; i++) worst = Math.max(worst, Math.abs(xs[i] - ys[i]) / scale);
    assert.ok(worst <= tolerance(path), `${what}: ${path} differs by ${worst.toExponential(2)} of its scale`);
  }
}

describe('one build: same seed and prompt, identical results', () => {
  for (const options of CONFIGS.slice(0, 2)) {
    test(JSON.stringify(options), () => {
      const first = withModel(simd, options, (m) => [m.forward(LONG_PROMPTS[1]), m.gradients(PROMPT_16)]);
      withModel(simd, options, (m) => {
        m.forward(LONG_PROMPTS[0]); // a different prompt in between changes nothing
        assert.deepEqual(m.forward(LONG_PROMPTS[1]), first[0]);
        assert.deepEqual(m.gradients(PROMPT_16), first[1]);
      });
      const other = withModel(simd, { ...options, seed: 2 }, (m) => m.forward(LONG_PROMPTS[1]));
      assert.notDeepEqual(other.probes['residual.out'].mean.l2, first[0].probes['residual.out'].mean.l2);
    });
  }
});

describe('SIMD128 and scalar agree within 1e-4 of each statistic scale', () => {
  for (const options of CONFIGS) {
    test(`${JSON.stringify(options)}: forward`, () => {
      for (const prompt of LONG_PROMPTS) {
        const a = withModel(simd, options, (m) => m.forward(prompt, { topK: 10 }));
        const b = withModel(scalar, options, (m) => m.forward(prompt, { topK: 10 }));
        assertAgree(a, b, `"${prompt}"`);
      }
    });
  }
  test('no norm: within the looser bounds of a saturated model', () => {
    const tolerance = (path) => (path.startsWith('attention') ? NO_NORM_TOLERANCE.attention : NO_NORM_TOLERANCE.other);
    for (const prompt of LONG_PROMPTS) {
      const a = withModel(simd, NO_NORM, (m) => m.forward(prompt, { topK: 10 }));
      const b = withModel(scalar, NO_NORM, (m) => m.forward(prompt, { topK: 10 }));
      assertAgree(a, b, `"${prompt}"`, tolerance);
    }
  });
  for (const options of CONFIGS.slice(0, 2)) {
    test(`${JSON.stringify(options)}: gradients`, () => {
      const a = withModel(simd, options, (m) => m.gradients(PROMPT_16));
      const b = withModel(scalar, options, (m) => m.gradients(PROMPT_16));
      assertAgree(a, b, 'gradients');
    });
  }
  test('gains are the same numbers', () => {
    withModel(simd, {}, (a) =>
      withModel(scalar, {}, (b) => {
        assert.deepEqual(a.gains(7, 'inputNorm'), b.gains(7, 'inputNorm'));
        assert.deepEqual(a.gains(0, 'finalNorm'), b.gains(0, 'finalNorm'));
      }),
    );
  });
});
