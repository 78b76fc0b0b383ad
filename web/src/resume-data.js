// The learner's state as one string, for a course platform's suspend_data:
// the learner store's sections (learner.js) and the page's view (state.js,
// in its URL form), so a learner who comes back finds their answers and the
// page as they left it.
//
//   1{"l":{"quiz":{...},"predictions":{...}},"v":{"lang":"en","x":"1, 2"}}
//
// The leading digit is the format's version; then JSON: l the learner's
// sections, v the view's URL parameters (only those that differ from their
// defaults, as in the page's link). SCORM 1.2 keeps at most 4096 characters
// of suspend_data. The learner's sections are small and bounded by their
// checks (a few hundred characters), but the calculator's text (2000
// characters) and the prompt (256) are the reader's own and JSON may write a
// character as six, so when the string is too long the least important parts
// are left out first (DROP_ORDER), never the quiz.
export const RESUME_FORMAT = '1';
export const SCORM12_SUSPEND_DATA_MAX = 4096;

// The learner store's sections that are kept.
export const LEARNER_SECTIONS = Object.freeze(['quiz', 'walk', 'exercise', 'predictions', 'challenges']);

// What is left out first when the text is too long: the calculator's text
// (a default vector is one click away), the demo's prompt (the language's
// example prompt replaces it), the rest of the view, then the learner's
// sections other than the quiz, least important first.
export const DROP_ORDER = Object.freeze([
  'view.x',
  'view.prompt',
  'view',
  'challenges',
  'predictions',
  'exercise',
  'walk',
]);

// { text, dropped }: the encoded state within `limit` characters (UTF-16
// code units, which never undercounts characters), and the parts of
// DROP_ORDER that were left out to get there.
//   learner  the store's snapshot()
//   view     the view's URL parameters, an object of strings (viewParams)
export function encodeResume({ learner, view }, { limit = SCORM12_SUSPEND_DATA_MAX } = {}) {
  const l = {};
  for (const section of LEARNER_SECTIONS) if (learner?.[section] !== undefined) l[section] = learner[section];
  let v = { ...view };
  const dropped = [];
  const encode = () => RESUME_FORMAT + JSON.stringify(Object.keys(v).length ? { l, v } : { l });
  let text = encode();
  for (const part of DROP_ORDER) {
    if (text.length <= limit) break;
    if (part === 'view') {
      if (!Object.keys(v).length) continue;
      v = {};
    } else if (part.startsWith('view.')) {
      const param = part.slice('view.'.length);
      if (!(param in v)) continue;
      delete v[param];
    } else {
      if (!(part in l)) continue;
      delete l[part];
    }
    dropped.push(part);
    text = encode();
  }
  return { text, dropped };
}

// { learner, view } from a string encodeResume wrote, or null when it is
// empty, of another format or damaged (the learner then starts afresh).
// Each learner section is still checked by its owner when it is read.
export function decodeResume(text) {
  if (typeof text !== 'string' || !text.startsWith(`${RESUME_FORMAT}{`)) return null;
  let value;
  try {
    value = JSON.parse(text.slice(RESUME_FORMAT.length));
  } catch {
    return null;
  }
  if (!isPlainObject(value) || !isPlainObject(value.l)) return null;
  const learner = {};
  for (const section of LEARNER_SECTIONS) if (value.l[section] !== undefined) learner[section] = value.l[section];
  const view = {};
  if (isPlainObject(value.v)) {
    for (const [param, raw] of Object.entries(value.v)) if (typeof raw === 'string') view[param] = raw;
  }
  return { learner, view };
}

// A query string (state.js searchFromState) as the object encodeResume
// keeps, and back.
export const viewParams = (search) => Object.fromEntries(new URLSearchParams(search));
export const searchFromParams = (params) => `?${new URLSearchParams(params)}`;

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
