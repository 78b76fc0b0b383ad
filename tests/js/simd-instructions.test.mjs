// What dist/ ships: the SIMD128 backend and the trainer's SIMD128 module
// really run SIMD128 instructions and the scalar ones none, and no shipped script builds code from strings
// (pages run under a Content-Security-Policy without 'unsafe-eval').
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const dist = new URL('../../dist/', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'normlab-simd-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Any v128 vector instruction: v128.load, f32x4.mul, i32x4.shuffle, ...
const SIMD_OP = /\b(?:v128|[if](?:8x16|16x8|32x4|64x2))\.[a-z_]/;

// The backends are SINGLE_FILE builds: the wasm is inline as a base64 data: URI.
function disassemble(file) {
  const source = readFileSync(new URL(file, dist), 'utf8');
  const match = source.match(/data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/);
  assert.ok(match, `${file} holds no inline wasm`);
  const wasm = join(scratch, `${file}.wasm`);
  writeFileSync(wasm, Buffer.from(match[1], 'base64'));
  execFileSync('wasm-dis', [wasm, '-o', `${wasm}.wat`]);
  return readFileSync(`${wasm}.wat`, 'utf8').split('\n');
}

const count = (lines, pattern) => lines.filter((l) => pattern.test(l)).length;

// The main modules and the trainer's, each in both forms.
for (const [simd, scalar, suffix] of ['mjs', 'js'].flatMap((suffix) => [
  ['normlab_simd', 'normlab_scalar', suffix],
  ['normlab_train_simd', 'normlab_train_scalar', suffix],
])) {
  test(`${simd}.${suffix} runs SIMD128 instructions`, (t) => {
    const lines = disassemble(`${simd}.${suffix}`);
    const f32x4 = count(lines, /\bf32x4\./);
    const v128 = count(lines, /\bv128\./);
    t.diagnostic(`${f32x4} f32x4.* and ${v128} v128.* instructions`);
    assert.ok(f32x4 >= 10, `only ${f32x4} f32x4.* instructions`);
    assert.ok(v128 >= 10, `only ${v128} v128.* instructions`);
  });

  test(`${scalar}.${suffix} has no SIMD instruction`, () => {
    const lines = disassemble(`${scalar}.${suffix}`);
    assert.ok(count(lines, /\(func /) > 50, 'the disassembly has the functions');
    assert.equal(
      count(lines, SIMD_OP),
      0,
      lines.find((l) => SIMD_OP.test(l)),
    );
  });
}

test('no eval or new Function in any shipped script', () => {
  const scripts = readdirSync(dist).filter((f) => /\.(m?js)$/.test(f));
  assert.ok(scripts.length >= 10, `scripts in dist/: ${scripts}`);
  for (const file of scripts) {
    const source = readFileSync(new URL(file, dist), 'utf8');
    assert.doesNotMatch(source, /\beval\s*\(/, `${file} calls eval`);
    assert.doesNotMatch(source, /\bnew\s+Function\b/, `${file} uses new Function`);
  }
});
