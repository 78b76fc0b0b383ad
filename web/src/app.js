// The page: one state object, one render(), a list of panels
// (panels/panel-list.js). Input handlers change the state and call
// render(); each repaint walks the list, and every panel whose inputs
// changed paints itself from the state through the wasm kernels
// (compute.js) and its widgets.
import { detectLanguage, hasDictionary } from './i18n/index.js';
import { loadDictionary } from './i18n/load.js';
import { createLearnerStore, createMemoryLearnerStore } from './learner.js';
import { readPredictions } from './predictions.js';
import { textContext } from './text-context.js';
import { createLabLoader } from './lab/loader.js';
import { loadKernels } from './page/kernels.js';
import { linkLms } from './page/lms-link.js';
import { createQuestions } from './page/questions.js';
import { createUrlWriter, readPageState } from './page/url-state.js';
import calculator from './panels/calculator.js';
import { challengeChecks, challenges } from './panels/challenges.js';
import demo from './panels/demo.js';
import exercise from './panels/exercise.js';
import forwardStrip from './panels/forward-strip.js';
import glossary from './panels/glossary.js';
import notices from './panels/notices.js';
import { createPanelList } from './panels/panel-list.js';
import playground from './panels/playground.js';
import quiz from './panels/quiz.js';
import { createScheduler } from './panels/schedule.js';
import softmax from './panels/softmax.js';
import staticText from './panels/static-text.js';
import toolbar from './panels/toolbar.js';
import variantResults from './panels/variant-results.js';
import { trainingLabPanel } from './panels/training-lab.js';
import workedExample from './panels/worked-example.js';

// The page's panels, in the order they are created and painted: a panel
// reads what those before it left (the calculator's result, the demo
// panel's forward view).
const PANELS = [
  staticText,
  toolbar,
  notices,
  forwardStrip,
  glossary,
  softmax,
  workedExample,
  calculator,
  playground,
  demo,
  trainingLabPanel(createLabLoader),
  variantResults,
  challengeChecks,
  challenges,
  exercise,
  quiz,
];

// How many panels of the list build() does first: those at the top of the
// page, through the forward strip.
const FIRST_SCREEN = PANELS.indexOf(forwardStrip) + 1;

// Settings that one view alone shows: an input that changes only them
// repaints that panel.
const ONE_VIEW = { l2: 'softmax', softmaxGrowth: 'softmax', stretch: 'playground' };

