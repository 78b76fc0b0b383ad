// What a browser with WebAssembly SIMD fetches to show the page, and its
// budget: web/build.mjs fails past it, and the benchmark report quotes it
// (tests/bench/results.mjs). The scalar backend (normlab_scalar.js) is only
// fetched where SIMD is missing, the trainer's module (normlab_train_simd.js)
// when the training lab first trains.
import { statSync } from 'node:fs';
import { join } from 'node:path';

import { LANGUAGE_CODES } from './src/i18n/index.js';

// With these, the dictionary of the page's language (src/i18n/index.js):
// the budget holds for the larger of the two. KaTeX (katex.js) comes when
// the worked example first shows its formulas, after the page has started,
// but a reader who reads on fetches it: it counts.
export const SIMD_DOWNLOAD = [
  'index.html',
  'style.css',
  'main.js',
  'katex.js',
  'favicon.svg',
  'normlab.js',
  'normlab_simd.js',
];
export const DICTIONARY_FILES = LANGUAGE_CODES.map((lang) => `i18n.${lang}.js`);
export const DOWNLOAD_BUDGET_BYTES = 1_000_000;

// The bytes of SIMD_DOWNLOAD and the larger dictionary in a built dist/.
export function downloadBytes(distDir) {
  const size = (f) => statSync(join(distDir, f)).size;
  return SIMD_DOWNLOAD.reduce((sum, f) => sum + size(f), 0) + Math.max(...DICTIONARY_FILES.map(size));
}
