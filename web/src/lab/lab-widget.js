// The training lab: a real model trained in the tab, pre-norm against
// post-norm with and without warmup (or, at the reader's choice, the
// normalization choices of current models beside them), on the page's own
// prose in the reader's language. The reader guesses which of the chapter's
// runs will learn, starts the contrast, and watches each run's loss, its
// first/last-layer gradient ratio, its first/last-layer update ratio and its
// largest attention logit step by step, the first against two reference
// lines computed from the text; every run's stream layer by layer before
// and after training; then a chosen run's own "L2/tok
// across layers" (the demo panel's chart for the model trained here)
// before and after training; what each model writes and expects next; when
// the runs end, a reading worded from their numbers and from the committed
// tables' other seeds. Below, the committed sweep as a map of cells (a
// pressed cell trains its seed-1 run here) and as each run's learning-rate
// window. The lab keeps its settings to itself (they are not part of the
// page's shareable view) and its guess in the learner store.
//
// mountLab(root, { win, doc, store, onTrained }) -> { update({ lang, nl }) }:
// the page calls update() on every paint; the lab repaints itself while it
// trains. Each time a run ends with a norm, onTrained(runs) gets every run of
// the contrast that has (trainedRuns below): the page shows their gains
// elsewhere; the lab knows nothing of where.
//
// The lab is the list of panels in panels/index.js, each in a file of its
// own (what a panel is, is written there). mountLab builds each panel's DOM
// in the list's order, holds the state they share (the runner, the reader's
// settings, the page's view) and the actions their events call, and on each
// repaint gives every panel the inputs it reads.
import { integer } from '../format.js';
import { readPredictions, recordState, writePrediction } from '../predictions.js';
import { createCheckpointStore } from './checkpoints.js';
import { PANELS } from './panels/index.js';
import { createRepaint } from './repaint.js';
import { createLabRunner } from './runner.js';
import { LAB_DEFAULTS, LAB_MIN_TEXT_BYTES, LAB_SAMPLE, labSteps, runOptions, samplePrompt, utf8Bytes } from './runs.js';
import { labText } from './text.js';
import { LAB_TEXTS } from './texts.js';

// A paint while runs train stops after this many milliseconds (at a panel's
// end), to go on in the next frame.
const PAINT_BUDGET_MS = 6;

