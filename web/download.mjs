// What a browser with WebAssembly SIMD fetches to show the page, and its
// budget: web/build.mjs fails past it, and the benchmark report quotes it
// (tests/bench/results.mjs). The scalar backend (normlab_scalar.js) is only
// fetched where SIMD is missing, the trainer's module (normlab_train_simd.js)
// when the training lab first trains.
import { statSync } from 'node:fs';
import { join } from 'node:path';

export const SIMD_DOWNLOAD = ['index.html', 'style.css', 'main.js', 'favicon.svg', 'normlab.js', 'normlab_simd.js'];
export const DOWNLOAD_BUDGET_BYTES = 1_000_000;

// The bytes of SIMD_DOWNLOAD in a built dist/.
export const downloadBytes = (distDir) => SIMD_DOWNLOAD.reduce((sum, f) => sum + statSync(join(distDir, f)).size, 0);
