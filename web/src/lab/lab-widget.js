// The training lab: a real model trained in the tab, pre-norm against
// post-norm with and without warmup, on the page's own prose in the
// reader's language. The reader guesses which runs will learn, starts the
// contrast, and watches each run's loss, its first/last-layer gradient
// ratio and its first/last-layer update ratio step by step, against two
// reference lines computed from the text; then a chosen run's own "L2/tok
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
import { drawLineChart } from '../charts/line-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { createLegend } from '../charts/legend.js';
import { decimals, fixed, integer, significant } from '../format.js';
import { readPredictions, recordState, writePrediction } from '../predictions.js';
import { createDataTable } from '../widgets/data-table.js';
import { el, labelledControl, readout, setAttr, setDisabled, setHidden, setOptions, setText } from '../widgets/dom.js';
import { finalLoss, gradientRatios, labConclusions, runOutcome, updateRatios } from './conclusions.js';
import { float32Text, layerNormsReading } from './layer-norms.js';
import { createRepaint } from './repaint.js';
import { createLabRunner } from './runner.js';
import { cellKey, cellSummary, seedsReading, sweepReading, windowAt, windowSeries } from './sweep.js';
import {
  LAB_DEFAULTS,
  LAB_DEPTHS,
  LAB_LRS,
  LAB_MIN_TEXT_BYTES,
  LAB_RUNS,
  LAB_SAMPLE,
  LAB_SEED_MAX,
  LAB_SHAPE,
  LAB_STEPS,
  LAB_WARMUP_MAX,
  labSteps,
  runOptions,
  samplePrompt,
  utf8Bytes,
} from './runs.js';
import { labText } from './text.js';
import { LAB_TEXTS } from './texts.js';
import { utf8Parts } from './utf8.js';

// The committed tables per page language, as sweep.js's sweepTable() and
// robustnessTable() give them, from web/build.mjs.
const SWEEPS = NORMLAB_TRAIN_SWEEP;
const ROBUSTNESS = NORMLAB_LAB_ROBUSTNESS;
// One mark per seed on the map, by outcome (conclusions.js).
const MARK = { learned: '✓', between: '↘', plateau: '–', above: '–', collapsed: '○', diverged: '✕' };
const OUTCOME_KEY = {
  learned: 'outcomeLearned',
  between: 'outcomeBetween',
  plateau: 'outcomePlateau',
  above: 'outcomeAbove',
  collapsed: 'outcomeCollapsed',
  diverged: 'outcomeDiverged',
};
// The learning-rate window's marks: a disc where a seed learned, a ring
// where it stalled, an × where it diverged.
const WINDOW_MARK = { learned: 'filled', diverged: 'cross' };
// The reading's whole-number parameters.
const INTEGER_PARAMS = new Set([
  'layers',
  'total',
  'preCount',
  'postCount',
  'warmupCount',
  'step',
  'steps',
  'warmup',
  'window',
  'seeds',
  'seed',
  'count',
  'learnedCount',
  'collapsedCount',
  'stalledCount',
  'divergedCount',
]);
// ln 256: the loss of an even guess over the 256 byte values.
const UNIFORM = Math.log(256);
const RUN_LABEL = { pre: 'runPre', post: 'runPost', warmup: 'runWarmup', post6: 'runPost6' };
// The layer-norm chart's legend: one item per quantity.
const NORMS_LEGEND = { residual: 'normsStream', norm1: 'normsFirst', norm2: 'normsSecond' };
// The layer-norm chart's series names, before and after training.
const NORMS_SERIES = {
  before: { stream: 'normsStreamBefore', first: 'normsFirstBefore', second: 'normsSecondBefore' },
  after: { stream: 'normsStreamAfter', first: 'normsFirstAfter', second: 'normsSecondAfter' },
};

