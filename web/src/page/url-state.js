// The page's view in its address (state.js): read once at the start, and
// written back a moment after each repaint, so the address bar can be
// shared as it is.
import { searchFromParams } from '../resume-data.js';
import { searchFromState, stateFromSearch } from '../state.js';

const URL_WRITE_DELAY_MS = 250;

// The state to start from: the link's, or in a course the view the learner
// left (session.resume), as a reload finds it in the link. detected: the
// reader's language. Returns stateFromSearch's { state, rejected, given }.
export function readPageState({ win, session, detected }) {
  const resumed =
    session?.resume && Object.keys(session.resume.view).length ? searchFromParams(session.resume.view) : null;
  return stateFromSearch(resumed ?? win.location.search, detected);
}

// schedule(): writes the state to the address URL_WRITE_DELAY_MS after the
// last call, and then calls onWrite() (the course platform hears of it).
export function createUrlWriter({ win, state, onWrite = () => {} }) {
  let timer = null;
  return {
    schedule() {
      win.clearTimeout(timer);
      timer = win.setTimeout(() => {
        onWrite();
        const search = searchFromState(state);
        if (search === win.location.search) return;
        try {
          win.history.replaceState(null, '', `${search}${win.location.hash}`);
        } catch {
          // Some browsers refuse history changes for file:// pages; the page
          // works the same, only the address bar does not follow.
        }
      }, URL_WRITE_DELAY_MS);
    },
  };
}
