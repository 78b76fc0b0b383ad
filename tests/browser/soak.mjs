// The soak: headless Chromium drives the page (or the embed demo's
// custom elements) through thousands of scripted control moves and prompt
// changes, spread over every widget, and watches what a long session does
// to it: the wasm memory, the JS heap after forced garbage collection,
// console errors, and how long a slider input takes to reach the screen.
//
// Used by `./build.sh soak` (the full run: 10,000 moves and 1,000 prompt
// changes, this file run as a script) and by tests/browser/soak.test.mjs
// (the short run in `./build.sh test`). Both judge the run with verdict().
//
//   node tests/browser/soak.mjs [--moves N] [--prompts N] [--embed-moves N]
//     [--embed-prompts N] [--seed N] [--backend auto|simd128|scalar]
//     [--samples N] [--json FILE]
//
// How the wasm memory is read: an init script (trainer-tracker.mjs
// keepKernelModules) stands in for the globalThis.normlabBackends registry
// the classic backend scripts (normlab_simd.js, normlab_scalar.js) register
// their module factory in, and keeps each Emscripten module the page creates. Its HEAP8.buffer is the
// wasm memory; its memoryInfo() is the JS API's counter (heap bytes, malloc'd
// bytes, live Workspaces and buffers). The page itself is not changed for the
// soak.
//
// The training lab's runs are part of the page's soak: each run's trainer
// lives in a wasm instance of its own (the trainer's module), which the
// runner drops when the run ends or is reset (each run's instance lives in
// a Web Worker of its own, terminated then). trainer-tracker.mjs watches
// those instances (workers by their termination, instances on the page
// through WeakRefs), so the soak itself keeps none alive;
// every sample counts the ones still alive after a forced GC. The kernels'
// module (`modules` above) is judged apart from them.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { LAB, bringLabIn, launchBrowser, sendCspHeader, startServer, watchProblems } from './page-support.mjs';
import { keepKernelModules, liveTrainerModules, trackTrainerModules } from './trainer-tracker.mjs';
import { QUIZ_IDS } from '../../web/src/quiz-answers.js';

// What fails a run.
export const LIMITS = Object.freeze({
  // JS heap after forced GC, end against the end of warm-up. The page keeps
  // bounded caches (32 gradient results, a few model views, the playground's
  // sweeps for two eps values) that still fill after warm-up: measured, the
  // heap (about 5 MiB) grows by 0.5 to 0.6 MiB over the first few thousand
  // moves and then stays flat; and V8's heap after a full GC moves by 0.1 to
  // 0.2 MiB between samples (compiled code, inline caches). A leak of one
  // forward view (tens of KB) per move would add hundreds of MB over 10,000
  // moves, one small object (200 bytes) per action over 2 MiB; so growth
  // beyond the larger of 20% and 2 MiB, about three times what the caches
  // take, fails.
  jsHeapGrowthFraction: 0.2,
  jsHeapGrowthBytes: 2 * 1024 * 1024,
  // Wasm memory never shrinks. The models' scratch is allocated once at its
  // largest (src/model/model.h: "Memory"), their parameters are one set
  // between them and the instances one pool per page (three at most), so the
  // heaviest settings, which the warm-up runs, set its high-water mark. It
  // must not grow from the first sample past a fifth of the run on (a leak
  // grows all along), and never past 64 MiB, what a phone's browser lets a
  // tab hold without trouble (the page and the embed demo each).
  wasmSettledFraction: 0.2,
  wasmMaxBytes: 64 * 1024 * 1024,
  // Responsiveness: input-to-painted-frame at the end against the start
  // (medians of the same probe moves). The machine is shared and noisy, so
  // only a collapse fails: a median over 500 ms, or over 10x the start's
  // when that is also over 100 ms (a 6 ms start going to 60 ms is noise).
  responsivenessFactor: 10,
  responsivenessFloorMs: 100,
  responsivenessMaxMs: 500,
  // Trainer instances alive at a sample, after a forced GC: the training
  // lab holds one per worker, as many at once as the machine has cores but
  // one (see verdict()).
  trainersLiveMax: Math.max(1, os.cpus().length - 1),
  // One batch of scripted moves (at most BATCH of them) must finish within
  // this; otherwise the page has stopped responding.
  batchTimeoutMs: 120_000,
});

// Steps per training-lab run in the soak: the lab's test setting
// window.NORMLAB_LAB_STEPS (web/src/lab/runs.js, labSteps), set before the
// page's scripts run. At 3 steps a 24-layer contrast of three runs (each
// made, trained, evaluated on the held-out text, sampled and deleted) takes
// a few seconds, so runs start, end and are reset among the moves.
export const SOAK_LAB_STEPS = 3;

const BATCH = 50;
// Every this many actions the soak stops for the page to go idle: the
// gradient views' deferred backward passes run only once input settles.
const IDLE_EVERY = 150;

// ------------------------------------------------------------ random script

// mulberry32: a small seeded generator, so a failing run can be replayed.
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  next.pick = (list) => list[Math.floor(next() * list.length)];
  return next;
}

// A control: { name, weight, kind, host?, sel, ... }. kind:
//   range   a slider; moves are drags (runs of small steps) and jumps, given
//           as a fraction of the slider's current min..max
//   select  a <select> (or a number field committed with a change event);
//           one change to one of `values`
//   text    a text field; `text(random)` gives the new value
//   click   a button (skipped while disabled)
//   radio   a radio button, checked
//   scroll  scrolls `sel` into view (the demo panel's auto-run starts there)
//   attr    sets attribute `name` of the element `host` (a host page's change)
const EPS = ['0.000001', '0.00001'];
const NUMBER_TEXT = ['0', '1', '-1', '2.5', '-0.75', '3', '1e-3', '4.5', '-12', '100', '0.001', '7'];

export function calculatorText(random) {
  const roll = random();
  if (roll < 0.1) return random.pick(['', '1, oops', '2,,3', 'NaN', '1e999', ' ']);
  // Up to 70 entries: past the calculator's 64 it says so.
  const n = roll < 0.95 ? random.int(1, 12) : random.int(60, 70);
  return Array.from({ length: n }, () => random.pick(NUMBER_TEXT)).join(random.pick([', ', ',', ' ']));
}

