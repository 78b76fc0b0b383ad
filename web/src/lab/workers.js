// Makes the lab's Web Workers (worker.js, built as dist/lab-worker.js), one
// per run, in the first of two forms the page allows:
//
// - from its URL, lab-worker.js beside lab.js, when the page is served
//   (http or https) from the same origin as lab.js: a course page's
//   Content-Security-Policy must allow it (worker-src 'self', or script-src
//   'self' without a worker-src); the worker loads the trainer's classic
//   script beside it;
// - from a blob: URL, when the page is opened from file:// (Chromium refuses
//   a worker's script from file://, and a worker there cannot load one) or
//   lab.js comes from another origin: its source is the trainer's classic
//   script and lab-worker.js, each loaded into the page as a classic script
//   that also registers its own source (a function whose text is the whole
//   script; wasm/bundle.mjs and web/build.mjs wrap them so). The page's own
//   policy allows blob: workers (worker-src 'self' blob:).
//
// A worker that cannot start (the policy forbids it, the browser has no
// workers, the module does not load in it) is reported to the runner,
// which then trains on the page's main thread in idle slices, as before.
//
// createWorkerMaker({ win, doc }) -> { make(): Worker (throws if none can be
// made), script: the trainer's script URL for the worker to load, or null }

const FLAVOUR_FILES = { simd128: 'normlab_train_simd.js', scalar: 'normlab_train_scalar.js' };
const SCRIPT_KEYS = { simd128: 'trainSimd128Script', scalar: 'trainScalarScript' };

// lab.js's own URL, read while it first runs (document.currentScript is only
// set then); the worker's files sit beside it.
const LAB_SCRIPT = typeof document === 'undefined' ? null : (document.currentScript?.src ?? null);

function loadScript(doc, src) {
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    doc.head.append(script);
  });
}

// The worker's form for this page: 'url' or 'blob'.
function formFor(win, base) {
  const page = win.location;
  if (page.protocol !== 'http:' && page.protocol !== 'https:') return 'blob';
  return new URL(base).origin === page.origin ? 'url' : 'blob';
}

// flavour: the page's module's ('simd128' or 'scalar'). Resolves once the
// worker's source is at hand (at once in the URL form).
export async function createWorkerMaker({ win, doc, flavour }) {
  if (typeof win.Worker !== 'function') throw new Error('this browser has no Web Workers');
  const base = LAB_SCRIPT ?? doc.baseURI;
  const trainScript = new URL(FLAVOUR_FILES[flavour], base).href;
  if (formFor(win, base) === 'url') {
    const url = new URL('lab-worker.js', base).href;
    return { form: 'url', script: trainScript, make: () => new win.Worker(url) };
  }
  const backends = () => win.normlabBackends ?? {};
  if (!backends()[SCRIPT_KEYS[flavour]]) await loadScript(doc, trainScript);
  if (typeof win.normlabLabWorker !== 'function') await loadScript(doc, new URL('lab-worker.js', base).href);
  const trainSource = backends()[SCRIPT_KEYS[flavour]];
  if (typeof trainSource !== 'function' || typeof win.normlabLabWorker !== 'function') {
    throw new Error("the lab worker's scripts did not register their sources");
  }
  const source = `(${trainSource})();\n(${win.normlabLabWorker})();\n`;
  const url = win.URL.createObjectURL(new win.Blob([source], { type: 'text/javascript' }));
  return { form: 'blob', script: null, make: () => new win.Worker(url) };
}
