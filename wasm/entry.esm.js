// dist/normlab.mjs: the ES module build. Each backend is its own ES module next
// to this file, imported the first time loadNormlab() picks it; the trainer's
// module of that flavour likewise, the first time createTrainer() runs.
import { makeLoadNormlab } from './normlab.js';

export const loadNormlab = makeLoadNormlab(
  {
    simd128: () => import('./normlab_simd.mjs'),
    scalar: () => import('./normlab_scalar.mjs'),
  },
  {
    simd128: () => import('./normlab_train_simd.mjs'),
    scalar: () => import('./normlab_train_scalar.mjs'),
  },
);
