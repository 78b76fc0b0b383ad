// Loads the page's wasm kernels (normlab.js's loadNormlab, the global the
// page's first script defines) on the backend the state asks for.
// Returns a promise of the kernels; a missing loader is a failure too.
export function loadKernels(loadNormlab, backend) {
  return typeof loadNormlab === 'function'
    ? loadNormlab({ backend })
    : Promise.reject(new Error('normlab.js did not load'));
}
