// normlab through its public JS API (dist/normlab.mjs), end to end as a user
// calls it: copy in, kernel, copy out into a new Float32Array. With
// { out: true } the same calls pass `out` (one Float32Array per prepared
// cell, allocated once, as a caller reusing its buffer would): the copy out
// then goes into it instead of a new array.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The copy entry point (the memory-bandwidth ceiling); the first that exists.
const COPY_NAMES = ['copyRows'];

export async function loadApi(distFile) {
  if (!existsSync(distFile)) throw new Error(`${distFile} not found (run ./build.sh build)`);
  const mod = await import(pathToFileURL(distFile).href);
  const loadNormlab = mod.loadNormlab ?? mod.default?.loadNormlab ?? mod.default;
  if (typeof loadNormlab !== 'function') throw new Error(`${distFile} exports no loadNormlab`);
  return loadNormlab;
}

export function normlabAdapter(loadNormlab, backend, { out: useOut = false } = {}) {
  return {
    id: `normlab-${backend === 'simd128' ? 'simd' : backend}${useOut ? '-out' : ''}`,
    label: `normlab ${backend}${useOut ? ', out=' : ''}`,
    async load() {
      const nl = await loadNormlab({ backend });
      const copyName = COPY_NAMES.find((n) => typeof nl[n] === 'function');
      const info = [nl.backend, nl.arch, nl.version].filter((v) => typeof v === 'string');
      return {
        version: info.join(' ') || backend,
        backend: nl.backend,
        copyName,
        async prepare(op, x, rows, dim, { gain, bias, rmsEps, lnEps, temperature }) {
          let run;
          const out = useOut ? new Float32Array(x.length) : undefined;
          if (op === 'rmsnorm') run = () => nl.rmsnorm(x, { dim, gain, eps: rmsEps, out });
          else if (op === 'layernorm') run = () => nl.layernorm(x, { dim, gain, bias, eps: lnEps, out });
          else if (op === 'softmax') run = () => nl.softmax(x, { dim, temperature, out });
          else if (op === 'copy') {
            if (!copyName) throw new Error('no copy entry point in the normlab API');
            const copy = nl[copyName];
            run = () => copy.call(nl, x, { dim });
          }
          return { run };
        },
        async close() { nl.dispose?.(); },
      };
    },
  };
}