const PROMPT_PIECES = [
  'The',
  ' residual',
  ' stream',
  ' grows',
  '.',
  ' RMSNorm',
  ' keeps',
  ' it',
  ' 残差流',
  '归一化',
  ' 🙂',
  ' x',
  'a',
  ' layer',
  ' 24',
];

// The next prompt from the current one, as a reader edits it: type a piece,
// delete a few characters, paste a new one, clear it. Lengths run past the
// model's 64 bytes (the panel then says so and keeps the last result).
export function nextPrompt(random, current) {
  const roll = random();
  if (roll < 0.45) return current + random.pick(PROMPT_PIECES);
  if (roll < 0.75) return [...current].slice(0, -random.int(1, 4)).join('');
  if (roll < 0.95)
    return Array.from({ length: random.int(1, 9) }, () => random.pick(PROMPT_PIECES))
      .join('')
      .trimStart();
  return '';
}

export function pageControls() {
  const w = '[data-widget="%"]';
  const inWidget = (name, sel) => `${w.replace('%', name)} ${sel}`;
  return [
    { name: 'softmax magnitude', weight: 3, kind: 'range', sel: '#softmax-l2' },
    { name: 'softmax reset', weight: 0.2, kind: 'click', sel: inWidget('softmax', '.control button') },
    { name: 'softmax growth', weight: 0.3, kind: 'radio', sel: ['#softmax-growth-linear', '#softmax-growth-square'] },
    // The questions before the sliders move: a guess typed, then checked,
    // skipped or asked again (hidden buttons click too: the page must cope).
    {
      name: 'softmax guess',
      weight: 0.2,
      kind: 'text',
      sel: '#softmax-guess',
      text: (random) => random.pick(['0.3', '0.77', '1.5', 'x', '']),
    },
    {
      name: 'playground guess',
      weight: 0.2,
      kind: 'text',
      sel: '#playground-guess',
      text: (random) => random.pick(['16', '160', '-1', 'y']),
    },
    {
      name: 'question buttons',
      weight: 0.3,
      kind: 'click',
      sel: ['softmax', 'playground'].flatMap((name) =>
        ['check', 'skip', 'again'].map((action) => inWidget(name, `button[data-action="${action}"]`)),
      ),
    },
    { name: 'playground stretch', weight: 3, kind: 'range', sel: '#playground-stretch' },
    { name: 'playground eps', weight: 0.4, kind: 'select', sel: '#playground-eps', values: EPS },
    { name: 'calculator input', weight: 1.5, kind: 'text', sel: '#calc-vector', text: calculatorText },
    { name: 'calculator eps', weight: 0.4, kind: 'select', sel: '#calc-eps', values: EPS },
    {
      name: 'calculator presets',
      weight: 0.3,
      kind: 'click',
      sel: [
        inWidget('calculator', '.button-row button:nth-of-type(1)'),
        inWidget('calculator', '.button-row button:nth-of-type(2)'),
      ],
    },
    { name: 'layer selector', weight: 3, kind: 'range', sel: '#layer-select' },
    {
      name: 'layer jump buttons',
      weight: 0.3,
      kind: 'click',
      sel: [
        inWidget('layer-breakdown', 'button[data-layer="0"]'),
        inWidget('layer-breakdown', 'button[data-layer="22"]'),
      ],
    },
    { name: 'depth', weight: 2, kind: 'range', sel: '#model-depth' },
    { name: 'norm', weight: 0.7, kind: 'select', sel: '#model-norm', values: ['rmsnorm', 'layernorm', 'none'] },
    { name: 'placement', weight: 0.7, kind: 'select', sel: '#model-placement', values: ['pre', 'post'] },
    { name: 'model eps', weight: 0.5, kind: 'select', sel: '#model-eps', values: EPS },
    { name: 'chart scale', weight: 0.4, kind: 'select', sel: '#layer-chart-scale', values: ['log', 'linear'] },
    { name: 'gradient-flow depth', weight: 2, kind: 'range', sel: '#grad-depth' },
    { name: 'auto-run play/replay', weight: 0.15, kind: 'click', sel: '#autorun-play' },
    { name: 'auto-run pause/resume', weight: 0.2, kind: 'click', sel: '#autorun-pause' },
    { name: 'auto-run next/finish', weight: 0.2, kind: 'click', sel: ['#autorun-next', '#autorun-finish'] },
    { name: 'walk prediction', weight: 0.5, kind: 'range', sel: ['#predict-residual', '#predict-norm'] },
    {
      name: 'walk prediction buttons',
      weight: 0.2,
      kind: 'click',
      sel: ['#predict-commit', '#predict-skip', '#predict-again'],
    },
    { name: 'prompt reset', weight: 0.15, kind: 'click', sel: '.control-prompt button' },
    {
      name: 'quiz',
      weight: 0.3,
      kind: 'radio',
      sel: QUIZ_IDS.flatMap((q) =>
        ['a', 'b', 'c'].map((o) => `[data-widget="quiz"] input[name="quiz-${q}"][value="${o}"]`),
      ),
    },
    { name: 'theme', weight: 0.15, kind: 'select', sel: '#theme-select', values: ['auto', 'light', 'dark'] },
    { name: 'language', weight: 0.1, kind: 'select', sel: '#lang-select', values: ['en', 'zh-CN'] },
    {
      name: 'scroll',
      weight: 0.3,
      kind: 'scroll',
      sel: [
        '[data-widget="softmax"]',
        '[data-widget="layer-chart"]',
        '[data-widget="gradient-flow"]',
        '[data-widget="calculator"]',
        '[data-widget="training-lab"]',
        '#intro',
      ],
    },
    ...labControls(),
  ];
}

