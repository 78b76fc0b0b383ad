// onnxruntime-web, WebAssembly backend (SIMD build), one thread, in Node.
// Its Node entry (dist/ort.node.min.mjs) finds its .wasm next to itself.
import * as ort from 'onnxruntime-web';
import { ortAdapter } from './ort-common.mjs';

export const id = 'ort-web';
export const label = 'onnxruntime-web (wasm)';

export async function load() {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  const adapter = ortAdapter(ort, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
  });
  return { version: ort.env.versions.web, ...adapter };
}