export function mountLab(root, { win = window, doc = document, store = null, onTrained = null } = {}) {
  const steps = labSteps(win);
  const settings = { ...LAB_DEFAULTS, runs: [...LAB_DEFAULTS.runs] };
  let view = { lang: null, nl: null };
  let text = labText('en');

  // One paint per frame, while training one per REPAINT_MS (repaint.js);
  // opt-in User Timing measures for tests/bench/page-perf.mjs, as the page's.
  const timing = win.NORMLAB_TIMING === true;
  const requestPaint = createRepaint({
    win,
    paint,
    busy: () => runner.state.phase === 'running',
    measure: win.NORMLAB_TIMING === true ? 'normlab:lab-paint' : null,
  });
  let published = 0;
  // The contrast an earlier page saved (checkpoints.js), offered until the
  // reader goes on from it, forgets it or starts another; null when none.
  const checkpoints = createCheckpointStore(win);
  let saved = null;
  checkpoints.load().then(
    (found) => {
      if (found === null || runner.state.phase !== 'idle') return;
      saved = found;
      requestPaint(true);
    },
    () => {},
  );
  const runner = createLabRunner({
    win,
    doc,
    store: checkpoints,
    onChange: () => {
      requestPaint(false);
      publishTrained();
    },
  });
  function publishTrained() {
    const runs = trainedRuns(runner.state.runs);
    if (runs.length === published) return;
    published = runs.length;
    if (runs.length && onTrained) onTrained(runs);
  }

  // Settings change between contrasts: before a start, or after the runs
  // ended (the results stay until the next start).
  const editable = () => runner.state.phase === 'idle' || runner.state.phase === 'done';
  const guessRecord = () => readPredictions(store).l ?? null;
  const canStart = (contrast) => editable() && recordState(guessRecord()) !== 'none' && !problemOf(contrast);

  // The lab's actions, which the panels' events call.
  const lab = {
    doc,
    win,
    root,
    settings,
    change(changes) {
      if (!editable()) return;
      Object.assign(settings, changes);
      requestPaint(true);
    },
    guess(record) {
      writePrediction(store, 'l', record);
      requestPaint(true);
    },
    // contrast: the settings its runs are made from (by default the
    // reader's); cell: the map cell they come from, or null.
    start(contrast = { ...settings, runs: [...settings.runs] }, cell = null) {
      if (!view.nl || !canStart(contrast)) return;
      saved = null;
      const { bytes, temperature, seed: sampleSeed } = LAB_SAMPLE;
      const lang = text.lang;
      runner.start(
        view.nl,
        contrast.runs.map((id) => ({ id, options: runOptions(id, contrast, steps, LAB_TEXTS[lang]) })),
        steps,
        {
          prompt: samplePrompt(contrast, lang),
          bytes,
          temperature,
          seed: sampleSeed,
          // The language of the text the models learn from, for the samples.
          lang: contrast.text === null ? lang : null,
        },
        contrast,
        cell,
      );
    },
    pauseOrResume: () => (runner.state.phase === 'paused' ? runner.resume() : runner.pause()),
    reset: () => runner.reset(),
    resumeSaved() {
      if (!view.nl || saved === null || runner.state.phase !== 'idle') return;
      const from = saved;
      saved = null;
      runner.resumeSaved(view.nl, from);
    },
    forgetSaved() {
      if (saved !== null) {
        saved = null;
        checkpoints.clear().catch(() => {});
        requestPaint(true);
      } else runner.forgetSaved();
    },
    requestPaint,
    // A page language's committed training text.
    languageText: (lang) => LAB_TEXTS[lang],
  };

  // What the panels paint from; each takes the ones it reads.
  function inputs() {
    const record = guessRecord();
    const problem = problemOf(settings);
    return {
      // The lab's strings in the page's language: { lang, t, list }.
      text,
      // The loaded module, or null until it loads.
      nl: view.nl,
      // The runner's state: phase, runs, current, steps, rate, settings, cell.
      state: runner.state,
      // The reader's settings, the next contrast's.
      settings,
      // Steps per run (fewer at the test-only speed).
      steps,
      // The reader's guess as the learner store keeps it, or null.
      record,
      editable: editable(),
      // Why the reader's settings make no contrast ({ key, params }), or null.
      problem,
      canStart: editable() && recordState(record) !== 'none' && !problem,
      // () -> the steps the contrast has left.
      stepsLeft: runner.stepsLeft,
      // The contrast an earlier page saved (checkpoints.js), or null.
      saved,
    };
  }

  const parts = PANELS.map((panel) => panel.create(lab));
  root.replaceChildren(...parts.flatMap((part) => part.nodes));
  root.classList.add('lab');

  // While runs train, a paint that is not a reader's doing stops after the
  // panel that takes it past PAINT_BUDGET_MS, and the next frame goes on
  // from the panel after it (repaint.js), so no frame holds the page up.
  let cursor = 0;
  function paint(forced) {
    const all = inputs();
    const sliced = !forced && all.state.phase === 'running';
    const start = win.performance.now();
    const count = PANELS.length;
    let more = false;
    for (let done = 0, i = sliced ? cursor : 0; done < count; done++, i = (i + 1) % count) {
      const t = win.performance.now();
      PANELS[i].paint(parts[i], inputsRead(PANELS[i], all));
      if (timing)
        win.performance.measure(`normlab:lab-panel:${PANELS[i].name}`, { start: t, end: win.performance.now() });
      if (sliced && done < count - 1 && win.performance.now() - start > PAINT_BUDGET_MS) {
        cursor = (i + 1) % count;
        more = true;
        break;
      }
    }
    if (!more) cursor = 0;
    root.dataset.phase = all.state.phase;
    // How the runs train: 'workers' or 'slices' (runner.js), for tests.
    if (all.state.engine) root.dataset.engine = all.state.engine;
    return more;
  }

  return {
    // The page's language and the loaded module (null until it loads).
    update({ lang, nl }) {
      if (lang === view.lang && nl === view.nl) return;
      view = { lang, nl };
      text = labText(lang);
      requestPaint(true);
    },
  };
}

// The inputs a panel reads, and only those; a name the lab does not
// provide is a mistake in the panel.
function inputsRead(panel, all) {
  const read = {};
  for (const name of panel.reads) {
    if (!(name in all)) throw new Error(`lab panel "${panel.name}" reads "${name}", which the lab does not provide`);
    read[name] = all[name];
  }
  return read;
}

// Why settings make no contrast the trainer takes ({ key, params }), or null.
function problemOf(contrast) {
  if (!contrast.runs.length) return { key: 'noRuns' };
  if (contrast.text !== null && utf8Bytes(contrast.text) < LAB_MIN_TEXT_BYTES) {
    return {
      key: 'textTooShort',
      params: { bytes: integer(utf8Bytes(contrast.text)), min: integer(LAB_MIN_TEXT_BYTES) },
    };
  }
  return null;
}

// The runs that ended (done or diverged) with a norm's gains, as plain data:
// { id, options: the trainer's options but the text, steps trained,
// diverged, gains: runner.js plainGains, normOut: each norm's output L2 per
// token, layer by layer, measured on the held-out window after training }.
export function trainedRuns(runs) {
  return runs
    .filter((run) => run.gains && (run.status === 'done' || run.status === 'diverged'))
    .map((run) => {
      const { text: _text, ...options } = run.options;
      const norms = run.layerNorms.after?.norms ?? null;
      return {
        id: run.id,
        options,
        steps: run.loss.length,
        diverged: run.status === 'diverged',
        gains: run.gains,
        normOut: norms && Object.fromEntries(Object.entries(norms).map(([name, n]) => [name, n.out])),
      };
    });
}
