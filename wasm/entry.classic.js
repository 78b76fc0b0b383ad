// dist/normlab.js: the classic-script build, global `normlab`, for pages opened
// from file:// (Chromium refuses ES modules there). Each backend is its own
// classic script next to this one (normlab_simd.js, normlab_scalar.js) that
// registers its namespace as globalThis.normlabBackends[name]; it is added to
// the page the first time loadNormlab() picks it. The trainer's modules
// (normlab_train_simd.js, normlab_train_scalar.js) register theirs as
// normlabBackends.trainSimd128 and .trainScalar and are added the first time
// createTrainer() runs on a backend of their flavour.
import { makeLoadNormlab } from './normlab.js';

// Backend scripts sit beside this one. document.currentScript is only set while
// this script first runs, so read it now.
const baseUrl = document.currentScript?.src || document.baseURI;
const loading = new Map();

// key: the script's name in globalThis.normlabBackends; what: how an error
// names it.
function loadBackendScript(key, file, what) {
  if (!loading.has(key)) {
    loading.set(
      key,
      new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = new URL(file, baseUrl).href;
        script.onload = () => resolve(globalThis.normlabBackends[key]);
        script.onerror = () => {
          loading.delete(key);
          reject(new Error(`could not load the ${what} from ${script.src}`));
        };
        document.head.append(script);
      }),
    );
  }
  return loading.get(key);
}

export const loadNormlab = makeLoadNormlab(
  {
    simd128: () => loadBackendScript('simd128', 'normlab_simd.js', 'simd128 backend'),
    scalar: () => loadBackendScript('scalar', 'normlab_scalar.js', 'scalar backend'),
  },
  {
    simd128: () => loadBackendScript('trainSimd128', 'normlab_train_simd.js', 'simd128 trainer'),
    scalar: () => loadBackendScript('trainScalar', 'normlab_train_scalar.js', 'scalar trainer'),
  },
);
