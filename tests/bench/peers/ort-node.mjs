// onnxruntime-node: the native CPU execution provider, one thread.
import ort from 'onnxruntime-node';
import { ortAdapter } from './ort-common.mjs';

export const id = 'ort-node';
export const label = 'onnxruntime-node (native CPU)';

export async function load() {
  const adapter = ortAdapter(ort, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return { version: ort.env.versions.node, ...adapter };
}
