// The page's link to a course platform (lms.js): the platform hears of every
// change of the learner's state and of the view; a refusal is said once, in
// a notice, and the page carries on.
import { createLmsReporter } from '../lms.js';
import { searchFromState } from '../state.js';

// session: the connected platform (lms.js connectLms), or null on a plain
// page; notify(notice): shows a notice. Returns the reporter, or null.
export function linkLms({ session, learner, state, win, notify }) {
  if (!session) return null;
  return createLmsReporter({
    connection: session,
    store: learner,
    view: () => searchFromState(state),
    win,
    onFault: ({ element, call, code, message }) => {
      console.warn(`normlab: the course platform refused ${element ?? call} (${code} ${message})`);
      notify({ key: 'notice.lmsNotSaving' });
    },
  });
}
