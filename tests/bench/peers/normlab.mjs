// normlab through its public JS API (dist/normlab.mjs), in the ways a user
// calls it. The mode decides where the data lives:
//
//   'copy'       arrays in, a new Float32Array out: copy in, kernel, copy out
//                (what onnxruntime-web does per run: its tensors are JS-side
//                arrays, copied into its wasm heap and the result copied out)
//   'out'        the same with `out` (one Float32Array per prepared cell,
//                allocated once, as a caller reusing its buffer would): the
//                copy out goes into it instead of a new array
//   'tensor-in'  x, gain and bias in wasm-resident tensors (made once per
//                cell), a new Float32Array out: tfjs-backend-wasm's pattern
//                (its tensors live in its wasm heap; dataSync() copies the
//                result out into a new array)
//   'resident'   x, gain, bias and out all tensors: no copy at all, the kernel
//                alone behind one wasm call (a pipeline that keeps its
//                activations in wasm memory)
//
// prepare() returns { run, read, dispose }: run() is what is timed, read()
// the result as an array (for the agreement check), dispose() frees tensors.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The copy entry point (the memory-bandwidth ceiling); the first that exists.
const COPY_NAMES = ['copyRows'];

const MODES = ['copy', 'out', 'tensor-in', 'resident'];

export async function loadApi(distFile) {
  if (!existsSync(distFile)) throw new Error(`${distFile} not found (run ./build.sh build)`);
  const mod = await import(pathToFileURL(distFile).href);
  const loadNormlab = mod.loadNormlab ?? mod.default?.loadNormlab ?? mod.default;
  if (typeof loadNormlab !== 'function') throw new Error(`${distFile} exports no loadNormlab`);
  return loadNormlab;
}

export function normlabAdapter(loadNormlab, backend, { mode = 'copy' } = {}) {
  if (!MODES.includes(mode)) throw new Error(`unknown normlab bench mode ${mode}`);
  const suffix = mode === 'copy' ? '' : `-${mode}`;
  return {
    id: `normlab-${backend === 'simd128' ? 'simd' : backend}${suffix}`,
    label: `normlab ${backend} ${mode}`,
    async load() {
      const nl = await loadNormlab({ backend });
      const copyName = COPY_NAMES.find((n) => typeof nl[n] === 'function');
      const tensors = mode === 'tensor-in' || mode === 'resident';
      if (tensors && typeof nl.tensor !== 'function') throw new Error('this normlab API has no tensor()');
      const info = [nl.backend, nl.arch, nl.version].filter((v) => typeof v === 'string');
      return {
        version: info.join(' ') || backend,
        backend: nl.backend,
        copyName,
        async prepare(op, x, rows, dim, { gain, bias, rmsEps, lnEps, temperature }) {
          const made = [];
          const keep = (t) => (made.push(t), t);
          // Inputs: tensors made once per cell (not timed), or the arrays.
          const [xi, gi, bi] = tensors ? [x, gain, bias].map((v) => keep(nl.tensor(v))) : [x, gain, bias];
          let out;
          if (mode === 'out') out = new Float32Array(x.length);
          else if (mode === 'resident') out = keep(nl.tensor(x.length));
          let run;
          if (op === 'rmsnorm') run = () => nl.rmsnorm(xi, { dim, gain: gi, eps: rmsEps, out });
          else if (op === 'layernorm') run = () => nl.layernorm(xi, { dim, gain: gi, bias: bi, eps: lnEps, out });
          else if (op === 'softmax') run = () => nl.softmax(xi, { dim, temperature, out });
          else if (op === 'copy') {
            if (!copyName) throw new Error('no copy entry point in the normlab API');
            const copy = nl[copyName];
            run = mode === 'resident' ? () => copy.call(nl, xi, { dim, out }) : () => copy.call(nl, xi, { dim });
          }
          const read = () => {
            const y = run();
            return y instanceof Float32Array ? y : y.array.slice();
          };
          return {
            run,
            read,
            dispose() {
              for (const t of made) t.free();
            },
          };
        },
        async close() {
          nl.dispose?.();
        },
      };
    },
  };
}