export function mountLab(root, { win = window, doc = document, store = null, onTrained = null } = {}) {
  const steps = labSteps(win);
  const settings = { ...LAB_DEFAULTS, runs: [...LAB_DEFAULTS.runs] };
  let ownText = '';
  let view = { lang: null, nl: null };
  let text = labText('en');

  // One paint per frame, while training one per REPAINT_MS (repaint.js);
  // opt-in User Timing measures for tests/bench/page-perf.mjs, as the page's.
  const requestPaint = createRepaint({
    win,
    paint,
    busy: () => runner.state.phase === 'running',
    measure: win.NORMLAB_TIMING === true ? 'normlab:lab-paint' : null,
  });
  let published = 0;
  const runner = createLabRunner({
    win,
    doc,
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

  // Settings.
  const intro = el('p', { className: 'lab-intro' });
  const settingsBox = el('fieldset', { className: 'lab-settings' });
  const settingsLegend = el('legend');
  const row = el('div', { className: 'control-row' });
  const depth = labelledControl('lab-depth', 'select');
  const lr = labelledControl('lab-lr', 'select');
  const norm = labelledControl('lab-norm', 'select');
  const warmup = labelledControl('lab-warmup', 'input', {
    type: 'number',
    min: 0,
    max: LAB_WARMUP_MAX,
    step: 1,
    inputmode: 'numeric',
  });
  const seed = labelledControl('lab-seed', 'input', {
    type: 'number',
    min: 0,
    max: LAB_SEED_MAX,
    step: 1,
    inputmode: 'numeric',
  });
  row.append(depth.wrap, lr.wrap, norm.wrap, warmup.wrap, seed.wrap);
  const runsBox = el('fieldset', { className: 'lab-choices' });
  const runsLegend = el('legend');
  const runChecks = choiceBoxes(runsBox, 'lab-run', 'checkbox', LAB_RUNS);
  runsBox.prepend(runsLegend);
  const textBox = el('fieldset', { className: 'lab-choices' });
  const textLegend = el('legend');
  const textChoices = choiceBoxes(textBox, 'lab-text', 'radio', ['default', 'own']);
  textBox.prepend(textLegend);
  const own = labelledControl('lab-own-text', 'textarea', { rows: 4, spellcheck: 'false' });
  own.wrap.classList.add('lab-own-text');
  textBox.append(own.wrap);
  settingsBox.append(settingsLegend, row, runsBox, textBox);

  depth.input.addEventListener('change', () => change({ layers: Number(depth.input.value) }));
  lr.input.addEventListener('change', () => change({ lr: Number(lr.input.value) }));
  norm.input.addEventListener('change', () => change({ norm: norm.input.value }));
  warmup.input.addEventListener('change', () =>
    change({ warmup: wholeIn(warmup.input.value, 0, LAB_WARMUP_MAX, settings.warmup) }),
  );
  seed.input.addEventListener('change', () =>
    change({ seed: wholeIn(seed.input.value, 0, LAB_SEED_MAX, settings.seed) }),
  );
  for (const [id, box] of Object.entries(runChecks)) {
    box.addEventListener('change', () =>
      change({ runs: LAB_RUNS.filter((r) => (r === id ? box.checked : settings.runs.includes(r))) }),
    );
  }
  for (const [id, box] of Object.entries(textChoices))
    box.addEventListener('change', () => box.checked && change({ text: id === 'own' ? ownText : null }));
  own.input.addEventListener('input', () => {
    ownText = own.input.value;
    if (settings.text !== null) change({ text: ownText });
  });

  // The guess.
  const predict = el('fieldset', { className: 'lab-predict' });
  const predictLegend = el('legend');
  const predictIntro = el('p');
  const guessBoxes = el('div', { className: 'lab-choices-inline' });
  const guessChecks = choiceBoxes(guessBoxes, 'lab-guess', 'checkbox', LAB_RUNS);
  const predictButtons = el('div', { className: 'button-row' });
  const lock = el('button', { type: 'button' });
  const skip = el('button', { type: 'button', className: 'button-quiet' });
  predictButtons.append(lock, skip);
  const guessText = el('p', { className: 'lab-guess' });
  const again = el('button', { type: 'button', className: 'button-quiet' });
  predict.append(predictLegend, predictIntro, guessBoxes, predictButtons, guessText, again);
  lock.addEventListener('click', () => guess({ g: LAB_RUNS.filter((id) => guessChecks[id].checked) }));
  skip.addEventListener('click', () => guess({ s: 1 }));
  again.addEventListener('click', () => guess(null));

  // Start, pause, reset and the progress.
  const buttons = el('div', { className: 'button-row' });
  const start = el('button', { type: 'button', className: 'lab-start' });
  const pause = el('button', { type: 'button', className: 'lab-pause' });
  const reset = el('button', { type: 'button', className: 'button-quiet lab-reset' });
  buttons.append(start, pause, reset);
  const hint = el('p', { className: 'control-hint' });
  const status = el('p', { className: 'lab-status', role: 'status' });
  const readouts = el('dl', { className: 'readouts' });
  const values = {};
  for (const name of ['run', 'step', 'loss', 'rate', 'left']) {
    values[name] = readout();
    values[name].value.dataset.readout = name;
    readouts.append(values[name].wrap);
  }
  start.addEventListener('click', () => startRuns({ ...settings, runs: [...settings.runs] }, null));
  // contrast: the settings its runs are made from (the reader's, or a map
  // cell's); cell: that map cell, or null.
  function startRuns(contrast, cell) {
    if (!view.nl || !canStart(contrast)) return;
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
  }

  // A map cell's seed-1 run, with the sweep's settings, trained here; the
  // reader's own settings stay as they are, and the charts come into view.
  function runCell(id, layers, lr) {
    startRuns({ ...LAB_DEFAULTS, layers, lr, runs: [id], seed: 1, text: null }, { id, layers, lr });
    loss.figure.scrollIntoView({ block: 'start' });
  }
  pause.addEventListener('click', () => (runner.state.phase === 'paused' ? runner.resume() : runner.pause()));
  reset.addEventListener('click', () => runner.reset());

  // The two charts, each with its table.
  const loss = chartFigure('loss', 260);
  const entropyLine = el('p', { className: 'lab-line-note' });
  const uniformLine = el('p', { className: 'lab-line-note' });
  loss.figure.append(entropyLine, uniformLine, loss.tableBox);
  const ratio = chartFigure('ratio', 240);
  const ratioLine = el('p', { className: 'lab-line-note' });
  ratio.figure.append(ratioLine, ratio.tableBox);
  const updates = chartFigure('updates', 240);
  const updatesLine = el('p', { className: 'lab-line-note' });
  updates.figure.append(updatesLine, updates.tableBox);

  // A chosen run's stream and norm outputs, layer by layer, before and after.
  const normsBox = el('section', { className: 'lab-norms' });
  const normsTitle = el('h4');
  const normsIntro = el('p');
  const normsRun = labelledControl('lab-norms-run', 'select');
  normsRun.wrap.classList.add('control-inline');
  normsRun.input.addEventListener('change', () => {
    normsRunId = normsRun.input.value;
    requestPaint(true);
  });
  const normsPending = el('p', { className: 'slot-pending' });
  const norms = chartFigure('norms', 280);
  const normsPlacement = el('p', { className: 'lab-line-note' });
  const normsReading = el('div', { className: 'lab-norms-reading' });
  norms.figure.append(normsPlacement, normsReading, norms.tableBox);
  normsBox.append(normsTitle, normsIntro, normsRun.wrap, normsPending, norms.figure);
  let normsRunId = null;
  // What the chart shows now: the language and the probes (compared by identity).
  let normsShown = {};

  const samples = el('section', { className: 'lab-samples' });
  const samplesTitle = el('h4');
  const samplesIntro = el('p');
  const samplesList = el('dl');
  const nextTitle = el('h4');
  const nextIntro = el('p');
  const nextList = el('dl', { className: 'lab-next' });
  samples.append(samplesTitle, samplesIntro, samplesList, nextTitle, nextIntro, nextList);

  // The trainability map: one table per run kind, depth by learning rate.
  // Both languages' sweeps share one grid; a cell's contents are its
  // language's, filled in by paintMapText().
  const GRID = SWEEPS.en.grid;
  const map = el('section', { className: 'lab-map' });
  const mapTitle = el('h4');
  const mapIntro = el('p');
  const mapLegend = el('p', { className: 'lab-line-note' });
  const mapTables = el('div', { className: 'lab-map-tables' });
  const mapResult = el('p', { className: 'lab-map-result', role: 'status' });
  const mapReading = el('div', { className: 'lab-map-reading' });
  const mapMade = el('details', { className: 'lab-made' });
  const mapMadeSummary = el('summary');
  const mapMadeText = el('p');
  mapMade.append(mapMadeSummary, mapMadeText);
  map.append(mapTitle, mapIntro, mapLegend, mapTables, mapResult, mapReading, mapMade);
  const mapButtons = [];
  for (const id of LAB_RUNS) {
    // On a narrow screen a table scrolls in its own region, which the
    // keyboard reaches as the data tables' do.
    const scroller = el('div', { className: 'table-scroll lab-map-scroll', tabIndex: 0, role: 'region' });
    scroller.dataset.run = id;
    const table = el('table', { className: 'lab-map-table' });
    const caption = table.createCaption();
    caption.dataset.run = id;
    const head = table.createTHead().insertRow();
    head.append(
      (() => {
        const corner = el('th', { scope: 'col', className: 'lab-map-corner' });
        corner.append(
          el('span', { className: 'lab-map-corner-lr' }),
          el('span', { className: 'lab-map-corner-layers' }),
        );
        return corner;
      })(),
      ...GRID.lr.map((v) => el('th', { scope: 'col', textContent: decimals(v, 4) })),
    );
    const body = table.createTBody();
    for (const layers of GRID.layers) {
      const tr = body.insertRow();
      tr.append(el('th', { scope: 'row', textContent: String(layers) }));
      for (const lr of GRID.lr) {
        const button = el('button', { type: 'button', className: 'lab-map-cell' });
        button.dataset.cell = cellKey(id, layers, lr);
        const median = el('span', { className: 'lab-map-loss' });
        const marks = el('span', { className: 'lab-map-marks' });
        button.append(median, marks);
        button.addEventListener('click', () => runCell(id, layers, lr));
        mapButtons.push({ button, id, layers, lr, median, marks });
        const td = tr.insertCell();
        td.append(button);
      }
    }
    scroller.append(table);
    mapTables.append(scroller);
  }

  // The learning-rate window: final training loss against learning rate,
  // one small chart per depth of the sweep.
  const windowBox = el('section', { className: 'lab-window' });
  const windowTitle = el('h4');
  const windowIntro = el('p');
  const windowLegendBox = el('div');
  const windowLegend = createLegend(windowLegendBox);
  const windowCharts = el('div', { className: 'lab-window-charts' });
  const windowReading = el('div', { className: 'lab-window-reading' });
  const windowTableBox = el('div');
  const windowTable = createDataTable(windowTableBox);
  windowBox.append(windowTitle, windowIntro, windowLegendBox, windowCharts, windowReading, windowTableBox);
  const windowFrames = GRID.layers.map((layers) => {
    const figure = el('figure', { className: 'chart-figure lab-window-chart' });
    figure.dataset.chart = `lab-window-${layers}`;
    const caption = el('figcaption', { className: 'chart-caption' });
    const box = el('div', { className: 'chart-box' });
    figure.append(caption, box);
    windowCharts.append(figure);
    return { layers, caption, chart: createChartFrame(box, { height: 220 }) };
  });

  const reading = el('div', { className: 'reading lab-reading' });
  const readingTitle = el('h4');
  const readingText = el('div', { className: 'reading-text' });
  reading.append(readingTitle, readingText);
  const note = el('p', { className: 'widget-note' });

  root.replaceChildren(
    intro,
    settingsBox,
    predict,
    buttons,
    hint,
    status,
    readouts,
    loss.figure,
    ratio.figure,
    updates.figure,
    normsBox,
    samples,
    reading,
    map,
    windowBox,
    note,
  );
  root.classList.add('lab');

  function chartFigure(name, height) {
    const figure = el('figure', { className: 'chart-figure' });
    figure.dataset.chart = `lab-${name}`;
    const caption = el('figcaption', { className: 'chart-caption' });
    const legendBox = el('div');
    const box = el('div', { className: 'chart-box' });
    const tableBox = el('div');
    figure.append(caption, legendBox, box);
    const table = createDataTable(tableBox);
    tableBox.querySelector('details').addEventListener('toggle', () => requestPaint(true));
    return {
      figure,
      caption,
      legend: createLegend(legendBox),
      chart: createChartFrame(box, { height }),
      tableBox,
      table,
      tableSignature: null,
    };
  }

  // Settings change between contrasts: before a start, or after the runs
  // ended (the results stay until the next start).
  const editable = () => runner.state.phase === 'idle' || runner.state.phase === 'done';

  function change(changes) {
    if (!editable()) return;
    Object.assign(settings, changes);
    requestPaint(true);
  }

  function guess(record) {
    writePrediction(store, 'l', record);
    requestPaint(true);
  }

  const guessRecord = () => readPredictions(store).l ?? null;

  // Whether settings make a contrast the trainer takes.
  function problem(contrast = settings) {
    if (!contrast.runs.length) return { key: 'noRuns' };
    if (contrast.text !== null && utf8Bytes(contrast.text) < LAB_MIN_TEXT_BYTES) {
      return {
        key: 'textTooShort',
        params: { bytes: integer(utf8Bytes(contrast.text)), min: integer(LAB_MIN_TEXT_BYTES) },
      };
    }
    return null;
  }
  const canStart = (contrast = settings) => editable() && recordState(guessRecord()) !== 'none' && !problem(contrast);

  // The committed text's size in the page's language.
  const textBytes = {};
  const languageTextBytes = (lang) => (textBytes[lang] ??= utf8Bytes(LAB_TEXTS[lang]));

  function paint() {
    const { t } = text;
    const state = runner.state;
    const idle = state.phase === 'idle';
    const record = guessRecord();
    const asked = recordState(record);

    setText(intro, t('intro', { ...LAB_SHAPE }));
    setText(settingsLegend, t('settings'));
    setText(depth.label, t('depth'));
    setOptions(
      depth.input,
      LAB_DEPTHS.map((d) => [d, String(d)]),
      settings.layers,
    );
    setText(lr.label, t('lr'));
    setOptions(
      lr.input,
      LAB_LRS.map((v) => [v, decimals(v, 4)]),
      settings.lr,
    );
    setText(norm.label, t('norm'));
    setOptions(
      norm.input,
      [
        ['rmsnorm', t('normRms')],
        ['layernorm', t('normLayer')],
      ],
      settings.norm,
    );
    setText(warmup.label, t('warmup'));
    setText(seed.label, t('seed'));
    if (doc.activeElement !== warmup.input) warmup.input.value = String(settings.warmup);
    if (doc.activeElement !== seed.input) seed.input.value = String(settings.seed);
    setText(runsLegend, t('runs'));
    for (const id of LAB_RUNS) {
      runChecks[id].checked = settings.runs.includes(id);
      setText(runChecks[id].labels[0], t(RUN_LABEL[id]));
    }
    setText(textLegend, t('text'));
    setText(textChoices.default.labels[0], t('textDefault', { bytes: integer(languageTextBytes(text.lang)) }));
    setText(textChoices.own.labels[0], t('textOwn'));
    textChoices.default.checked = settings.text === null;
    textChoices.own.checked = settings.text !== null;
    setHidden(own.wrap, settings.text === null);
    setText(own.label, t('textOwnLabel', { min: integer(LAB_MIN_TEXT_BYTES) }));
    for (const control of [
      depth.input,
      lr.input,
      norm.input,
      warmup.input,
      seed.input,
      own.input,
      ...Object.values(runChecks),
      ...Object.values(textChoices),
    ])
      setDisabled(control, !editable());

    setText(predictLegend, t('predictTitle'));
    setText(predictIntro, t('predictIntro'));
    for (const id of LAB_RUNS) setText(guessChecks[id].labels[0], t(RUN_LABEL[id]));
    setText(lock, t('predictLock'));
    setText(skip, t('predictSkip'));
    setText(again, t('predictAgain'));
    const asking = asked === 'none';
    setHidden(guessBoxes, !asking);
    setHidden(predictButtons, !asking);
    setHidden(guessText, asking);
    setHidden(again, asking || !(idle || state.phase === 'done'));
    predict.dataset.state = asked;
    setText(
      guessText,
      asked === 'made' ? t('predictMade', { runs: runList(record.g) }) : asked === 'skipped' ? t('predictSkipped') : '',
    );

    setText(start, t('start'));
    setText(pause, state.phase === 'paused' ? t('resume') : t('pause'));
    setText(reset, t('reset'));
    setDisabled(start, !view.nl || !canStart());
    setDisabled(pause, state.phase !== 'running' && state.phase !== 'paused');
    setDisabled(reset, idle);
    const trouble = editable() ? problem() : null;
    setText(hint, !editable() ? '' : asking ? t('startFirst') : trouble ? t(trouble.key, trouble.params) : '');
    setHidden(hint, hint.textContent === '');
    setText(status, statusText());
    root.dataset.phase = state.phase;

    paintProgress();
    paintCharts();
    paintNorms();
    paintSamples();
    paintReading(record);
    paintMap();
    paintWindow();
    setText(note, steps === LAB_STEPS ? '' : t('testSpeed', { steps: integer(steps), full: integer(LAB_STEPS) }));
    setHidden(note, steps === LAB_STEPS);
  }

  function statusText() {
    const { t } = text;
    const state = runner.state;
    if (!view.nl) return t('statusNoWasm');
    if (state.phase === 'idle') return t('statusIdle');
    if (state.phase === 'done') {
      const failed = state.runs.find((run) => run.status === 'failed');
      return failed ? t('runFailed', { run: t(RUN_LABEL[failed.id]), message: failed.error }) : t('statusDone');
    }
    if (state.phase === 'paused') return t('statusPaused');
    if (state.hidden) return t('statusHidden');
    const run = state.runs[state.current];
    const name = t(RUN_LABEL[run.id]);
    const key = {
      training: 'statusTraining',
      evaluating: 'statusEvaluating',
      sampling: 'statusSampling',
      reading: 'statusReading',
    };
    const doing = t(key[run.status] ?? 'statusLoading', { run: name });
    const cell = state.cell;
    return cell ? t('statusCell', { doing, run: name, layers: integer(cell.layers), lr: decimals(cell.lr, 4) }) : doing;
  }

  function paintProgress() {
    const { t } = text;
    const state = runner.state;
    const run = state.runs[Math.min(state.current, state.runs.length - 1)];
    setText(values.run.label, t('progressRun'));
    setText(values.step.label, t('progressStep'));
    setText(values.loss.label, t('progressLoss'));
    setText(values.rate.label, t('progressRate'));
    setText(values.left.label, t('progressLeft'));
    const dash = t('dash');
    setText(values.run.value, run ? t(RUN_LABEL[run.id]) : dash);
    setText(
      values.step.value,
      run ? t('stepOf', { step: integer(run.loss.length), steps: integer(state.steps) }) : dash,
    );
    setText(values.loss.value, run?.loss.length ? fixed(run.loss.at(-1), 4) : dash);
    setText(values.rate.value, state.rate ? decimals(state.rate, 1) : dash);
    const left = state.rate && state.phase === 'running' ? runner.stepsLeft() / state.rate : null;
    setText(values.left.value, left === null ? dash : duration(left));
  }

  function duration(seconds) {
    const { t } = text;
    const whole = Math.ceil(seconds);
    return whole < 60
      ? t('seconds', { s: integer(whole) })
      : t('minutes', { m: integer(Math.floor(whole / 60)), s: integer(whole % 60) });
  }

  // The runs the charts show: the ones trained, or before a start the ones
  // chosen, without points.
  function shownRuns() {
    const state = runner.state;
    if (state.runs.length) return state.runs;
    return settings.runs.map((id) => ({
      id,
      loss: [],
      gradFirst: [],
      gradLast: [],
      updateFirst: [],
      updateLast: [],
      entropy: NaN,
    }));
  }

  function paintCharts() {
    const { t } = text;
    const runs = shownRuns();
    const entropy = runs.find((run) => Number.isFinite(run.entropy))?.entropy ?? null;
    const x = {
      type: 'linear',
      domain: [1, Math.max(2, runner.state.steps || steps)],
      label: t('axisStep'),
      integer: true,
    };
    const keys = runs.map((run) => ({ id: `lab-${run.id}`, label: t(RUN_LABEL[run.id]) }));

    const lossSeries = runs.map((run) => ({
      id: `lab-${run.id}`,
      label: t(RUN_LABEL[run.id]),
      endDot: true,
      points: run.loss.map((v, i) => [i + 1, v]).filter(([, v]) => Number.isFinite(v)),
    }));
    const lossValues = lossSeries.flatMap((s) => s.points.map((p) => p[1]));
    const lo = Math.max(0, Math.min(entropy ?? UNIFORM, ...lossValues) - 0.25);
    const hi = Math.max(UNIFORM, ...lossValues) + 0.15;
    const rules = [{ id: 'uniform', value: UNIFORM, label: t('ruleUniform', { value: decimals(UNIFORM, 2) }) }];
    if (entropy !== null)
      rules.push({ id: 'entropy', value: entropy, label: t('ruleEntropy', { value: decimals(entropy, 2) }) });
    setText(loss.caption, t('lossTitle'));
    loss.legend.update(keys);
    loss.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x,
          y: { type: 'linear', domain: [lo, hi], label: t('axisLoss') },
          series: lossSeries,
          rules,
          legend: true,
        }),
      t('lossTitle'),
    );
    setText(entropyLine, entropy === null ? '' : t('entropyLine', { entropy: decimals(entropy, 2) }));
    setHidden(entropyLine, entropy === null);
    setText(uniformLine, t('uniformLine', { uniform: decimals(UNIFORM, 2) }));

    const ratioSeries = runs.map((run) => ({
      id: `lab-${run.id}`,
      label: t(RUN_LABEL[run.id]),
      endDot: true,
      points: gradientRatios(run)
        .map((v, i) => [i + 1, v])
        .filter(([, v]) => Number.isFinite(v) && v > 0),
    }));
    const ratioValues = ratioSeries.flatMap((s) => s.points.map((p) => p[1]));
    setText(ratio.caption, t('ratioTitle'));
    ratio.legend.update(keys);
    ratio.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x,
          y: {
            type: 'log',
            domain: [Math.min(0.1, ...ratioValues) / 1.5, Math.max(10, ...ratioValues) * 1.5],
            label: t('axisRatio'),
          },
          rules: [{ id: 'one', value: 1, label: '' }],
          series: ratioSeries,
          legend: true,
        }),
      t('ratioTitle'),
    );
    setText(ratioLine, t('ratioLine'));

    const updateSeries = runs.map((run) => ({
      id: `lab-${run.id}`,
      label: t(RUN_LABEL[run.id]),
      endDot: true,
      points: updateRatios(run)
        .map((v, i) => [i + 1, v])
        .filter(([, v]) => Number.isFinite(v) && v > 0),
    }));
    const updateValues = updateSeries.flatMap((s) => s.points.map((p) => p[1]));
    setText(updates.caption, t('updatesTitle'));
    updates.legend.update(keys);
    updates.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x,
          y: {
            type: 'log',
            domain: [Math.min(0.1, ...updateValues) / 1.5, Math.max(10, ...updateValues) * 1.5],
            label: t('axisUpdate'),
          },
          rules: [{ id: 'one', value: 1, label: '' }],
          series: updateSeries,
          legend: true,
        }),
      t('updatesTitle'),
    );
    setText(updatesLine, t('updatesLine'));

    paintTable(loss, runs, () => ({
      captionText: t('tableLoss', {
        entropy: entropy === null ? t('dash') : decimals(entropy, 4),
        uniform: decimals(UNIFORM, 4),
      }),
      cell: (run, i) => fixed(run.loss[i], 4),
      length: (run) => run.loss.length,
    }));
    paintTable(ratio, runs, () => ({
      captionText: t('tableRatio'),
      cell: (run, i) => significant(run.gradFirst[i] / run.gradLast[i], 3),
      length: (run) => run.gradFirst.length,
    }));
    paintTable(updates, runs, () => ({
      captionText: t('tableUpdates'),
      cell: (run, i) =>
        t('updateCell', {
          ratio: significant(run.updateFirst[i] / run.updateLast[i], 3),
          first: significant(run.updateFirst[i], 3),
          last: significant(run.updateLast[i], 3),
        }),
      length: (run) => run.updateFirst.length,
    }));
  }

  // The chosen run's lengths, layer by layer: the stream and both norms'
  // outputs before the first step (grey) and after the last (in the demo
  // panel's colours), on a log axis with sqrt(d) marked; the table holds the
  // trainer's float32 values exactly. Repainted only when what it shows
  // changed.
  function paintNorms() {
    const { t } = text;
    const measured = runner.state.runs.filter((run) => run.layerNorms?.before);
    const run = measured.find((r) => r.id === normsRunId) ?? measured[0] ?? null;
    const { hidden } = LAB_SHAPE;
    const sqrtD = Math.sqrt(hidden);
    setText(normsTitle, t('normsTitle'));
    setText(normsIntro, t('normsIntro', { d: hidden, sqrtD: decimals(sqrtD, 2) }));
    setText(normsRun.label, t('normsRun'));
    setOptions(
      normsRun.input,
      measured.map((r) => [r.id, t(RUN_LABEL[r.id])]),
      run?.id ?? '',
    );
    setHidden(normsRun.wrap, !run);
    setHidden(normsPending, Boolean(run));
    setText(normsPending, t('normsPending'));
    setHidden(norms.figure, !run);
    if (!run) return;
    const { before, after } = run.layerNorms;
    if (normsShown.lang === text.lang && normsShown.before === before && normsShown.after === after) return;
    normsShown = { lang: text.lang, before, after };
    norms.figure.dataset.run = run.id;
    const placement = run.options.placement;
    const L = before.residual.length - 1;
    const probes = [
      ['before', before],
      ['after', after],
    ].filter(([, probe]) => probe);
    const points = (values) => values.map((v, l) => [l, v]).filter(([, v]) => Number.isFinite(v) && v > 0);
    const series = probes.flatMap(([when, probe]) => [
      { id: `lab-${when}-residual`, label: t(NORMS_SERIES[when].stream), points: points(probe.residual) },
      ...(probe.norms
        ? [
            { id: `lab-${when}-norm1`, label: t(NORMS_SERIES[when].first), points: points(probe.norms.inputNorm.out) },
            {
              id: `lab-${when}-norm2`,
              label: t(NORMS_SERIES[when].second),
              points: points(probe.norms.postAttentionNorm.out),
              dots: true,
            },
          ]
        : []),
    ]);
    const drawn = [sqrtD, ...series.flatMap((s) => s.points.map((p) => p[1]))];
    setText(norms.caption, t('normsChart', { run: t(RUN_LABEL[run.id]) }));
    // One legend item per quantity, its before and after keys side by side.
    norms.legend.update(
      ['residual', 'norm1', 'norm2']
        .map((part) => ({
          id: `lab-norms-${part}`,
          ids: series.filter((s) => s.id.endsWith(`-${part}`)).map((s) => s.id),
          label: t(NORMS_LEGEND[part]),
          dots: part === 'norm2',
        }))
        .filter((item) => item.ids.length),
    );
    norms.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: { type: 'linear', domain: [0, L], label: t('axisLayer'), integer: true },
          y: { type: 'log', domain: [Math.min(...drawn) / 1.4, Math.max(...drawn) * 1.4], label: t('axisL2') },
          rules: [{ id: 'sqrt-d', value: sqrtD, label: t('normsRule', { d: hidden, sqrtD: decimals(sqrtD, 2) }) }],
          series,
          legend: true,
        }),
      t('normsChart', { run: t(RUN_LABEL[run.id]) }),
    );
    setText(normsPlacement, t(placement === 'post' ? 'normsPost' : 'normsPre'));
    normsReading.replaceChildren(
      ...probes.flatMap(([when, probe]) =>
        layerNormsReading(probe, { when, placement, hidden }).map(({ key, params }) => {
          const shown = {
            when: t(when === 'before' ? 'normsWhenBefore' : 'normsWhenAfter', { step: integer(probe.step) }),
            first: significant(params.first ?? NaN, 3),
            last: significant(params.last ?? NaN, 3),
            factor: significant(params.factor ?? NaN, 2),
            lastLayer: integer(params.lastLayer ?? 0),
            low: significant(params.low ?? NaN, 3),
            high: significant(params.high ?? NaN, 3),
            sqrtD: decimals(sqrtD, 2),
            d: hidden,
            percent: decimals(params.percent ?? NaN, 1),
          };
          const p = el('p', { textContent: t(key, shown) });
          p.dataset.reading = key;
          p.dataset.when = when;
          return p;
        }),
      ),
    );
    const cell = (probe, pick) => (probe ? float32Text(pick(probe)) : '');
    const norm = (name, l) => (probe) => probe.norms?.[name].out[l] ?? NaN;
    const rows = before.residual.map((_, l) => {
      const last = l === L;
      return [
        last ? t('normsOutputRow') : String(l),
        cell(before, (p) => p.residual[l]),
        cell(after, (p) => p.residual[l]),
        last ? '' : cell(before, norm('inputNorm', l)),
        last ? '' : cell(after, norm('inputNorm', l)),
        last ? '' : cell(before, norm('postAttentionNorm', l)),
        last ? '' : cell(after, norm('postAttentionNorm', l)),
      ];
    });
    norms.table.update({
      summaryText: t('tableShow'),
      captionText: t('normsTable', { run: t(RUN_LABEL[run.id]), tokens: integer(before.tokens) }),
      columns: [
        t('colLayer'),
        ...['stream', 'first', 'second'].flatMap((part) => [t(NORMS_SERIES.before[part]), t(NORMS_SERIES.after[part])]),
      ],
      rows,
    });
  }

  // A table is rebuilt while it is open, and when it is closed only when a
  // run changes state: rebuilding 400 rows on every repaint costs more
  // than the chart.
  function paintTable(figure, runs, spec) {
    const state = runner.state;
    const open = figure.tableBox.querySelector('details').open;
    const signature = `${text.lang}|${state.phase}|${state.current}|${runs.map((r) => `${r.id}:${r.status}`).join(',')}`;
    if (!open && figure.tableSignature === signature) return;
    figure.tableSignature = signature;
    const { t } = text;
    const { captionText, cell, length } = spec();
    const rowsCount = Math.max(0, ...runs.map(length));
    const rows = [];
    for (let i = 0; i < rowsCount; i++)
      rows.push([String(i + 1), ...runs.map((run) => (i < length(run) ? cell(run, i) : ''))]);
    figure.table.update({
      summaryText: t('tableShow'),
      captionText,
      columns: [t('colStep'), ...runs.map((run) => t(RUN_LABEL[run.id]))],
      rows,
    });
  }

  function paintSamples() {
    const { t } = text;
    const state = runner.state;
    const sampled = state.runs.filter((run) => run.sample !== null);
    setText(samplesTitle, t('samplesTitle'));
    const { prompt, bytes, temperature } = state.sample ?? {
      ...LAB_SAMPLE,
      prompt: samplePrompt(settings, text.lang),
    };
    setText(
      samplesIntro,
      sampled.length
        ? t('samplesIntro', { prompt, bytes: integer(bytes), temperature: decimals(temperature, 2) })
        : t('samplesPending'),
    );
    const read = state.runs.filter((run) => run.nextChars.before);
    setText(nextTitle, t('nextTitle'));
    setText(nextIntro, read.length ? t('nextIntro', { prompt }) : t('nextPending'));
    const signature = `${text.lang}|${sampled.map((run) => run.id).join(',')}|${read
      .map((run) => `${run.id}${run.nextChars.after ? '+' : ''}`)
      .join(',')}`;
    if (samplesList.dataset.signature === signature) return;
    samplesList.dataset.signature = signature;
    // The language the models learned, for the browser's choice of glyphs.
    const lang = state.sample?.lang ?? null;
    samplesList.replaceChildren(
      ...sampled.flatMap((run) => {
        // The prompt in bold, then what the model wrote.
        const dd = el('dd', { className: 'lab-sample' });
        dd.append(el('strong', { textContent: prompt }), ...sampleNodes(run.sampleBytes));
        if (lang) dd.lang = lang;
        dd.dataset.run = run.id;
        return [el('dt', { textContent: t(RUN_LABEL[run.id]) }), dd];
      }),
    );
    nextList.replaceChildren(
      ...read.flatMap((run) => {
        const rows = [['before', run.nextChars.before]];
        if (run.nextChars.after) rows.push(['after', run.nextChars.after]);
        return [
          el('dt', { textContent: t(RUN_LABEL[run.id]) }),
          ...rows.map(([when, chars]) => {
            const dd = el('dd', { className: 'lab-next-chars' });
            dd.dataset.run = run.id;
            dd.dataset.when = when;
            dd.append(
              el('span', {
                className: 'lab-next-when',
                textContent: t(when === 'before' ? 'nextBefore' : 'nextAfter'),
              }),
              ...chars.map((c) => {
                const item = el('span', { className: 'lab-next-char' });
                const known = c.broken || learnedChars().has(c.text) || /^[\u0000-\u007f]$/.test(c.text);
                const glyph = c.broken
                  ? byteBoxes(c.bytes)
                  : known
                    ? [el('span', { className: 'lab-next-glyph', textContent: visibleChar(c.text) })]
                    : [codePointBox(c.text)];
                if (lang && !c.broken) glyph[0].lang = lang;
                item.append(...glyph, el('span', { className: 'lab-next-p', textContent: percent(c.p) }));
                return item;
              }),
            );
            return dd;
          }),
        ];
      }),
    );
  }

  // A sample's bytes: whole characters as text (control bytes as ·), each
  // byte that is no whole character as its value in a box.
  function sampleNodes(bytes) {
    const known = learnedChars();
    return utf8Parts(Uint8Array.from(bytes)).flatMap((part) => {
      if (part.text === undefined) return byteBoxes([part.byte]);
      // Runs of characters the text uses as text, any other on its own.
      const nodes = [];
      let run = '';
      for (const c of part.text) {
        if (known.has(c) || /[\u0000-\u007f]/.test(c)) run += c;
        else {
          if (run) nodes.push(doc.createTextNode(visibleSample(run)));
          run = '';
          nodes.push(codePointBox(c));
        }
      }
      if (run) nodes.push(doc.createTextNode(visibleSample(run)));
      return nodes;
    });
  }

  // The characters of the text the runs learned from. A sampled character
  // outside it (an untrained model picks rare ones at random) shows as its
  // code point, boxed: the page's fonts need not have a glyph for it.
  let charSet = { source: null, chars: new Set() };
  function learnedChars() {
    const { settings: contrast, sample } = runner.state;
    const source = contrast?.text ?? LAB_TEXTS[sample?.lang ?? text.lang];
    if (charSet.source !== source) charSet = { source, chars: new Set(source) };
    return charSet.chars;
  }

  function codePointBox(c) {
    const code = `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return el('span', { className: 'lab-byte', textContent: code, title: text.t('charTitle', { code }) });
  }

  function byteBoxes(bytes) {
    return bytes.map((b) =>
      el('span', {
        className: 'lab-byte',
        textContent: b.toString(16).toUpperCase().padStart(2, '0'),
        title: text.t('byteTitle', { hex: b.toString(16).toUpperCase().padStart(2, '0') }),
      }),
    );
  }

  // A next character as the reader can see it: a space, a line break or a
  // tab by name.
  function visibleChar(c) {
    const { t } = text;
    if (c === ' ') return t('charSpace');
    if (c === '\n') return t('charNewline');
    if (c === '\t') return t('charTab');
    return visibleSample(c);
  }

  function percent(p) {
    return p >= 0.1 ? `${decimals(p * 100, 0)}%` : p >= 0.001 ? `${significant(p * 100, 2)}%` : '<0.1%';
  }

  function paintMap() {
    const { t } = text;
    const state = runner.state;
    const cell = state.cell;
    const open = Boolean(view.nl) && editable() && recordState(guessRecord()) !== 'none';
    for (const { button, id, layers, lr } of mapButtons) {
      setDisabled(button, !open);
      button.classList.toggle('is-chosen', cell !== null && cell.id === id && cell.layers === layers && cell.lr === lr);
    }
    paintMapText();
    const run = state.runs[0];
    const done = cell !== null && state.phase === 'done' && run && (run.status === 'done' || run.status === 'diverged');
    setHidden(mapResult, !done);
    if (!done) return setText(mapResult, '');
    const sweep = SWEEPS[text.lang];
    const final = finalLoss(run);
    const live = {
      run: t(RUN_LABEL[cell.id]),
      layers: integer(cell.layers),
      lr: decimals(cell.lr, 4),
      backend: view.nl.backend,
      steps: integer(state.steps),
      final: decimals(final, 4),
      heldout: decimals(run.heldout, 4),
      outcome: t(OUTCOME_KEY[runOutcome(run)]),
    };
    const committed = (sweep.cells[cellKey(cell.id, cell.layers, cell.lr)] ?? []).find((e) => e.seed === 1);
    const same = committed && state.steps === sweep.steps && Object.is(committed.final, final);
    setText(
      mapResult,
      !committed || state.steps !== sweep.steps
        ? t('mapCompareNew', live)
        : t(same ? 'mapCompareSame' : 'mapCompareOther', {
            ...live,
            sweepFinal: decimals(committed.final, 4),
            sweepOutcome: t(OUTCOME_KEY[committed.outcome]),
          }),
    );
    mapResult.dataset.same = String(Boolean(same));
  }

  // The map's text: its titles (the cells' descriptions), its contents in
  // the page's language and the sweep's reading, rewritten only when the
  // language or the settings they quote changed, not on every repaint
  // while a run trains.
  function paintMapText() {
    const { t } = text;
    const sweep = SWEEPS[text.lang];
    const signature = `${text.lang}|${settings.layers}|${settings.lr}`;
    if (map.dataset.signature === signature) return;
    map.dataset.signature = signature;
    setText(mapTitle, t('mapTitle'));
    setText(
      mapIntro,
      t('mapIntro', {
        steps: integer(sweep.steps),
        seeds: integer(sweep.grid.seeds.length),
        entropy: decimals(sweep.entropy, 2),
        warmup: integer(sweep.warmup),
      }),
    );
    setText(mapLegend, t('mapLegend'));
    for (const caption of mapTables.querySelectorAll('caption')) setText(caption, t(RUN_LABEL[caption.dataset.run]));
    for (const scroller of mapTables.querySelectorAll('.lab-map-scroll'))
      setAttr(scroller, 'aria-label', t(RUN_LABEL[scroller.dataset.run]));
    // The corner names both headers, the columns' above the rows'.
    for (const corner of mapTables.querySelectorAll('.lab-map-corner')) {
      const [lr, layers] = corner.children;
      setText(lr, t('mapCornerLr'));
      setText(layers, t('mapCornerLayers'));
    }
    for (const { button, id, layers, lr, median, marks } of mapButtons) {
      const entries = sweep.cells[cellKey(id, layers, lr)] ?? [];
      const summary = cellSummary(entries);
      button.className = `lab-map-cell is-${summary.verdict}`;
      setText(median, summary.median === null ? '' : fixed(summary.median, 2));
      setText(marks, summary.outcomes.map((o) => MARK[o]).join(''));
      const seeds = entries.map((e) =>
        Number.isFinite(e.final)
          ? t('mapSeedLoss', { seed: e.seed, outcome: t(OUTCOME_KEY[e.outcome]), final: decimals(e.final, 2) })
          : t('mapSeed', { seed: e.seed, outcome: t(OUTCOME_KEY[e.outcome]) }),
      );
      // The visible text (the loss and the marks) names the button, with
      // the table's caption and headers around it; the title spells it out.
      setAttr(
        button,
        'title',
        t('mapCell', { run: t(RUN_LABEL[id]), layers, lr: decimals(lr, 4), seeds: text.list(seeds) }),
      );
    }
    // What the sweep says at the chosen depth and learning rate.
    mapReading.replaceChildren(
      ...sweepReading(sweep, settings).map(({ key, params }) => {
        const p = el('p', { textContent: t(key, formatParams(params)) });
        p.dataset.reading = key;
        return p;
      }),
    );
    setText(mapMadeSummary, t('madeSummary'));
    setText(mapMadeText, t('madeText', { ...sweep.made, seeds: integer(sweep.grid.seeds.length) }));
  }

  // The learning-rate window: for each depth of the sweep, each run's final
  // training loss at every learning rate (a mark per seed, a line through
  // the medians), with the unigram entropy the runs start their plateau
  // at; the table beside holds every seed's number. Painted when the
  // language changes.
  function paintWindow() {
    const { t } = text;
    const sweep = SWEEPS[text.lang];
    if (windowBox.dataset.lang === text.lang) return;
    windowBox.dataset.lang = text.lang;
    setText(windowTitle, t('windowTitle'));
    setText(windowIntro, t('windowIntro', { steps: integer(sweep.steps), seeds: integer(sweep.grid.seeds.length) }));
    windowLegend.update([...LAB_RUNS.map((id) => ({ id: `lab-${id}`, label: t(RUN_LABEL[id]) }))]);
    const finals = Object.values(sweep.cells)
      .flat()
      .map((e) => e.final)
      .filter(Number.isFinite);
    const lo = Math.max(0, Math.min(...finals) - 0.2);
    const hi = Math.max(sweep.entropy, ...finals) + 0.2;
    const x = { type: 'log', domain: [sweep.grid.lr[0] / 1.5, sweep.grid.lr.at(-1) * 1.5], label: t('axisLr') };
    for (const frame of windowFrames) {
      const series = windowSeries(sweep, frame.layers);
      const title = t('windowChart', { layers: frame.layers });
      setText(frame.caption, title);
      frame.chart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x,
            y: { type: 'linear', domain: [lo, hi], label: t('axisFinal') },
            series: series.map((s) => ({
              id: `lab-${s.id}`,
              label: t(RUN_LABEL[s.id]),
              points: s.medians.filter(([, v]) => v !== null),
            })),
            marks: series.flatMap((s) =>
              s.seeds.map((p) => ({
                series: `lab-${s.id}`,
                x: p.lr,
                y: Number.isFinite(p.final) ? p.final : null,
                kind: WINDOW_MARK[p.outcome] ?? 'hollow',
              })),
            ),
            rules: [
              { id: 'entropy', value: sweep.entropy, label: t('ruleEntropy', { value: decimals(sweep.entropy, 2) }) },
            ],
            legend: true,
          }),
        title,
      );
    }
    windowReading.replaceChildren(
      ...LAB_RUNS.map((id) => {
        const at = GRID.layers.map((layers) => ({ layers, ...windowAt(sweep, id, layers) }));
        const p = el('p', {
          textContent: t('windowRun', {
            run: t(RUN_LABEL[id]),
            total: integer(GRID.lr.length),
            list: text.list(at.map((w) => t('windowAt', { layers: integer(w.layers), count: integer(w.count) }))),
          }),
        });
        p.dataset.reading = `window-${id}`;
        return p;
      }),
    );
    windowTable.update({
      summaryText: t('tableShow'),
      captionText: t('windowTable', { steps: integer(sweep.steps) }),
      columns: [t('colRun'), t('colLayers'), t('colLr'), ...sweep.grid.seeds.map((seed) => t('colSeed', { seed }))],
      rows: LAB_RUNS.flatMap((id) =>
        GRID.layers.flatMap((layers) =>
          GRID.lr.map((lr) => [
            t(RUN_LABEL[id]),
            String(layers),
            decimals(lr, 4),
            ...(sweep.cells[cellKey(id, layers, lr)] ?? []).map((e) =>
              t('windowCell', {
                final: Number.isFinite(e.final) ? fixed(e.final, 3) : t('dash'),
                outcome: t(OUTCOME_KEY[e.outcome]),
              }),
            ),
          ]),
        ),
      ),
    });
  }

  function paintReading(record) {
    const { t } = text;
    const state = runner.state;
    setText(readingTitle, t('conclusionsTitle'));
    if (state.phase !== 'done') {
      if (readingText.dataset.state !== 'pending' || readingText.dataset.lang !== text.lang) {
        readingText.replaceChildren(el('p', { textContent: t('conclusionsPending') }));
        readingText.dataset.state = 'pending';
        readingText.dataset.lang = text.lang;
      }
      return;
    }
    const contrast = state.settings;
    const sentences = labConclusions(state.runs, {
      settings: contrast,
      steps: state.steps,
      guess: recordState(record) === 'made' && !state.cell ? record : null,
    });
    const seeds = seedsReading(
      { sweep: SWEEPS[text.lang], robust: ROBUSTNESS[text.lang] },
      contrast,
      state.steps,
      state.runs
        .filter((run) => run.status === 'done' || run.status === 'diverged')
        .map((run) => ({ id: run.id, final: run.status === 'done' ? finalLoss(run) : null })),
    );
    readingText.replaceChildren(
      ...[...sentences, ...seeds].map(({ key, params }) => {
        const p = el('p', { textContent: t(key, formatParams(params)) });
        p.dataset.reading = key;
        return p;
      }),
    );
    readingText.dataset.state = 'done';
  }

  // A sentence's raw numbers as the reading shows them.
  function formatParams(params) {
    const { t } = text;
    const out = {};
    for (const [name, value] of Object.entries(params)) {
      if (name === 'run') out.run = t(RUN_LABEL[value]);
      else if (name === 'guessed' || name === 'learned') out[name] = runList(value);
      else if (name === 'learnedAt' || name === 'failedAt')
        out[name] = value.length ? text.list(value.map(String)) : t('none');
      else if (INTEGER_PARAMS.has(name)) out[name] = integer(value);
      else if (name === 'postLr' || name === 'preLr' || name === 'lr') out[name] = decimals(value, 4);
      else if (name === 'ratio' || name === 'update') out[name] = significant(value, 2);
      else if (name === 'final' || name === 'committed') out[name] = decimals(value, 4);
      else out[name] = decimals(value, 2);
    }
    return out;
  }

  function runList(ids) {
    return ids.length ? text.list(ids.map((id) => text.t(RUN_LABEL[id]))) : text.t('none');
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

// Checkboxes or radio buttons, one per id, each in a <label>; returns the
// inputs by id (their text is set on paint).
function choiceBoxes(container, name, type, ids) {
  const inputs = {};
  for (const id of ids) {
    const input = el('input', { type, name, value: id, id: `${name}-${id}` });
    const label = el('label', { htmlFor: input.id, className: 'lab-choice-label' });
    const wrap = el('div', { className: 'lab-choice' });
    wrap.append(input, label);
    container.append(wrap);
    inputs[id] = input;
  }
  return inputs;
}

// Control bytes other than line breaks as a middle dot, so a sample's
// length on screen matches what the model wrote.
function visibleSample(sample) {
  return sample.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '·');
}

// A whole number typed in [lo, hi], else the previous value.
function wholeIn(text, lo, hi, previous) {
  const value = Number(text);
  return Number.isInteger(value) && value >= lo && value <= hi ? value : previous;
}
