// The page as a SCORM SCO inside a course platform (an LMS): finding the
// platform's API, one adapter for SCORM 1.2 and 2004, and the reporter that
// tells the platform what the learner store (learner.js) holds.
//
// Without an API the page is a plain page and none of this runs past
// findLmsApi. With one, the page keeps the learner's state in the platform
// (suspend_data, resume-data.js) instead of this browser, and reports
// completion, the quiz's score and success, and the session's time
// (course-progress.js says what they are). Every call into the platform may
// fail or throw; a failure is reported once through onFault and the page
// carries on.
import { courseProgress } from './course-progress.js';
import { decodeResume, encodeResume, viewParams } from './resume-data.js';

// The API objects' names, 2004's first: a platform that offers both runs
// the newer one.
const API_NAMES = [
  ['API_1484_11', '2004'],
  ['API', '1.2'],
];
// The parents looked at from one window, as in ADL's API discovery
// algorithm; a real course nests a few frames.
export const MAX_PARENTS = 500;

const METHODS = {
  '1.2': {
    initialize: 'LMSInitialize',
    terminate: 'LMSFinish',
    get: 'LMSGetValue',
    set: 'LMSSetValue',
    commit: 'LMSCommit',
    lastError: 'LMSGetLastError',
    errorString: 'LMSGetErrorString',
  },
  '2004': {
    initialize: 'Initialize',
    terminate: 'Terminate',
    get: 'GetValue',
    set: 'SetValue',
    commit: 'Commit',
    lastError: 'GetLastError',
    errorString: 'GetErrorString',
  },
};

// The data model elements each version names.
export const ELEMENTS = {
  '1.2': {
    suspendData: 'cmi.suspend_data',
    exit: 'cmi.core.exit',
    sessionTime: 'cmi.core.session_time',
    raw: 'cmi.core.score.raw',
    min: 'cmi.core.score.min',
    max: 'cmi.core.score.max',
    lessonStatus: 'cmi.core.lesson_status',
  },
  '2004': {
    suspendData: 'cmi.suspend_data',
    exit: 'cmi.exit',
    sessionTime: 'cmi.session_time',
    raw: 'cmi.score.raw',
    min: 'cmi.score.min',
    max: 'cmi.score.max',
    scaled: 'cmi.score.scaled',
    completion: 'cmi.completion_status',
    success: 'cmi.success_status',
  },
};

// suspend_data's size: 4096 characters in SCORM 1.2; 2004 4th Edition
// guarantees 64000.
export const SUSPEND_DATA_MAX = { '1.2': 4096, '2004': 64000 };

// { api, flavour: '1.2' | '2004' } or null. The page's window is searched
// up its parents; then the opener of the topmost window reached (a player
// that opened the course in a new window) up its own parents, as the
// specifications describe. A window of another origin cannot be read and
// ends that chain.
export function findLmsApi(win) {
  for (const [name, flavour] of API_NAMES) {
    const own = searchUp(win, name);
    const api = own.api ?? searchUp(read(own.top, 'opener'), name).api;
    if (api) return { api, flavour };
  }
  return null;
}

// { api (or null), top: the last window looked at }
function searchUp(start, name) {
  const methods = name === 'API' ? METHODS['1.2'] : METHODS['2004'];
  let win = start;
  for (let i = 0; win && i <= MAX_PARENTS; i++) {
    const api = read(win, name);
    if (isApi(api, methods)) return { api, top: win };
    const parent = read(win, 'parent');
    if (!parent || parent === win) break;
    win = parent;
  }
  return { api: null, top: win };
}

function read(win, property) {
  try {
    return win?.[property] ?? null;
  } catch {
    return null;
  }
}

const isApi = (api, methods) =>
  typeof api === 'object' &&
  api !== null &&
  Object.values(methods).every((method) => typeof read(api, method) === 'function');

// One interface for both versions: initialize(), get(element),
// set(element, value), commit(), terminate() (true when the platform said
// so) and lastError() ({ code, message }). Nothing is sent before
// initialize() or after terminate(); a second terminate() is not sent.
export function createLmsAdapter(api, flavour) {
  const methods = METHODS[flavour];
  if (!methods) throw new RangeError(`flavour must be '1.2' or '2004', not ${JSON.stringify(flavour)}`);
  // 'new' | 'open' | 'refused' (initialize failed) | 'closed'
  let status = 'new';
  const call = (name, ...args) => {
    try {
      return api[methods[name]](...args);
    } catch {
      return undefined;
    }
  };
  // The platform answers 'true' / 'false' as text; some answer booleans.
  const ok = (answer) => answer === true || answer === 'true';
  return {
    flavour,
    get status() {
      return status;
    },
    initialize() {
      if (status === 'new') status = ok(call('initialize', '')) ? 'open' : 'refused';
      return status === 'open';
    },
    get(element) {
      if (status !== 'open') return '';
      const value = call('get', element);
      return typeof value === 'string' ? value : '';
    },
    set(element, value) {
      return status === 'open' && ok(call('set', element, String(value)));
    },
    commit() {
      return status === 'open' && ok(call('commit', ''));
    },
    terminate() {
      if (status !== 'open') return status === 'closed';
      status = 'closed';
      return ok(call('terminate', ''));
    },
    lastError() {
      const code = String(call('lastError') ?? '');
      return { code, message: String(call('errorString', code) ?? '') };
    },
  };
}

