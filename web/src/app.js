// The page: one state object, one render(). Input handlers change the state
// and call render(); render() computes every figure from the state through
// the wasm kernels (compute.js) and hands the results to the widgets.
import { challengeView, initialChecks, nextChecks, paintChecks, sameSection } from './challenge-machine.js';
import { buttonText, challengeExamples, isChallengeSection } from './challenges.js';
import {
  computeSoftmax,
  computeSoftmaxView,
  computeWorkedExample,
  createCalculatorModel,
  createPlaygroundModel,
  gainView,
  trainedGainView,
} from './compute.js';
import {
  MAX_PROMPT_TOKENS,
  MODEL_SHAPE,
  PLAYGROUND_DIM,
  PLAYGROUND_SEED,
  REFERENCE_MODEL,
  SOFTMAX_L2_UNIT,
} from './constants.js';
import { createDemoController } from './demo-controller.js';
import { clearRoot } from './eps-share.js';
import { DICTIONARIES, LANGUAGE_CODES, detectLanguage } from './i18n/index.js';
import { WALK_SECTION, isWalkSection } from './course-progress.js';
import { createLearnerStore, createMemoryLearnerStore } from './learner.js';
import { createLmsReporter } from './lms.js';
import { KATEX_VERSION, typeset } from './math.js';
import { challengeFacts, exerciseFacts } from './model-facts.js';
import {
  LAB_RUNS,
  PLAYGROUND_QUESTION_STRETCH,
  SOFTMAX_QUESTION_L2,
  readPredictions,
  recordState,
  writePrediction,
} from './predictions.js';
import { isQuizSection, pickAnswer, showExplanation } from './quiz-answers.js';
import { estimateReadingMinutes, proseKeys } from './reading-time.js';
import { searchFromParams } from './resume-data.js';
import { searchFromState, stateFromSearch } from './state.js';
import { textContext } from './text-context.js';
import { createLabLoader } from './lab/loader.js';
import { createCalculator } from './widgets/calculator.js';
import { createChallenges } from './widgets/challenges.js';
import { el, setOptions } from './widgets/dom.js';
import { createExercise, isExerciseSection } from './widgets/exercise.js';
import { createForwardStrip } from './widgets/forward-strip.js';
import { createGlossary, installTermTooltips } from './widgets/glossary.js';
import { createAttentionWidget } from './widgets/attention.js';
import { createAutorunWidget } from './widgets/autorun.js';
import { createGainWidget } from './widgets/gain.js';
import { claimParams } from './claim-params.js';
import { createGradientFlow } from './widgets/gradient-flow.js';
import { createLayerBreakdown } from './widgets/layer-breakdown.js';
import { createLayerChart } from './widgets/layer-chart.js';
import { createModelControls } from './widgets/model-controls.js';
import { createPlayground } from './widgets/playground.js';
import { createQuiz } from './widgets/quiz.js';
import { createSoftmaxWidget } from './widgets/softmax.js';
import { createWorkedExample } from './widgets/worked-example.js';

// Versions of the bundled libraries, injected by web/build.mjs from their
// package.json files so the references section cannot go stale.
const LIBRARY_VERSIONS = NORMLAB_LIBRARY_VERSIONS;
// The prose keys that quote the lab's committed tables (claim-params.js).
const CLAIM_KEYS = new Set(['placement.depth', 'takeaways.two']);

// Parameters of strings that appear in the static page text.
const STATIC_PARAMS = {
  'intro.reference': REFERENCE_MODEL,
  'references.katex': { version: KATEX_VERSION },
  'references.d3': LIBRARY_VERSIONS,
  'playground.intro': { d: PLAYGROUND_DIM, seed: PLAYGROUND_SEED },
  'demo.settingsIntro': { ...MODEL_SHAPE, maxTokens: MAX_PROMPT_TOKENS },
};

const URL_WRITE_DELAY_MS = 250;
// Settings that one view alone shows: an input that changes only them
// repaints that view (app.js render()).
const ONE_VIEW = { l2: 'softmax', softmaxGrowth: 'softmax', stretch: 'playground' };