// The training lab (loaded by the warm-up, see soak()): its runs started,
// paused, resumed and reset among the other moves, its settings changed
// (they take effect only while no contrast runs: the rest are moves the lab
// must ignore), the guess made, skipped and asked again (start waits for
// it), a map cell's run, the chosen run of the layer-norm chart. Each run
// trains SOAK_LAB_STEPS steps (openSoakPage), so contrasts end within the
// soak.
export function labControls() {
  const lab = (sel) => `[data-widget="training-lab"] ${sel}`;
  return [
    { name: 'lab start', weight: 0.8, kind: 'click', sel: lab('.lab-start') },
    { name: 'lab pause/resume', weight: 0.4, kind: 'click', sel: lab('.lab-pause') },
    { name: 'lab reset', weight: 0.4, kind: 'click', sel: lab('.lab-reset') },
    {
      name: 'lab guess',
      weight: 0.5,
      kind: 'click',
      sel: [
        '#lab-guess-pre',
        '#lab-guess-post',
        lab('.lab-predict .button-row button:nth-of-type(1)'), // lock the guess
        lab('.lab-predict .button-row button:nth-of-type(2)'), // skip it
        lab('.lab-predict .button-row button:nth-of-type(2)'),
        lab('.lab-predict > button'), // ask again
      ],
    },
    { name: 'lab depth', weight: 0.3, kind: 'select', sel: '#lab-depth', values: ['6', '12', '24', '48'] },
    { name: 'lab lr', weight: 0.3, kind: 'select', sel: '#lab-lr', values: ['0.001', '0.003', '0.005', '0.01'] },
    { name: 'lab norm', weight: 0.2, kind: 'select', sel: '#lab-norm', values: ['rmsnorm', 'layernorm'] },
    // Number fields, committed as a change event: out-of-range and
    // fractional values keep the previous setting.
    { name: 'lab warmup', weight: 0.2, kind: 'select', sel: '#lab-warmup', values: ['0', '50', '400', '401', '-3'] },
    { name: 'lab seed', weight: 0.2, kind: 'select', sel: '#lab-seed', values: ['1', '7', '4294967295', '0.5'] },
    { name: 'lab runs', weight: 0.2, kind: 'click', sel: ['#lab-run-pre', '#lab-run-post', '#lab-run-warmup'] },
    {
      name: 'lab text',
      weight: 0.2,
      kind: 'radio',
      sel: ['#lab-text-default', '#lab-text-default', '#lab-text-own'],
    },
    {
      name: 'lab own text',
      weight: 0.1,
      kind: 'text',
      sel: '#lab-own-text',
      // Too short to train on, or long enough (650 bytes and more).
      text: (random) => random.pick(['RMSNorm', 'RMSNorm keeps the stream near sqrt(d). '.repeat(random.int(17, 30))]),
    },
    {
      name: 'lab map cell',
      weight: 0.3,
      kind: 'click',
      sel: ['pre|6|0.001', 'post|12|0.003', 'warmup|24|0.01', 'post|6|0.01'].map((key) =>
        lab(`.lab-map-cell[data-cell="${key}"]`),
      ),
    },
    { name: 'lab norms run', weight: 0.1, kind: 'select', sel: '#lab-norms-run', values: ['pre', 'post', 'warmup'] },
  ];
}

export const pagePromptControls = () => [{ name: 'prompt', kind: 'text', sel: '#model-prompt', prompt: true }];