// The platform's connection as the page starts, before its first paint:
// null without an API; else { flavour, adapter, connected (Initialize
// succeeded), resume ({ learner, view } from suspend_data, or null) }.
export function connectLms(win) {
  const found = findLmsApi(win);
  if (!found) return null;
  const adapter = createLmsAdapter(found.api, found.flavour);
  const connected = adapter.initialize();
  const resume = connected ? decodeResume(adapter.get(ELEMENTS[found.flavour].suspendData)) : null;
  return { flavour: found.flavour, adapter, connected, resume };
}

// Session times: SCORM 1.2's CMITimespan (HH:MM:SS.SS, hours 2 to 4
// digits) and 2004's ISO 8601 duration (PT1H2M3.45S).
export function scorm12Time(ms) {
  const { hours, minutes, seconds } = split(ms);
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(Math.min(hours, 9999))}:${pad(minutes)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

export function scorm2004Time(ms) {
  const { hours, minutes, seconds } = split(ms);
  return `PT${hours}H${minutes}M${Number(seconds.toFixed(2))}S`;
}

function split(ms) {
  const centiseconds = Math.max(0, Math.round(ms / 10));
  const hours = Math.floor(centiseconds / 360000);
  const minutes = Math.floor(centiseconds / 6000) % 60;
  const seconds = (centiseconds % 6000) / 100;
  return { hours, minutes, seconds };
}

// What the platform is told for a progress (course-progress.js): element ->
// value, in the order it is sent (score bounds before the score).
export function progressValues(flavour, progress) {
  const e = ELEMENTS[flavour];
  const values = [];
  const score =
    progress.score === null
      ? []
      : [
          [e.min, '0'],
          [e.max, String(progress.total)],
          [e.raw, String(progress.score)],
        ];
  if (flavour === '1.2') {
    // One status for both: incomplete until complete, then passed or failed.
    const status = !progress.complete ? 'incomplete' : progress.passed ? 'passed' : 'failed';
    values.push(...score, [e.lessonStatus, status]);
  } else {
    if (progress.score !== null) score.push([e.scaled, String(Number((progress.score / progress.total).toFixed(4)))]);
    values.push(
      ...score,
      [e.completion, progress.complete ? 'completed' : 'incomplete'],
      [e.success, progress.passed === null ? 'unknown' : progress.passed ? 'passed' : 'failed'],
    );
  }
  return values;
}

// Reports the learner store to the platform for as long as the page is
// open: after every change of the store (the values that changed, then a
// commit), the view's settings when they change (no commit: they are
// committed with the next change, when the page is hidden, and when it
// closes), and on pagehide the session's time, a commit and Terminate.
// onFault({ element | call, code, message }) is called once, on the first
// value or commit the platform refuses.
//   connection  connectLms's result, connected
//   store       the learner store
//   view()      the view's query string (state.js searchFromState)
export function createLmsReporter({ connection, store, view, win, onFault, now = () => win.performance.now() }) {
  const { adapter, flavour } = connection;
  const e = ELEMENTS[flavour];
  const startedAt = now();
  const sent = new Map();
  let faulted = false;

  function fault(what) {
    if (faulted) return;
    faulted = true;
    const { code, message } = adapter.lastError();
    onFault({ ...what, code, message });
  }

  function send(element, value) {
    if (sent.get(element) === value) return;
    if (adapter.set(element, value)) sent.set(element, value);
    else fault({ element });
  }

  function suspendData() {
    const { text } = encodeResume(
      { learner: store.snapshot(), view: viewParams(view()) },
      { limit: SUSPEND_DATA_MAX[flavour] },
    );
    send(e.suspendData, text);
  }

  function commit() {
    if (adapter.status !== 'open') return;
    send(e.sessionTime, flavour === '1.2' ? scorm12Time(now() - startedAt) : scorm2004Time(now() - startedAt));
    if (!adapter.commit()) fault({ call: 'commit' });
  }

  function report() {
    if (adapter.status !== 'open') return;
    for (const [element, value] of progressValues(flavour, courseProgress(store))) send(element, value);
    suspendData();
    commit();
  }

  // The learner leaves: whatever the page holds is sent, then the session
  // ends. 'suspend' keeps suspend_data for the next launch.
  function close() {
    if (adapter.status !== 'open') return;
    for (const [element, value] of progressValues(flavour, courseProgress(store))) send(element, value);
    suspendData();
    send(e.exit, 'suspend');
    commit();
    adapter.terminate();
  }

  const hidden = () => {
    if (win.document.visibilityState === 'hidden') {
      suspendData();
      commit();
    }
  };
  const unsubscribe = store.subscribe(report);
  win.addEventListener('pagehide', close);
  win.document.addEventListener('visibilitychange', hidden);
  send(e.exit, 'suspend');
  report();

  return {
    // The view's settings changed (the page's link was rewritten).
    viewChanged() {
      if (adapter.status === 'open') suspendData();
    },
    close,
    stop() {
      unsubscribe();
      win.removeEventListener('pagehide', close);
      win.document.removeEventListener('visibilitychange', hidden);
    },
  };
}
