// dist/normlab.js: the classic-script build, global `normlab`, for pages opened
// from file:// (Chromium refuses ES modules there). Each backend is its own
// classic script next to this one (normlab_simd.js, normlab_scalar.js) that
// registers its namespace as globalThis.normlabBackends[name]; it is added to
// the page the first time loadNormlab() picks it.
import { makeLoadNormlab } from './normlab.js';

// Backend scripts sit beside this one. document.currentScript is only set while
// this script first runs, so read it now.
const baseUrl = document.currentScript?.src || document.baseURI;
const loading = new Map();

function loadBackendScript(name, file) {
  if (!loading.has(name)) {
    loading.set(
      name,
      new Promise((resolve, reject) => {
        const script = document.createElement('script');
        script.src = new URL(file, baseUrl).href;
        script.onload = () => resolve(globalThis.normlabBackends[name]);
        script.onerror = () => {
          loading.delete(name);
          reject(new Error(`could not load the ${name} backend from ${script.src}`));
        };
        document.head.append(script);
      }),
    );
  }
  return loading.get(name);
}

export const loadNormlab = makeLoadNormlab({
  simd128: () => loadBackendScript('simd128', 'normlab_simd.js'),
  scalar: () => loadBackendScript('scalar', 'normlab_scalar.js'),
});