// The embed demo's elements, addressed by tag and position.
export function embedControls() {
  const softmax = (n) => `normlab-softmax:nth-of-type(${n})`;
  return [
    ...[1, 2, 3, 4].map((n) => ({
      name: `softmax ${n} magnitude`,
      weight: 0.8,
      kind: 'range',
      host: softmax(n),
      sel: '#softmax-l2',
    })),
    {
      name: 'softmax language',
      weight: 0.1,
      kind: 'select',
      host: softmax(1),
      sel: '.nl-lang',
      values: ['en', 'zh-CN'],
    },
    {
      name: 'softmax l2 attribute',
      weight: 0.3,
      kind: 'attr',
      host: softmax(2),
      name_: 'l2',
      values: ['8', '32', '96', '300', 'abc'],
    },
    {
      name: 'calculator input',
      weight: 1,
      kind: 'text',
      host: 'normlab-calculator',
      sel: '#calc-vector',
      text: calculatorText,
    },
    { name: 'calculator eps', weight: 0.2, kind: 'select', host: 'normlab-calculator', sel: '#calc-eps', values: EPS },
    {
      name: 'layer-chart scale',
      weight: 0.3,
      kind: 'select',
      host: 'normlab-layer-chart',
      sel: '#layer-chart-scale',
      values: ['log', 'linear'],
    },
    {
      name: 'layer-chart depth attribute',
      weight: 0.3,
      kind: 'attr',
      host: 'normlab-layer-chart',
      name_: 'depth',
      values: ['6', '24', '40', '64'],
    },
    {
      name: 'playground stretch (controls hidden)',
      weight: 0.8,
      kind: 'range',
      host: 'normlab-playground',
      sel: '#playground-stretch',
    },
    { name: 'gradient-flow depth', weight: 0.8, kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth' },
    {
      name: 'gradient-flow norm attribute',
      weight: 0.2,
      kind: 'attr',
      host: 'normlab-gradient-flow',
      name_: 'norm',
      values: ['rmsnorm', 'layernorm', 'none'],
    },
    { name: 'demo depth', weight: 1, kind: 'range', host: 'normlab-demo', sel: '#model-depth' },
    { name: 'demo layer', weight: 1.5, kind: 'range', host: 'normlab-demo', sel: '#layer-select' },
    { name: 'demo gradient depth', weight: 0.8, kind: 'range', host: 'normlab-demo', sel: '#grad-depth' },
    {
      name: 'demo norm',
      weight: 0.3,
      kind: 'select',
      host: 'normlab-demo',
      sel: '#model-norm',
      values: ['rmsnorm', 'layernorm', 'none'],
    },
    {
      name: 'demo placement',
      weight: 0.3,
      kind: 'select',
      host: 'normlab-demo',
      sel: '#model-placement',
      values: ['pre', 'post'],
    },
    { name: 'demo eps', weight: 0.2, kind: 'select', host: 'normlab-demo', sel: '#model-eps', values: EPS },
    { name: 'demo auto-run play', weight: 0.1, kind: 'click', host: 'normlab-demo', sel: '#autorun-play' },
    { name: 'demo auto-run pause', weight: 0.1, kind: 'click', host: 'normlab-demo', sel: '#autorun-pause' },
    { name: 'demo walk prediction', weight: 0.3, kind: 'range', host: 'normlab-demo', sel: '#predict-residual' },
    {
      name: 'demo walk buttons',
      weight: 0.2,
      kind: 'click',
      host: 'normlab-demo',
      sel: ['#predict-commit', '#predict-skip', '#predict-again', '#autorun-next', '#autorun-finish'],
    },
  ];
}

export const embedPromptControls = () => [
  { name: 'demo prompt', kind: 'text', host: 'normlab-demo', sel: '#model-prompt', prompt: true, weight: 3 },
  { name: 'gain prompt attribute', kind: 'attr', host: 'normlab-gain', name_: 'prompt', prompt: true, weight: 1 },
  {
    name: 'layer-chart prompt attribute',
    kind: 'attr',
    host: 'normlab-layer-chart',
    name_: 'prompt',
    prompt: true,
    weight: 1,
  },
];

function weighted(random, controls) {
  const total = controls.reduce((s, c) => s + (c.weight ?? 1), 0);
  let roll = random() * total;
  for (const c of controls) {
    roll -= c.weight ?? 1;
    if (roll < 0) return c;
  }
  return controls.at(-1);
}

// The action list: `moves` control moves in gestures (a drag is a run of
// steps on one slider), every control at least once when there are enough
// moves, with `prompts` prompt changes spread evenly among them. Each action is { control (name), kind, host, sel, value | fraction }.
export function makeScript({ controls, promptControls, moves, prompts, seed }) {
  const random = rng(seed);
  const actions = [];
  const promptOf = new Map();
  const where = new Map(); // a slider's last fraction, so drags continue
  const target = (c) => ({
    control: c.name,
    kind: c.kind,
    host: c.host ?? null,
    sel: Array.isArray(c.sel) ? random.pick(c.sel) : c.sel,
  });
  const promptChange = () => {
    const c = weighted(random, promptControls);
    const value = nextPrompt(random, promptOf.get(c.name) ?? '');
    promptOf.set(c.name, value);
    actions.push(
      c.kind === 'attr' ? { ...target(c), name: c.name_, value, prompt: true } : { ...target(c), value, prompt: true },
    );
  };
  let made = 0;
  let promptsMade = 0;
  // Every control once first (in a random order), so that even a short run
  // touches every widget; then by weight.
  const first = controls
    .map((c) => [random(), c])
    .sort((a, b) => a[0] - b[0])
    .map(([, c]) => c);
  while (made < moves) {
    const c = first.shift() ?? weighted(random, controls);
    const gesture = [];
    if (c.kind === 'range') {
      let f = where.get(c.name + c.host) ?? random();
      if (random() < 0.25)
        gesture.push({ ...target(c), fraction: (f = random()) }); // a jump
      else {
        const steps = random.int(3, 25);
        const dir = random() < 0.5 ? -1 : 1;
        const size = 0.005 + random() * 0.05;
        for (let i = 0; i < steps; i++) {
          f = Math.min(1, Math.max(0, f + dir * size * (0.5 + random())));
          gesture.push({ ...target(c), fraction: f });
        }
      }
      where.set(c.name + c.host, f);
    } else if (c.kind === 'select') gesture.push({ ...target(c), value: random.pick(c.values) });
    else if (c.kind === 'text') gesture.push({ ...target(c), value: c.text(random) });
    else if (c.kind === 'attr') gesture.push({ ...target(c), name: c.name_, value: random.pick(c.values) });
    else gesture.push(target(c));
    for (const action of gesture) {
      if (made >= moves) break;
      actions.push(action);
      made += 1;
      // Prompt changes spread evenly over the moves.
      while (promptsMade < Math.floor((made * prompts) / moves)) {
        promptChange();
        promptsMade += 1;
      }
    }
  }
  while (promptsMade < prompts) {
    promptChange();
    promptsMade += 1;
  }
  return actions;
}

// The heaviest settings, each once, before the baseline is taken: the wasm
// memory only grows, so it must reach its high-water mark in warm-up. The
// longest prompt (64 bytes) at the deepest stack for every norm, placement
// and eps (the pool of model instances fills and turns over), and the
// gradient views at their deepest, with idle time for them to run.
export function warmupScript({ host = null, page = true }) {
  const h = (sel, rest) => ({ host, sel, ...rest });
  const actions = [];
  const long = 'The residual stream grows; RMSNorm keeps its input near sqrt(d).!'.slice(0, 64);
  actions.push(h('#model-prompt', { kind: 'text', value: long, control: 'prompt', prompt: true }));
  actions.push(h('#grad-depth', { kind: 'range', fraction: 1, control: 'gradient-flow depth' }), { kind: 'idle' });
  for (const norm of ['rmsnorm', 'layernorm', 'none']) {
    for (const placement of ['pre', 'post']) {
      for (const eps of EPS) {
        actions.push(
          h('#model-norm', { kind: 'select', value: norm, control: 'norm' }),
          h('#model-placement', { kind: 'select', value: placement, control: 'placement' }),
          h('#model-eps', { kind: 'select', value: eps, control: 'model eps' }),
          h('#model-depth', { kind: 'range', fraction: 1, control: 'depth' }),
          h('#layer-select', { kind: 'range', fraction: 1, control: 'layer selector' }),
          { kind: 'idle' },
        );
      }
    }
  }
  if (!page) {
    // The embed demo's other model views, each with its own instances.
    actions.push(
      { kind: 'attr', host: 'normlab-layer-chart', name: 'depth', value: '64', control: 'layer-chart depth attribute' },
      {
        kind: 'attr',
        host: 'normlab-layer-chart',
        name: 'prompt',
        value: long,
        control: 'layer-chart prompt attribute',
      },
      { kind: 'attr', host: 'normlab-gain', name: 'prompt', value: long, control: 'gain prompt attribute' },
      { kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth', fraction: 1, control: 'gradient-flow depth' },
    );
    for (const norm of ['rmsnorm', 'layernorm', 'none']) {
      actions.push(
        {
          kind: 'attr',
          host: 'normlab-gradient-flow',
          name: 'norm',
          value: norm,
          control: 'gradient-flow norm attribute',
        },
        {
          kind: 'range',
          host: 'normlab-gradient-flow',
          sel: '#grad-depth',
          fraction: 1,
          control: 'gradient-flow depth',
        },
        { kind: 'idle' },
      );
    }
  }
  if (page) {
    actions.push({
      kind: 'text',
      host,
      sel: '#calc-vector',
      value: Array.from({ length: 64 }, (_, i) => i - 32).join(', '),
      control: 'calculator input',
    });
    actions.push({ kind: 'select', host, sel: '#playground-eps', value: EPS[1], control: 'playground eps' });
    actions.push({ kind: 'select', host, sel: '#lang-select', value: 'zh-CN', control: 'language' });
    actions.push({ kind: 'select', host, sel: '#lang-select', value: 'en', control: 'language' });
  }
  actions.push({ kind: 'idle' });
  return actions;
}

// ------------------------------------------------------------ in the page

// Installed in every frame before the page's own scripts (addInitScript runs
// under any CSP). Defines window.__soak.
function soakRuntime() {
  // The kernels' modules (keepKernelModules, installed first).
  const modules = window.__kernelModules;

  // The training lab's phases as it paints them (its root's data-phase):
  // contrasts started (from idle or done, a map cell's run included),
  // paused, finished, and reset while running or paused or after the end.
  const lab = { started: 0, paused: 0, finished: 0, resetMidRun: 0, resetAfterEnd: 0 };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.dataset.widget !== 'training-lab') continue;
      const from = r.oldValue;
      const to = r.target.dataset.phase;
      if (to === from) continue;
      if (to === 'running' && from !== 'paused') lab.started += 1;
      else if (to === 'paused') lab.paused += 1;
      else if (to === 'done') lab.finished += 1;
      else if (to === 'idle' && (from === 'running' || from === 'paused')) lab.resetMidRun += 1;
      else if (to === 'idle' && from === 'done') lab.resetAfterEnd += 1;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-phase'], attributeOldValue: true });

  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  // Resolves after the next frame has been produced: the rAF callbacks (the
  // page's render included) run, then style, layout and paint, then this
  // message task.
  const afterFrame = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(0);
      }),
    );
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function find(host, sel) {
    let root = document;
    if (host) {
      const node = document.querySelector(host);
      if (!node) throw new Error(`soak: no element ${host}`);
      root = node.shadowRoot;
    }
    const node = root.querySelector(sel);
    if (!node) throw new Error(`soak: no ${sel}${host ? ` in ${host}` : ''}`);
    return node;
  }

  // Returns false when the action could not apply (a disabled button).
  function act(a) {
    if (a.kind === 'attr') {
      document.querySelector(a.host).setAttribute(a.name, a.value);
      return true;
    }
    const node = find(a.host, a.sel);
    switch (a.kind) {
      case 'range': {
        const min = Number(node.min);
        const max = Number(node.max);
        const step = Number(node.step) || 1;
        node.value = String(min + Math.round((a.fraction * (max - min)) / step) * step);
        node.dispatchEvent(new Event('input', { bubbles: true }));
        node.dispatchEvent(new Event('change', { bubbles: true }));
        return true;
      }
      case 'text':
        node.value = a.value;
        node.dispatchEvent(new Event('input', { bubbles: true }));
        return true;
      case 'select':
        node.value = a.value;
        node.dispatchEvent(new Event('change', { bubbles: true }));
        return true;
      case 'radio':
        node.checked = true;
        node.dispatchEvent(new Event('change', { bubbles: true }));
        return true;
      case 'click':
        if (node.disabled) return false;
        node.click();
        return true;
      case 'scroll':
        node.scrollIntoView({ block: 'center' });
        return true;
      default:
        throw new Error(`soak: unknown action ${a.kind}`);
    }
  }

  // Every gradient-flow view (page or elements) has its result.
  const gradientRoots = () => [
    document,
    ...[...document.querySelectorAll('*')].filter((n) => n.shadowRoot).map((n) => n.shadowRoot),
  ];
  // A view marks itself busy in the frame that schedules its gradients, so
  // one frame after the last input is enough to see pending work. A view far
  // from the screen is busy and deferred: nothing runs for it until it comes
  // near.
  async function idle(timeoutMs = 30_000) {
    const start = performance.now();
    await afterFrame();
    for (;;) {
      const busy = gradientRoots().some((r) =>
        [...r.querySelectorAll('[data-widget="gradient-flow"]')].some(
          (g) => g.dataset.busy === 'true' && g.dataset.deferred !== 'true',
        ),
      );
      if (!busy) break;
      if (performance.now() - start > timeoutMs) throw new Error('soak: the gradient views never settled');
      await sleep(20);
    }
    await afterFrame();
  }

  window.__soak = {
    modules,
    lab,
    async run(actions) {
      let applied = 0;
      for (const a of actions) {
        if (a.kind === 'idle') {
          await idle();
          continue;
        }
        if (act(a)) applied += 1;
        await frame();
      }
      await afterFrame();
      return applied;
    },
    idle,
    // Input-to-painted-frame time of each action, in ms.
    async probe(actions) {
      const times = [];
      for (const a of actions) {
        await idle();
        const start = performance.now();
        act(a);
        await afterFrame();
        times.push(performance.now() - start);
      }
      return times;
    },
    memory() {
      return modules.map(({ name, module }) => ({
        backend: name,
        bufferBytes: module.HEAP8.buffer.byteLength,
        ...module.memoryInfo(),
      }));
    },
  };
}