// lms: the course platform's connection (lms.js connectLms), or null on a
// plain page.
export function startPage({ loadNormlab, doc = document, win = window, extraNotices = [], lms = null }) {
  const detected = detectLanguage(win.navigator.languages?.length ? win.navigator.languages : [win.navigator.language]);
  const session = lms?.connected ? lms : null;
  const { state, rejected, given } = readPageState({ win, session, detected });
  // What is not part of a shareable view: the loaded kernels and the notes.
  const runtime = {
    nl: null,
    backend: 'loading',
    // What the toolbar's badge says: the backend once the views it computes
    // are painted.
    badge: 'loading',
    notices: [
      ...rejected.map((r) => ({ key: 'notice.paramRejected', params: r })),
      ...extraNotices,
      // A course platform that refused the session: said once, up front.
      ...(lms && !lms.connected ? [{ key: 'notice.lmsNotSaving' }] : []),
    ],
  };
  // Opt-in User Timing marks for tests/bench/page-perf.mjs.
  const timing = win.NORMLAB_TIMING === true;
  const measure = (name, start) => timing && win.performance.measure(name, { start, end: win.performance.now() });
  // The student's own state (learner.js: predictions, quiz answers,
  // challenges, the exercise's answer shown, the walk ended): this
  // browser's, never the URL's; in a course, the platform's (suspend_data,
  // restored before the first paint). A change repaints.
  const learner = session ? createMemoryLearnerStore() : createLearnerStore();
  if (session?.resume) learner.restore(session.resume.learner);
  learner.subscribe(() => render());

  const scheduler = createScheduler({
    win,
    paint,
    measure: (name, start, kind) => measure(`normlab:${kind}:${name}`, start),
  });
  const render = scheduler.request;
  // An input: the demo controller hears of it (a backward pass put off by it
  // is scheduled again by the whole repaint's gradient views); an input that
  // only one view shows (ONE_VIEW) repaints that view alone.
  function set(changes) {
    Object.assign(state, changes);
    const keys = Object.keys(changes);
    const view = ONE_VIEW[keys[0]];
    // Before the demo panel is built there is no controller to tell.
    const putOff = panels.get('demo')?.input() ?? false;
    render(!putOff && keys.every((key) => ONE_VIEW[key] === view) ? view : null);
  }
  // A change the demo panel already told its controller of.
  function change(changes) {
    Object.assign(state, changes);
    render();
  }
  // One failing view must not take the others down; the error still
  // reaches the console, where the browser tests look for it.
  function guard(name, fn) {
    const start = timing ? win.performance.now() : 0;
    try {
      fn();
    } catch (error) {
      console.error(`normlab: the ${name} view failed:`, error);
    }
    measure(`normlab:view:${name}`, start);
  }
  const questions = createQuestions({ learner, given, set });
  const panels = createPanelList(
    PANELS,
    {
      win,
      doc,
      state,
      given,
      learner,
      questions,
      notices: runtime.notices,
      timing,
      scheduler,
      widget: (name) => doc.querySelector(`[data-widget="${name}"]`),
      set,
      change,
      render,
      guard,
    },
    { deferred: true },
  );
  const notify = (notice) => {
    runtime.notices.push(notice);
    render();
  };
  const reporter = linkLms({ session, learner, state, win, notify });
  const url = createUrlWriter({ win, state, onWrite: () => reporter?.viewChanged() });

  // A frame made while the reader's new language is still loading (the
  // kernels' first paint, which runs over several tasks) paints in the
  // language shown; paint() repaints it once the dictionary is here.
  let shownLang = state.lang;
  const frameLang = () => (hasDictionary(state.lang) ? state.lang : shownLang);
  function makeFrame() {
    const root = doc.documentElement;
    const lang = frameLang();
    if (root.lang !== lang) root.lang = lang;
    if (root.dataset.theme !== state.theme) root.dataset.theme = state.theme;
    return {
      nl: runtime.nl,
      backend: runtime.backend,
      badge: runtime.badge,
      state,
      ctx: textContext(lang),
      predictions: readPredictions(learner),
      questions,
      view: null,
    };
  }
  // A frame: every panel built so far (scope null), or the one panel named.
  // A language whose dictionary is not here yet (index.js) is painted once it
  // is; should it fail to load, the page stays in the language it shows.
  function paint(scope) {
    if (!hasDictionary(state.lang)) {
      loadDictionary(state.lang, doc).then(
        () => render(),
        (error) => {
          console.error(`normlab: ${error.message}`);
          state.lang = shownLang;
          render();
        },
      );
      return;
    }
    shownLang = state.lang;
    const paintStart = win.performance.now();
    panels.paint(makeFrame(), scope && [scope]);
    url.schedule();
    measure('normlab:paint', paintStart);
  }

  // The panels are created and first painted over several tasks
  // (panel-list.js build()), none in the task that ran the page's script,
  // a few milliseconds at a time: the top of the page first (the header and
  // toolbar, the notices, the introduction with its forward strip), then the
  // rest, so that on a phone no task holds the page for its whole length. Once every panel
  // is built, <html> gets data-built (the browser tests wait for it) and a
  // whole repaint shows whatever changed meanwhile.
  // A link to a section (#id): the browser scrolled to it before the
  // sections above it were built; it is scrolled to again once they are and
  // once the computed views are painted, unless the reader moved meanwhile.
  const land = anchorLanding(win, doc);
  const buildStart = win.performance.now();
  // The page language's dictionary comes first (loaded while the kernels
  // load, in a script of its own: index.js).
  const built = loadDictionary(state.lang, doc)
    .then(() => panels.build(makeFrame(), FIRST_SCREEN))
    .then(() => {
      measure('normlab:build', buildStart);
      doc.documentElement.dataset.built = '';
      land();
      render();
    });
  // The kernels' first paint waits for the panels and then for the demo
  // panel's first forward pass, run in slices of a few layers per task
  // (demo-panel.js prepare()); it then paints the views a few per task
  // (paintSliced), and only then does the badge leave 'loading', so no task
  // holds the page for the whole stack or the whole page.
  loadKernels(loadNormlab, state.backend).then(
    async (nl) => {
      await built;
      await panels.get('demo').prepare(nl, textContext(frameLang()));
      runtime.nl = nl;
      runtime.backend = nl.backend;
      // Every view changes: painted a few of them per task, and then the
      // badge.
      await panels.paintSliced(makeFrame());
      runtime.badge = nl.backend;
      render();
      win.requestAnimationFrame(land);
      measureSections(win, doc).then(land);
    },
    async (error) => {
      await built;
      runtime.backend = 'failed';
      runtime.badge = 'failed';
      notify({ key: 'notice.wasmFailed', params: { reason: error.message } });
    },
  );

  return { state, render, setStage: (...args) => panels.get('forward-strip').setStage(...args) };
}

// Scrolls the page to the element the URL's fragment names, when called,
// unless the reader scrolled, clicked or typed since the page started.
function anchorLanding(win, doc) {
  let id = '';
  try {
    id = decodeURIComponent(win.location.hash.slice(1));
  } catch {
    return () => {};
  }
  if (!id) return () => {};
  let moved = false;
  const stop = () => (moved = true);
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
    win.addEventListener(type, stop, { once: true, passive: true, capture: true });
  }
  return () => {
    if (!moved) doc.getElementById(id)?.scrollIntoView();
  };
}

// The sections the browser skips while off screen (content-visibility: auto,
// sections.css) keep the size they last had when rendered, or a placeholder's
// if never: each is rendered once, one per frame, so that every section keeps
// its own size and the page does not jump as a reader scrolls past them.
// <html> then gets data-measured (tests that scroll to a view wait for it).
async function measureSections(win, doc) {
  const frame = () => new Promise((resolve) => win.requestAnimationFrame(() => resolve()));
  for (const section of doc.querySelectorAll('.chapter > section, .demo-part')) {
    section.classList.add('measuring');
    await frame();
    await frame();
    section.classList.remove('measuring');
  }
  doc.documentElement.dataset.measured = '';
}
