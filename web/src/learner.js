// The student's own state: quiz answers, predictions, challenges done, the
// exercise's answer shown or not. It is theirs, not the view's: it is kept in
// this browser (localStorage) and never written to a shared link, which
// carries only the view settings (state.js).
//
// One store per page. Each part of the page owns one section (a key such as
// 'quiz' or 'predictions') and reads it back through its own check: what
// comes back from storage was written by another version of the page or by
// hand, so a section that fails its check reads as absent. Storage that
// cannot be used (disabled, full, a sandboxed frame) leaves the store working
// in memory for the visit. snapshot() and restore() give the whole state as
// one plain object (a course platform stores it between visits).
const STORAGE_KEY = 'normlab:learner:v1';

export function createLearnerStore({ storage = defaultStorage(), key = STORAGE_KEY } = {}) {
  let data = readStored(storage, key);
  const listeners = new Set();

  function save() {
    if (!storage) return;
    try {
      storage.setItem(key, JSON.stringify(data));
    } catch {
      // Full or refused: the state stays in memory for this visit.
    }
  }

  function changed() {
    save();
    for (const listener of listeners) listener(data);
  }

  return {
    // The section's value if it passes check(value) (return true when it is
    // well formed), else fallback.
    read(section, check, fallback = null) {
      const value = data[section];
      if (value === undefined) return fallback;
      try {
        return check(value) ? value : fallback;
      } catch {
        return fallback;
      }
    },
    write(section, value) {
      if (value === undefined || value === null) delete data[section];
      else data[section] = JSON.parse(JSON.stringify(value));
      changed();
    },
    // Forget everything (a "start over").
    clear() {
      data = {};
      changed();
    },
    snapshot() {
      return JSON.parse(JSON.stringify(data));
    },
    restore(value) {
      data = isPlainObject(value) ? JSON.parse(JSON.stringify(value)) : {};
      changed();
    },
    // listener(data) after every change; returns the unsubscribe function.
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// A store that keeps nothing between visits (tests, or elements that must
// not share the host page's storage).
export function createMemoryLearnerStore() {
  return createLearnerStore({ storage: null });
}

function defaultStorage() {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return null;
    const probe = `${STORAGE_KEY}:probe`;
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

function readStored(storage, key) {
  if (!storage) return {};
  try {
    const value = JSON.parse(storage.getItem(key) ?? '{}');
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