// ------------------------------------------------------------ the run

// Opens url with the soak's runtime installed (window.__soak: run(actions),
// idle(), probe(actions), memory()) and a CDP session for the JS heap.
export async function openSoakPage(browser, url, { csp = true, viewport = { width: 1280, height: 900 } } = {}) {
  const context = await browser.newContext({
    viewport,
    locale: 'en-US',
    colorScheme: 'light',
    reducedMotion: 'no-preference',
  });
  const page = await context.newPage();
  const problems = await watchProblems(page);
  page.on('crash', () => problems.push('page crashed'));
  await page.addInitScript(keepKernelModules);
  await page.addInitScript(soakRuntime);
  await page.addInitScript(trackTrainerModules);
  await page.addInitScript(`window.NORMLAB_LAB_STEPS = ${SOAK_LAB_STEPS};`);
  if (csp) await sendCspHeader(page);
  await page.goto(url);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  const close = async () => {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  };
  return { page, cdp, problems, close };
}

async function jsHeap(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
  return { usedBytes: usedSize, totalBytes: totalSize };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the page stopped responding: ${what} took over ${ms / 1000} s`)), ms);
    }),
  ]);
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// The same probe moves at the start and at the end: sliders whose input
// repaints without a backward pass (softmax, stretch, layer) and the depth,
// whose input runs a forward pass.
function probeActions(host, page) {
  const list = [];
  for (let i = 0; i < 6; i++) {
    const f = [0.2, 0.6, 0.4, 0.8, 0.3, 0.7][i];
    if (page) {
      list.push({ kind: 'range', sel: '#softmax-l2', fraction: f, host: null });
      list.push({ kind: 'range', sel: '#playground-stretch', fraction: f, host: null });
    }
    list.push({ kind: 'range', sel: '#layer-select', fraction: f, host });
    list.push({ kind: 'range', sel: '#model-depth', fraction: i % 2 ? 23 / 63 : 24 / 63, host });
  }
  return list;
}

// Brings the training lab in and runs it once each way a trainer is
// deleted, before the baseline: a contrast paused and reset mid-run, then
// one trained to its end, so the lab's code and a whole contrast's effect on
// the kernels' wasm memory and the JS heap are in the warm-up sample.
async function warmUpLab(page) {
  await bringLabIn(page);
  const phase = (want) =>
    page.waitForFunction(([sel, p]) => document.querySelector(sel).dataset.phase === p, [LAB, want], { timeout: 0 });
  const enabled = (sel) => page.waitForFunction((s) => !document.querySelector(s).disabled, sel, { timeout: 0 });
  // Skip the guess: start waits for it.
  await page.locator(`${LAB} .lab-predict .button-row button`).nth(1).click();
  await enabled(`${LAB} .lab-start`);
  await page.click(`${LAB} .lab-start`);
  await page.waitForFunction(
    (sel) => /^[1-9]/.test(document.querySelector(sel).textContent),
    `${LAB} [data-readout="step"]`,
    { timeout: 0 },
  );
  await page.click(`${LAB} .lab-pause`);
  await phase('paused');
  await page.click(`${LAB} .lab-reset`);
  await phase('idle');
  await enabled(`${LAB} .lab-start`);
  await page.click(`${LAB} .lab-start`);
  await phase('done');
}

// What a sample keeps of liveTrainerModules().
const trainerSample = ({ instances, live, liveBytes }) => ({
  made: instances.length,
  live: live.length,
  liveBytes,
  liveIds: live.map((m) => m.id),
  instances,
});

// Runs one soak. target: 'page' (index.html) or 'embed' (embed-demo.html).
// Returns the report verdict() judges; log(line) gets progress lines.
export async function soak({
  browser,
  baseUrl,
  target = 'page',
  moves,
  prompts,
  seed = 1,
  backend = 'auto',
  samples = 10,
  csp = true,
  log = () => {},
}) {
  const isPage = target === 'page';
  const query = isPage && backend !== 'auto' ? `?backend=${backend}` : '';
  const url = `${baseUrl}${isPage ? 'index.html' : 'embed-demo.html'}${query}`;
  const demoHost = isPage ? null : 'normlab-demo';
  const started = Date.now();
  const { page, cdp, problems, close } = await openSoakPage(browser, url, { csp });
  const report = {
    target,
    url,
    seed,
    backend,
    movesPlanned: moves,
    promptsPlanned: prompts,
    moves: 0,
    prompts: 0,
    skipped: 0,
    perControl: {},
    samples: [],
    problems,
    cspViolations: [],
    responsiveness: null,
    trainerModules: [],
    lab: null,
    error: null,
    seconds: 0,
  };
  try {
    // Loaded: the kernels in, every view painted with computed numbers.
    await withTimeout(
      page.waitForFunction(
        (p) =>
          p
            ? document.getElementById('backend')?.dataset.backend !== 'loading'
            : [...document.querySelectorAll('*')]
                .filter((n) => n.localName.startsWith('normlab-'))
                .every((n) => n.dataset.painted === 'computed'),
        isPage,
        { timeout: 0 },
      ),
      60_000,
      'loading',
    );
    report.loadedBackend = isPage
      ? await page.getAttribute('#backend', 'data-backend')
      : await page.evaluate(() => document.querySelector('normlab-demo').dataset.backend);

    const run = async (actions, what) =>
      withTimeout(
        page.evaluate((a) => window.__soak.run(a), actions),
        LIMITS.batchTimeoutMs,
        what,
      );
    const sample = async (phase) => {
      await withTimeout(
        page.evaluate(() => window.__soak.idle()),
        LIMITS.batchTimeoutMs,
        'settling',
      );
      const entry = {
        phase,
        moves: report.moves,
        prompts: report.prompts,
        seconds: (Date.now() - started) / 1000,
        wasm: await page.evaluate(() => window.__soak.memory()),
        js: await jsHeap(cdp),
        trainers: trainerSample(await liveTrainerModules(page, cdp)),
        lab: await page.evaluate(() => ({ ...window.__soak.lab })),
      };
      report.samples.push(entry);
      log(
        `  ${phase.padEnd(8)} ${String(entry.moves).padStart(6)} moves ${String(entry.prompts).padStart(5)} prompts  ` +
          `wasm ${entry.wasm.map((m) => `${mib(m.bufferBytes)} (malloc ${mib(m.mallocBytes)}, ${m.liveAllocations} live)`).join(', ')}  ` +
          `JS heap ${mib(entry.js.usedBytes)}  trainers ${entry.trainers.live} live of ${entry.trainers.made}` +
          `${entry.trainers.live ? ` (${mib(entry.trainers.liveBytes)})` : ''}  ${entry.seconds.toFixed(0)} s`,
      );
    };
    const probe = async () =>
      withTimeout(
        page.evaluate((a) => window.__soak.probe(a), probeActions(demoHost, isPage)),
        LIMITS.batchTimeoutMs,
        'the responsiveness probe',
      );

    const loadedAt = Date.now();
    // Warm-up: the heaviest settings, then a first stretch of the script
    // (the wasm memory is held to a later sample still: see LIMITS).
    const warm = warmupScript({ host: demoHost, page: isPage });
    await run(warm, 'warm-up');
    if (isPage) await withTimeout(warmUpLab(page), LIMITS.batchTimeoutMs, 'the lab warm-up');
    const heavyAt = Date.now();
    const script = makeScript({
      controls: isPage ? pageControls() : embedControls(),
      promptControls: isPage ? pagePromptControls() : embedPromptControls(),
      moves,
      prompts,
      seed,
    });
    const warmMoves = makeScript({
      controls: isPage ? pageControls() : embedControls(),
      promptControls: isPage ? pagePromptControls() : embedPromptControls(),
      moves: Math.min(300, Math.max(50, Math.round(moves / 20))),
      prompts: Math.max(5, Math.round(prompts / 20)),
      seed: seed + 1000,
    });
    for (let i = 0; i < warmMoves.length; i += BATCH) await run(warmMoves.slice(i, i + BATCH), 'warm-up');
    const movesAt = Date.now();
    const startTimes = await probe();
    log(
      `  loaded in ${((loadedAt - started) / 1000).toFixed(1)} s; warm-up: heaviest settings ${((heavyAt - loadedAt) / 1000).toFixed(1)} s, ` +
        `${warmMoves.length} moves ${((movesAt - heavyAt) / 1000).toFixed(1)} s, probes ${((Date.now() - movesAt) / 1000).toFixed(1)} s`,
    );
    await sample('warm-up');

    const every = Math.max(1, Math.ceil(script.length / samples));
    for (let i = 0; i < script.length; i += BATCH) {
      const batch = script.slice(i, i + BATCH);
      const applied = await run(batch, `moves ${i}..${i + batch.length}`);
      report.skipped += batch.length - applied;
      for (const a of batch) {
        if (a.prompt) report.prompts += 1;
        else report.moves += 1;
        report.perControl[a.control] = (report.perControl[a.control] ?? 0) + 1;
      }
      const done = i + batch.length;
      if (done % IDLE_EVERY < BATCH)
        await withTimeout(
          page.evaluate(() => window.__soak.idle()),
          LIMITS.batchTimeoutMs,
          'settling',
        );
      if (done < script.length && Math.floor(done / every) > Math.floor(i / every)) await sample('soak');
    }
    const endTimes = await probe();
    // The lab stopped as a reader leaves it: reset (a run in progress or the
    // results of one that ended), so no trainer may be left alive.
    if (isPage) await run([{ kind: 'click', sel: '[data-widget="training-lab"] .lab-reset' }], 'the lab reset');
    await sample('end');
    report.trainerModules = report.samples.at(-1).trainers.instances;
    report.lab = report.samples.at(-1).lab;
    report.responsiveness = {
      startMedianMs: median(startTimes),
      startMaxMs: Math.max(...startTimes),
      endMedianMs: median(endTimes),
      endMaxMs: Math.max(...endTimes),
      probes: startTimes.length,
    };
    report.cspViolations = await page.evaluate(() => window.cspViolations);
  } catch (error) {
    report.error = error.message;
  } finally {
    report.seconds = (Date.now() - started) / 1000;
    await close();
  }
  return report;
}

// The sample the wasm memory is held to: the first past a fifth of the run.
function settledSample(report, limits = LIMITS) {
  return (
    report.samples.find((s) => s.phase !== 'warm-up' && s.moves >= report.movesPlanned * limits.wasmSettledFraction) ??
    report.samples.find((s) => s.phase === 'end')
  );
}

export const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

// The reasons a run fails; empty when it passes.
export function verdict(report, limits = LIMITS) {
  const failures = [];
  if (report.error) failures.push(report.error);
  for (const p of report.problems) failures.push(p);
  for (const v of report.cspViolations) failures.push(`CSP violation: ${v}`);
  if (report.moves < report.movesPlanned || report.prompts < report.promptsPlanned) {
    failures.push(
      `only ${report.moves} of ${report.movesPlanned} moves and ${report.prompts} of ${report.promptsPlanned} prompt changes ran`,
    );
  }
  const warm = report.samples.find((s) => s.phase === 'warm-up');
  const end = report.samples.find((s) => s.phase === 'end');
  if (!warm || !end) {
    failures.push('no warm-up or end sample');
    return failures;
  }
  if (warm.wasm.length === 0) failures.push('no wasm module was seen');
  const settled = settledSample(report, limits);
  for (const s of report.samples) {
    s.wasm.forEach((m, i) => {
      if (m.bufferBytes > limits.wasmMaxBytes) {
        failures.push(
          `wasm memory (${m.backend}) ${mib(m.bufferBytes)} at ${s.moves} moves, over ${mib(limits.wasmMaxBytes)}`,
        );
      }
      const base = settled.wasm[i];
      if (s.moves >= settled.moves && s.phase !== 'warm-up' && base && m.bufferBytes > base.bufferBytes) {
        failures.push(
          `wasm memory (${m.backend}) grew after ${settled.moves} moves: ${base.bufferBytes} -> ${m.bufferBytes} bytes at ${s.moves} moves`,
        );
      }
    });
  }
  // The trainer's instances: the runner trains its runs in workers, as many
  // at once as the machine has cores but one, each holding one instance,
  // and terminates a run's worker when it ends or is reset (on the main
  // thread, one run at a time, deleting its trainer before it makes the
  // next); so after a forced GC at most that many are alive at any sample,
  // and none once the lab was reset at the end.
  for (const s of report.samples) {
    if (s.trainers.live > limits.trainersLiveMax) {
      failures.push(
        `${s.trainers.live} trainer instances alive at ${s.moves} moves (${s.phase}; ids ${s.trainers.liveIds.join(', ')}, ` +
          `${mib(s.trainers.liveBytes)}), over ${limits.trainersLiveMax}`,
      );
    }
  }
  if (end.trainers.live > 0) {
    failures.push(
      `${end.trainers.live} of ${end.trainers.made} trainer instances still alive at the end, after the lab's reset ` +
        `and a forced GC (ids ${end.trainers.liveIds.join(', ')}, ${mib(end.trainers.liveBytes)})`,
    );
  }
  const allowed = Math.max(warm.js.usedBytes * limits.jsHeapGrowthFraction, limits.jsHeapGrowthBytes);
  if (end.js.usedBytes - warm.js.usedBytes > allowed) {
    failures.push(
      `JS heap after GC grew ${mib(end.js.usedBytes - warm.js.usedBytes)} (${mib(warm.js.usedBytes)} -> ` +
        `${mib(end.js.usedBytes)}), over the ${mib(allowed)} allowed`,
    );
  }
  const r = report.responsiveness;
  if (r) {
    if (r.endMedianMs > limits.responsivenessMaxMs)
      failures.push(`input to frame took ${r.endMedianMs.toFixed(0)} ms (median) at the end`);
    if (r.endMedianMs > limits.responsivenessFactor * r.startMedianMs && r.endMedianMs > limits.responsivenessFloorMs) {
      failures.push(
        `input to frame slowed from ${r.startMedianMs.toFixed(1)} to ${r.endMedianMs.toFixed(1)} ms (median)`,
      );
    }
  }
  return failures;
}

