// The lab's saved contrast, in the browser's IndexedDB: one record, the
// latest contrast (a new one replaces it; a reset, a finished contrast or
// the reader's "forget" deletes it), so storage stays bounded at one
// contrast's runs (about 3.7 MB of state per 24-layer run). A run's part
// is its record up to a step (the series, the numbers from before its first
// step) and the trainer's state at that step (trainer.saveState()'s bytes as
// a Blob, which IndexedDB stores without serialising the bytes on the page's
// thread); a run that ended is kept whole, without state. After a reload, a closed tab or a
// phone discarding the page, the lab offers to go on from it
// (runner.js: resume), and the resumed runs end bit-identical to
// uninterrupted ones.
//
// Storing is best effort: a browser without IndexedDB, a full disk or a
// refused write makes save() reject, which the runner reports and otherwise
// ignores; training never waits for it.
//
// createCheckpointStore(win) -> { load(): Promise<saved | null>,
//   save(saved): Promise, clear(): Promise }
// saved = { version, savedAt, steps, sample, settings, cell,
//   runs: [{ id, options, record, state: { step, state: Blob } | null, ended }] }

const DB = 'normlab-lab';
const STORE = 'contrast';
const KEY = 'latest';
// A record of another layout is not offered (version 2: the runs keep
// each step's largest attention logit, maxLogit).
export const CHECKPOINT_VERSION = 2;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export function createCheckpointStore(win) {
  let opening = null;
  function db() {
    if (!win.indexedDB) return Promise.reject(new Error('this browser has no IndexedDB'));
    if (opening === null) {
      const req = win.indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      opening = request(req);
      opening.catch(() => {
        opening = null;
      });
    }
    return opening;
  }
  async function run(mode, fn) {
    const tx = (await db()).transaction(STORE, mode);
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    });
    const result = await request(fn(tx.objectStore(STORE)));
    await done;
    return result;
  }
  return {
    async load() {
      const saved = await run('readonly', (store) => store.get(KEY));
      return saved?.version === CHECKPOINT_VERSION ? saved : null;
    },
    save: (saved) => run('readwrite', (store) => store.put({ ...saved, version: CHECKPOINT_VERSION }, KEY)),
    clear: () => run('readwrite', (store) => store.delete(KEY)),
  };
}

// What a run's record keeps at a checkpoint: its series up to `step` and
// what it measured before its first step; the rest is measured again.
export function recordAt(run, step) {
  const series = (name) => run[name].slice(0, step);
  return {
    loss: series('loss'),
    gradFirst: series('gradFirst'),
    gradLast: series('gradLast'),
    updateFirst: series('updateFirst'),
    updateLast: series('updateLast'),
    maxLogit: series('maxLogit'),
    entropy: run.entropy,
    layerNormsBefore: run.layerNorms.before,
    nextCharsBefore: run.nextChars.before,
  };
}