// lms: the course platform's connection (lms.js connectLms), or null on a
// plain page.
export function startPage({ loadNormlab, doc = document, win = window, extraNotices = [], lms = null }) {
  const detected = detectLanguage(win.navigator.languages?.length ? win.navigator.languages : [win.navigator.language]);
  // A learner who comes back to a course finds the view they left, as a
  // reload finds it in the link.
  const session = lms?.connected ? lms : null;
  const resumedView =
    session?.resume && Object.keys(session.resume.view).length ? searchFromParams(session.resume.view) : null;
  const { state, rejected, given } = stateFromSearch(resumedView ?? win.location.search, detected);
  const reducedMotion = Boolean(win.matchMedia?.('(prefers-reduced-motion: reduce)').matches);
  // What is not part of a shareable view and not the demo's (that is the
  // demo controller's runtime): the loaded kernels, the notes, the walk's
  // position.
  const runtime = {
    nl: null,
    backend: 'loading',
    notices: [
      ...rejected.map((r) => ({ key: 'notice.paramRejected', params: r })),
      ...extraNotices,
      // A course platform that refused the session: said once, up front.
      ...(lms && !lms.connected ? [{ key: 'notice.lmsNotSaving' }] : []),
    ],
    paintedLang: null,
    demoSeen: false,
    paintedGradients: null,
    // The calculator's last computed data (its view and the challenges').
    calculator: null,
    // The challenges' state (challenge-machine.js), the calculator result
    // it last saw, and the task button whose vector the next paint shows.
    checks: initialChecks(),
    checkedResult: null,
    pressed: null,
    // The training lab's finished runs with a norm (lab-widget.js
    // trainedRuns), newest per run id, each with a serial that changes when
    // its gains do; and which gains the learned-gain widget shows.
    labRuns: [],
    labSerial: 0,
    gainChoice: { source: 'synthetic', run: null, layer: 0, which: 'inputNorm' },
  };
  // Opt-in User Timing marks for tests/bench/page-perf.mjs.
  const timing = win.NORMLAB_TIMING === true;
  // The student's own state (learner.js: predictions, quiz answers,
  // challenges, the exercise's answer shown, the walk ended): this
  // browser's, never the URL's; in a course, the platform's (suspend_data,
  // restored before the first paint). A change repaints.
  const learner = session ? createMemoryLearnerStore() : createLearnerStore();
  if (session?.resume) learner.restore(session.resume.learner);
  learner.subscribe(() => render());
  const quizSection = () => learner.read('quiz', isQuizSection, {});
  const challengeSection = () => learner.read('challenges', isChallengeSection, {});
  // A question is asked only where the link left the view to the reader: a
  // link that set the magnitude, the stretch or the layer shows that.
  const asks = { s: !given.includes('l2'), p: !given.includes('stretch'), d: !given.includes('layer') };
  // Where the reader asked to be asked again.
  const invited = { s: false, p: false };
  const answer = (id, record, changes = {}) => {
    writePrediction(learner, id, record);
    set(changes);
  };
  const question = (id) => {
    const record = readPredictions(learner)[id];
    const state = recordState(record);
    if (state === 'none') return asks[id] || invited[id] ? { state: 'asking', guess: null, square: false } : null;
    return { state, guess: record.g ?? null, square: record.q === 1 };
  };

  const context = () => textContext(state.lang);
  const widget = (name) => doc.querySelector(`[data-widget="${name}"]`);
  const strip = createForwardStrip(widget('forward-strip'));
  const glossary = createGlossary(widget('glossary'));
  const softmax = createSoftmaxWidget(widget('softmax'), {
    onMagnitude: (l2) => set({ l2 }),
    onGrowth: (softmaxGrowth) => set({ softmaxGrowth }),
    // The reveal moves the slider to the magnitude the question was about.
    predict: {
      guess: (g) => answer('s', state.softmaxGrowth === 'square' ? { g, q: 1 } : { g }, { l2: SOFTMAX_QUESTION_L2 }),
      skip: () => answer('s', { s: 1 }),
      again: () => {
        invited.s = true;
        answer('s', null, { l2: SOFTMAX_L2_UNIT });
      },
    },
  });
  const worked = createWorkedExample(widget('worked-example'));
  const calculator = createCalculator(widget('calculator'), {
    onVector: (vector) => set({ vector }),
    onEps: (eps) => set({ eps }),
  });
  const playground = createPlayground(widget('playground'), {
    onStretch: (stretch) => set({ stretch }),
    onEps: (eps) => set({ eps }),
    predict: {
      guess: (g) => answer('p', { g }, { stretch: PLAYGROUND_QUESTION_STRETCH }),
      skip: () => answer('p', { s: 1 }),
      again: () => {
        invited.p = true;
        answer('p', null, { stretch: 1 });
      },
    },
  });
  const challenges = createChallenges(widget('challenges'), {
    // A task's button puts its vector in the calculator; the paint that
    // shows it tells the checks which button it was (updateChecks).
    press: (button) => {
      const vector = buttonText(button, state.vector);
      if (vector === null) return;
      runtime.pressed = button;
      set({ vector });
    },
    answer: (id, option) => {
      runtime.checks = nextChecks(runtime.checks, { type: 'stored', section: challengeSection() });
      runtime.checks = nextChecks(runtime.checks, { type: 'answer', id, option });
      storeChecks();
    },
  });
  const exercise = createExercise(widget('exercise'), {
    reveal: (open) => learner.write('exercise', open ? { r: 1 } : null),
  });
  const quiz = createQuiz(widget('quiz'), {
    pick: (id, option) => learner.write('quiz', pickAnswer(quizSection(), id, option)),
    showWhy: (id) => learner.write('quiz', showExplanation(quizSection(), id)),
    reset: () => learner.write('quiz', null),
  });
  const gain = createGainWidget(widget('gain'), {
    choose: (change) => {
      runtime.gainChoice = { ...runtime.gainChoice, ...change };
      render();
    },
  });
  const modelControls = createModelControls(widget('model-controls'), {
    prompt: (prompt) => set({ prompt }),
    resetPrompt: () => set({ prompt: null }),
    norm: (norm) => set({ norm }),
    placement: (placement) => set({ placement }),
    depth: (depth) => set({ depth, layer: Math.min(state.layer, depth - 1) }),
    eps: (eps) => set({ eps }),
  });
  const demo = createDemoController({
    win,
    render: () => render(),
    timing,
    walk: {
      // A link that chose a layer shows that layer; a reader who asked for
      // reduced motion steps through the walk by hand.
      startsOff: given.includes('layer'),
      manual: reducedMotion,
      depth: () => state.depth,
      onStep: (step) => {
        strip.setStage(step.stage);
        set({ layer: step.layer });
      },
      onEnd: () => {
        strip.setStage(null);
        if (learner.read(WALK_SECTION, isWalkSection) === null) learner.write(WALK_SECTION, { d: 1 });
        render();
      },
      store: learner,
      asks: () => asks.d,
      settings: () => modelSettings(),
    },
  });
  const autorun = demo.walk;
  const autorunWidget = createAutorunWidget(widget('autorun'), autorun);
  const layerChart = createLayerChart(widget('layer-chart'), {
    scale: (layerScale) => set({ layerScale }),
    predictMove: (which, value) => autorun.predictMove(which, value),
  });
  const breakdown = createLayerBreakdown(widget('layer-breakdown'), {
    layer: (layer) => {
      autorun.handOver();
      set({ layer });
    },
  });
  const attention = createAttentionWidget(widget('attention'));
  const offScreen = createOffScreenViews();
  const gradientFlow = createGradientFlow(widget('gradient-flow'), { depth: (gradDepth) => set({ gradDepth }) });
  // The training lab comes in its own script when its section nears the view.
  const lab = createLabLoader({ win, doc, root: widget('training-lab'), store: learner, onTrained: takeLabRuns });
  function takeLabRuns(runs) {
    const kept = new Map(runtime.labRuns.map((run) => [run.id, run]));
    for (const run of runs) {
      const old = kept.get(run.id);
      kept.set(run.id, old && old.gains === run.gains ? old : { ...run, serial: ++runtime.labSerial });
    }
    runtime.labRuns = LAB_RUNS.filter((id) => kept.has(id)).map((id) => kept.get(id));
    render();
  }
  const computeCalculator = createCalculatorModel();
  const computePlayground = createPlaygroundModel();

  // Views far from the screen are not painted in the frame of an input that
  // changed them (a keystroke, a depth step, a walk step): each keeps its
  // newest data and is painted when it comes near the screen, or in the
  // page's next idle time, whichever is first, so it is right when it
  // scrolls in and a moment after any change. A language change paints it
  // at once. Without IntersectionObserver every view paints in the frame.
  function createOffScreenViews() {
    const views = new Map();
    const sections = new Map();
    const observer =
      'IntersectionObserver' in win &&
      new win.IntersectionObserver(
        (entries) => {
          let arrived = false;
          for (const entry of entries) {
            const view = sections.get(entry.target);
            view.near = entry.isIntersecting;
            if (view.near && view.pending) arrived = true;
          }
          if (arrived) render();
        },
        { rootMargin: '50% 0px' },
      );
    let idle = null;
    const request = win.requestIdleCallback
      ? (fn) => win.requestIdleCallback(fn, { timeout: 250 })
      : (fn) => win.setTimeout(fn, 50);
    function paintPending() {
      idle = null;
      for (const [node, view] of views) {
        if (!view.pending) continue;
        const paint = view.pending;
        view.pending = null;
        guarded(node.dataset.widget, paint, 'offscreen');
      }
    }
    return {
      // Paints now when the view is near the screen (or must, `now`), else
      // keeps `paint` for later; inputs: what the view shows (nothing is
      // kept when they are those it shows).
      paint(name, inputs, paint, now) {
        const node = widget(name);
        if (observer && !views.has(node)) {
          views.set(node, { near: true, pending: null, shown: [] });
          // The observer watches the view's section: the browser skips the
          // rendering of a section off screen (content-visibility), and with
          // it the intersections of what is inside.
          const section = node.closest('.demo-part') ?? node;
          sections.set(section, views.get(node));
          observer.observe(section);
        }
        const view = views.get(node);
        if (!view || view.near || now) {
          if (view) Object.assign(view, { pending: null, shown: inputs });
          guarded(name, paint);
          return;
        }
        if (inputs.every((input, i) => input === view.shown[i])) {
          view.pending = null;
          return;
        }
        view.pending = () => {
          view.shown = inputs;
          paint();
        };
        idle ??= request(paintPending);
      },
    };
  }

  // The walk starts the first time the chart comes into view, once the model
  // can fill it.
  if ('IntersectionObserver' in win) {
    const observer = new win.IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        runtime.demoSeen = true;
        if (runtime.nl) autorun.firstView();
      },
      { threshold: 0.25 },
    );
    observer.observe(widget('layer-chart'));
  } else runtime.demoSeen = true;

  const langSelect = doc.getElementById('lang-select');
  const themeSelect = doc.getElementById('theme-select');
  const backendOut = doc.getElementById('backend');
  const notices = doc.getElementById('notices');
  const readingTime = doc.getElementById('reading-time');
  langSelect.addEventListener('change', () => set({ lang: langSelect.value }));
  themeSelect.addEventListener('change', () => set({ theme: themeSelect.value }));
  installTermTooltips(doc);
  for (const node of doc.querySelectorAll('[data-tex]')) typeset(node, node.dataset.tex, { display: true });

  function set(changes) {
    Object.assign(state, changes);
    const keys = Object.keys(changes);
    const view = ONE_VIEW[keys[0]];
    // A backward pass put off by the input is scheduled again by the whole
    // repaint's gradient views.
    const putOff = demo.input();
    render(!putOff && keys.every((key) => ONE_VIEW[key] === view) ? view : null);
  }

  // Repaints coalesce into one per frame, however many inputs fire. An
  // input that only one view shows (ONE_VIEW) repaints that view alone,
  // unless something else asked for the whole page in the same frame.
  let frameRequested = false;
  let frameScope = null;
  function render(scope = null) {
    if (frameRequested) {
      if (frameScope !== scope) frameScope = null;
      return;
    }
    frameRequested = true;
    frameScope = scope;
    win.requestAnimationFrame(() => {
      frameRequested = false;
      if (frameScope === null) paint();
      else paintOne(frameScope);
    });
  }

  // A view is repainted only when what it shows changed: most inputs touch
  // one widget, and rewriting the others' text would cost a page-wide style
  // and layout pass on every slider move.
  const paintedInputs = new Map();
  function changed(name, inputs) {
    const signature = JSON.stringify(inputs);
    if (paintedInputs.get(name) === signature) return false;
    paintedInputs.set(name, signature);
    return true;
  }

  function paint() {
    const paintStart = win.performance.now();
    const ctx = context();
    const root = doc.documentElement;
    const languageChanged = runtime.paintedLang !== state.lang;
    if (root.lang !== state.lang) root.lang = state.lang;
    if (root.dataset.theme !== state.theme) root.dataset.theme = state.theme;
    if (languageChanged) paintStaticText(doc, ctx);

    const nl = runtime.nl;
    const loaded = runtime.backend;
    if (changed('toolbar', [state.lang, state.theme, loaded])) {
      setOptions(
        langSelect,
        LANGUAGE_CODES.map((code) => [code, DICTIONARIES[code].meta.langName]),
        state.lang,
      );
      for (const option of langSelect.options) option.lang = option.value;
      setOptions(
        themeSelect,
        [
          ['auto', ctx.t('toolbar.themeAuto')],
          ['light', ctx.t('toolbar.themeLight')],
          ['dark', ctx.t('toolbar.themeDark')],
        ],
        state.theme,
      );
      backendOut.dataset.backend = runtime.backend;
      backendOut.textContent =
        runtime.backend === 'loading'
          ? ctx.t('toolbar.backendLoading')
          : runtime.backend === 'failed'
            ? ctx.t('toolbar.backendFailed')
            : runtime.backend;
    }
    if (changed('notices', [state.lang, runtime.notices])) paintNotices(ctx);

    if (changed('strip', [state.lang]))
      guarded('strip', () => strip.update({ t: ctx.t, layers: REFERENCE_MODEL.layers }));
    if (changed('glossary', [state.lang])) guarded('glossary', () => glossary.update(ctx));
    const predictions = readPredictions(learner);
    paintSoftmax(nl, ctx, predictions);
    if (changed('worked example', [state.lang, loaded]))
      guarded('worked example', () => worked.update(nl && computeWorkedExample(nl), ctx));
    if (changed('calculator', [state.lang, loaded, state.vector, state.eps])) {
      runtime.calculator = nl
        ? computeCalculator(nl, state.vector, state.eps)
        : { text: state.vector, eps: state.eps, error: null, result: null };
      guarded('calculator', () => calculator.update(runtime.calculator, ctx));
    }
    paintPlayground(nl, ctx, predictions);
    const view = paintModelViews(nl, ctx);
    guarded('training lab', () => lab.update({ lang: state.lang, nl }));
    paintLessons(nl, view, ctx);

    if (languageChanged) {
      runtime.paintedLang = state.lang;
      const prose = proseKeys(doc).map((key) => ctx.t(key, staticParams(key, state.lang)));
      readingTime.textContent = ctx.t('intro.readingTime', { minutes: estimateReadingMinutes(prose, state.lang) });
    }
    scheduleUrlWrite();
    if (timing) win.performance.measure('normlab:paint', { start: paintStart, end: win.performance.now() });
  }

  function paintSoftmax(nl, ctx, predictions) {
    if (changed('softmax', [state.lang, runtime.backend, state.l2, state.softmaxGrowth, predictions.s, invited.s])) {
      guarded('softmax', () => softmax.update(nl && softmaxData(nl), ctx));
    }
  }

  function paintPlayground(nl, ctx, predictions) {
    if (changed('playground', [state.lang, runtime.backend, state.stretch, state.eps, predictions.p, invited.p])) {
      guarded('playground', () =>
        playground.update(nl && { ...computePlayground(nl, state.stretch, state.eps), question: question('p') }, ctx),
      );
    }
  }

  // The frame of an input only one view shows: that view, and the link.
  function paintOne(view) {
    const paintStart = win.performance.now();
    const paintView = view === 'softmax' ? paintSoftmax : paintPlayground;
    paintView(runtime.nl, context(), readPredictions(learner));
    scheduleUrlWrite();
    if (timing) win.performance.measure('normlab:paint', { start: paintStart, end: win.performance.now() });
  }

  // The softmax widget's data, with the question's values.
  function softmaxData(nl) {
    const growth = state.softmaxGrowth;
    // A guess is revealed with the scores growing the way they did when it
    // was made.
    const asked = question('s');
    const askedGrowth = asked?.state === 'asking' ? growth : asked?.square ? 'square' : 'linear';
    const at = asked && computeSoftmax(nl, SOFTMAX_QUESTION_L2, askedGrowth);
    return {
      ...computeSoftmaxView(nl, state.l2, growth),
      question: asked && {
        ...asked,
        l2: SOFTMAX_QUESTION_L2,
        scale: at.scale,
        maxProb: at.maxProb,
        base: computeSoftmax(nl, SOFTMAX_L2_UNIT, askedGrowth).maxProb,
      },
    };
  }

  // The demo panel's settings as the model takes them; the prompt's default
  // is the page language's example prompt.
  function modelSettings() {
    const prompt = state.prompt ?? ctxPrompt();
    return { prompt, norm: state.norm, placement: state.placement, depth: state.depth, eps: state.eps };
  }
  function ctxPrompt() {
    return context().t('model.defaultPrompt');
  }
  function gradientSettings(settings) {
    return { prompt: settings.prompt, norm: settings.norm, eps: settings.eps, depth: state.gradDepth };
  }

  // The learned-gain widget's data: the reader's choice as far as it can be
  // met (the trained source needs a finished lab run), the lab's runs, and
  // the gains it shows.
  function gainData(nl, view, settings) {
    const runs = runtime.labRuns;
    const wanted = runtime.gainChoice;
    if (wanted.source === 'trained' && runs.length > 0 && nl) {
      const run = runs.find((r) => r.id === wanted.run) ?? runs[0];
      const layer = Math.min(wanted.layer, run.gains.layers.length - 1);
      const choice = { ...wanted, run: run.id, layer };
      return { choice, runs, gains: trainedGainView(nl, run, layer, wanted.which) };
    }
    const choice = { ...wanted, source: 'synthetic' };
    return { choice, runs, gains: nl && view ? gainView(demo.gains(nl, settings), view) : null };
  }

  function paintModelViews(nl, ctx) {
    const settings = modelSettings();
    let forward = null;
    let gradients = { busy: false, result: null };
    if (nl) {
      guarded('model', () => {
        forward = demo.forward(nl, settings);
      });
      gradients = demo.gradients(nl, gradientSettings(settings));
    }
    const view = forward?.view ?? null;
    const layer = Math.min(state.layer, (view?.layers ?? state.depth) - 1);
    guarded('model settings', () =>
      modelControls.update({ settings, isDefaultPrompt: state.prompt === null, forward }, ctx),
    );
    guarded('learned gain', () => gain.update(gainData(nl, view, settings), ctx));
    const walk = autorun.view(view);
    guarded('auto-run', () => autorunWidget.update({ ...walk, depth: state.depth, reducedMotion, view }, ctx));
    guarded('layer chart', () => layerChart.update({ view, layer, scale: state.layerScale, walk }, ctx));
    guarded('layer breakdown', () => breakdown.update({ view, layer, depth: state.depth }, ctx));
    offScreen.paint(
      'attention',
      [view, layer, state.lang],
      () => attention.update({ view, layer }, ctx),
      runtime.paintedLang !== state.lang,
    );
    guarded('gradient flow', () => gradientFlow.update({ depth: state.gradDepth, ...gradients }, ctx));
    if (timing && gradients.result && runtime.paintedGradients !== gradients.result) {
      win.performance.measure('normlab:gradient-views', {
        start: demo.runtime.gradients.inputAt,
        end: win.performance.now(),
      });
    }
    runtime.paintedGradients = gradients.result;
    if (nl) demo.idle();
    return view;
  }

  // The views of the student's own work: the calculator's challenges, the
  // exercise's model answer and the quiz. They read the learner store and
  // quote the demo panel's forward view.
  function paintLessons(nl, view, ctx) {
    const loaded = runtime.backend;
    const facts = challengeFacts(view);
    guarded('challenge checks', updateChecks);
    const checks = runtime.checks;
    if (changed('challenges', [state.lang, loaded, state.eps, checks.revision, facts])) {
      guarded('challenges', () => {
        const items = challengeView(checks, nl && challengeExamples(nl, state.eps));
        const data = { items, section: checks.section, facts, loaded: Boolean(nl), least: clearRoot(state.eps) };
        challenges.update(data, ctx);
      });
    }
    const exerciseOpen = learner.read('exercise', isExerciseSection) !== null;
    const exerciseData = exerciseFacts(view);
    if (changed('exercise', [state.lang, exerciseOpen, exerciseData])) {
      guarded('exercise', () => exercise.update({ facts: exerciseData, open: exerciseOpen }, ctx));
    }
    const answers = quizSection();
    if (changed('quiz', [state.lang, answers])) {
      const claims = claimParams(state.lang);
      const q2 = { ...claims, learned: claims.postLearned, stalled: claims.postStalled };
      guarded('quiz', () => quiz.update(answers, ctx, { q2, q6: claims }));
    }
  }

  // The checks see the store and the calculator (challenge-machine.js
  // paintChecks); what they complete is written back to the store, whose
  // change repaints.
  function updateChecks() {
    const { checks, seen } = paintChecks(runtime.checks, {
      section: challengeSection(),
      calculator: runtime.calculator,
      pressed: runtime.pressed,
      seen: runtime.checkedResult,
    });
    runtime.checks = checks;
    runtime.checkedResult = seen;
    runtime.pressed = null;
    storeChecks();
  }

  function storeChecks() {
    if (!sameSection(challengeSection(), runtime.checks.section)) learner.write('challenges', runtime.checks.section);
  }

  // One failing view must not take the others down; the error still
  // reaches the console, where the browser tests look for it.
  // kind: 'view' in render()'s pass, 'offscreen' for an off-screen view
  // painted later (its timing measure's name).
  function guarded(name, fn, kind = 'view') {
    const start = timing ? win.performance.now() : 0;
    try {
      fn();
    } catch (error) {
      console.error(`normlab: the ${name} view failed:`, error);
    }
    if (timing) win.performance.measure(`normlab:${kind}:${name}`, { start, end: win.performance.now() });
  }

  function paintNotices(ctx) {
    notices.replaceChildren(
      ...runtime.notices.map((notice, index) => {
        const box = el('div', { className: 'notice', role: 'status' });
        const text = el('p', { textContent: ctx.t(notice.key, notice.params) });
        const dismiss = el('button', {
          type: 'button',
          className: 'button-quiet',
          textContent: ctx.t('notice.dismiss'),
        });
        dismiss.addEventListener('click', () => {
          runtime.notices.splice(index, 1);
          render();
        });
        box.append(text, dismiss);
        return box;
      }),
    );
  }

  let urlTimer = null;
  function scheduleUrlWrite() {
    win.clearTimeout(urlTimer);
    urlTimer = win.setTimeout(() => {
      reporter?.viewChanged();
      const search = searchFromState(state);
      if (search === win.location.search) return;
      try {
        win.history.replaceState(null, '', `${search}${win.location.hash}`);
      } catch {
        // Some browsers refuse history changes for file:// pages; the page
        // works the same, only the address bar does not follow.
      }
    }, URL_WRITE_DELAY_MS);
  }

  // The platform hears of every change of the learner's state; a refusal is
  // said once, and the page carries on.
  const reporter =
    session &&
    createLmsReporter({
      connection: session,
      store: learner,
      view: () => searchFromState(state),
      win,
      onFault: ({ element, call, code, message }) => {
        console.warn(`normlab: the course platform refused ${element ?? call} (${code} ${message})`);
        runtime.notices.push({ key: 'notice.lmsNotSaving' });
        render();
      },
    });

  paint();
  const load =
    typeof loadNormlab === 'function'
      ? loadNormlab({ backend: state.backend })
      : Promise.reject(new Error('normlab.js did not load'));
  load.then(
    (nl) => {
      runtime.nl = nl;
      runtime.backend = nl.backend;
      render();
      if (runtime.demoSeen) autorun.firstView();
    },
    (error) => {
      runtime.backend = 'failed';
      runtime.notices.push({ key: 'notice.wasmFailed', params: { reason: error.message } });
      render();
    },
  );

  return { state, render, setStage: strip.setStage };
}

// The parameters a static string of the page is filled with.
function staticParams(key, lang) {
  if (CLAIM_KEYS.has(key)) return claimParams(lang);
  return STATIC_PARAMS[key] ?? { layers: REFERENCE_MODEL.layers };
}

function paintStaticText(doc, ctx) {
  doc.title = ctx.t('meta.title');
  for (const node of doc.querySelectorAll('[data-i18n]')) {
    const key = node.dataset.i18n;
    ctx.rich(node, key, staticParams(key, ctx.lang));
  }
  for (const node of doc.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      node.setAttribute(attr, ctx.t(key, STATIC_PARAMS[key]));
    }
  }
}