export function summary(report) {
  const warm = report.samples.find((s) => s.phase === 'warm-up');
  const end = report.samples.find((s) => s.phase === 'end');
  const lines = [
    `${report.target} (${report.url.replace(/^.*\//, '')}, ${report.loadedBackend ?? '?'} backend, seed ${report.seed}): ` +
      `${report.moves} moves + ${report.prompts} prompt changes in ${report.seconds.toFixed(0)} s` +
      `${report.skipped ? ` (${report.skipped} clicks on disabled buttons skipped)` : ''}`,
  ];
  if (warm && end) {
    const settled = settledSample(report);
    warm.wasm.forEach((m, i) => {
      const e = end.wasm[i];
      lines.push(
        `  wasm memory (${m.backend}): ${m.bufferBytes} B after warm-up, ${settled.wasm[i]?.bufferBytes} B at ${settled.moves} moves, ` +
          `${e.bufferBytes} B at the end; ` +
          `malloc'd ${m.mallocBytes} -> ${e.mallocBytes} B; live allocations ${m.liveAllocations} -> ${e.liveAllocations}`,
      );
    });
    lines.push(
      `  JS heap after GC: ${mib(warm.js.usedBytes)} after warm-up, ${mib(end.js.usedBytes)} at the end ` +
        `(${((end.js.usedBytes / warm.js.usedBytes - 1) * 100).toFixed(1)}%); samples ${report.samples.map((s) => mib(s.js.usedBytes).replace(' MiB', '')).join(', ')} MiB`,
    );
  }
  if (end?.trainers.made) {
    const made = end.trainers.instances;
    const bytes = made.map((m) => m.maxBytes);
    const lab = report.lab;
    lines.push(
      `  trainer instances: ${made.length} made, at most ${Math.max(...report.samples.map((s) => s.trainers.live))} alive at a sample ` +
        `(after GC), ${end.trainers.live} at the end; each one's wasm memory ${mib(made[0].createdBytes)} when made, ` +
        `at most ${mib(Math.min(...bytes))} to ${mib(Math.max(...bytes))} while alive`,
      `  lab contrasts: ${lab.started} started, ${lab.finished} finished, ${lab.resetMidRun} reset mid-run, ` +
        `${lab.resetAfterEnd} reset after the end, ${lab.paused} paused`,
    );
  }
  const r = report.responsiveness;
  if (r) {
    lines.push(
      `  input to painted frame: median ${r.startMedianMs.toFixed(1)} ms at the start, ${r.endMedianMs.toFixed(1)} ms at the end ` +
        `(max ${r.startMaxMs.toFixed(1)} / ${r.endMaxMs.toFixed(1)} ms, ${r.probes} probes each)`,
    );
  }
  lines.push(
    `  console errors, page errors, failed requests, CSP violations: ${report.problems.length + report.cspViolations.length}`,
  );
  return lines.join('\n');
}

// ------------------------------------------------------------ the CLI

function parseArgs(argv) {
  const options = {
    moves: 10_000,
    prompts: 1_000,
    embedMoves: 500,
    embedPrompts: 50,
    seed: 1,
    backend: 'auto',
    samples: 10,
    json: null,
  };
  const names = {
    '--moves': 'moves',
    '--prompts': 'prompts',
    '--embed-moves': 'embedMoves',
    '--embed-prompts': 'embedPrompts',
    '--seed': 'seed',
    '--backend': 'backend',
    '--samples': 'samples',
    '--json': 'json',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || argv[i + 1] === undefined) throw new Error(`unknown or incomplete option ${argv[i]}`);
    options[key] = ['backend', 'json'].includes(key) ? argv[i + 1] : Number(argv[i + 1]);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const browser = await launchBrowser();
  const server = await startServer();
  const reports = [];
  let failed = false;
  try {
    for (const [target, moves, prompts] of [
      ['page', options.moves, options.prompts],
      ['embed', options.embedMoves, options.embedPrompts],
    ]) {
      if (moves + prompts === 0) continue;
      console.log(`[soak] ${target}: ${moves} moves and ${prompts} prompt changes (seed ${options.seed})`);
      const report = await soak({
        browser,
        baseUrl: server.url,
        target,
        moves,
        prompts,
        seed: options.seed,
        backend: options.backend,
        samples: options.samples,
        log: (line) => console.log(line),
      });
      reports.push(report);
      console.log(summary(report));
      const failures = verdict(report);
      for (const f of failures) console.log(`  FAIL: ${f}`);
      if (failures.length) failed = true;
      else console.log('  pass');
    }
  } finally {
    await browser.close();
    server.stop();
  }
  if (options.json) {
    mkdirSync(dirname(options.json), { recursive: true });
    writeFileSync(options.json, JSON.stringify({ limits: LIMITS, reports }, null, 2));
    console.log(`[soak] report: ${options.json}`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
