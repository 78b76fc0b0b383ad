// The demo panel's behaviour, one module for the page and for the custom
// elements that show the synthetic model (<normlab-demo>, <normlab-layer-chart>,
// <normlab-gain>, <normlab-gradient-flow>): which model instances exist, when
// forward and backward passes run, what runs in idle time, and the auto-run
// walk. The demo panel's wiring (panels/demo-panel.js), which the page and
// the elements share, drives it: it calls forward(), gains(), gradients()
// while painting, idle() after, input() on every input, and gets render()
// back when work finished in the background brings something new to show.
//
// Everything here that is not URL state lives in one object, `runtime`
// (below): the model pool it uses, the last forward view and the last good
// one, the gain sample, the gradient views' schedule and results, the idle
// extension and the walk (with the prediction the reader is making). What a
// model keeps between passes (the prompt's run) the wasm module keeps.
//
// Model instances. Every instance is DEPTH_MAX layers deep: layer l's
// weights depend on the seed and l alone, so the first `depth` layers of one
// are the depth-layer model, for forward and backward passes alike, and
// instances differ only in (norm, placement, eps). The wasm module keeps the
// last forward pass's run, for the instance that ran it: a depth move of the
// forward views computes only the layers not run yet for this prompt (none
// going down), a keystroke only the rows after the unchanged prefix.
// In idle time it runs the prompt on to DEPTH_MAX (model.extend), so a jump
// finds its layers run.
//
// The instances live in one pool per normlab instance (modelPool), shared by
// every controller on it: the page's, or all the custom elements' of a page.
// The pool keeps the MODEL_POOL_SIZE most recently used and deletes the
// rest: wasm memory, which never shrinks, holds as much for the embed demo
// as for the page.
import { autorunSteps, createAutorun, drawnAt } from './autorun.js';
import { forwardView, gainStats, gradientView, normScaling, promptProblem, promptTokenCount } from './compute.js';
import {
  AUTORUN_STEP_MS,
  DEPTH_MAX,
  GAIN_SAMPLE_SEED,
  GAIN_SAMPLE_SIZE,
  GAIN_SOURCE,
  GRADIENT_SETTLE_MS,
  MIN_GRADIENT_TOKENS,
  MODEL_SHAPE,
} from './constants.js';
import {
  CURVE_GUESS_MAX,
  CURVE_GUESS_MIN,
  compareCurves,
  readPredictions,
  recordState,
  settingsFromKey,
  settingsKey,
  writePrediction,
} from './predictions.js';
import { seededSample } from './seeded-vector.js';

// Instances a pool keeps: the forward views' and the gradient views' other
// placement (the gradient pair's one placement is the forward views'
// instance), and one spare, so that switching a setting back skips drawing
// its weights again. Each holds its parameters alone (4.4 MB at DEPTH_MAX
// layers); what a run needs besides is scratch the module's models share.
export const MODEL_POOL_SIZE = 3;
// Forward views kept, by configuration and prompt: toggling a setting back
// (placement, norm, a depth) repaints a kept view without a forward pass (the
// module keeps one run, the last one's). A view holds per-layer means only.
const FORWARD_VIEWS_KEPT = 4;
// Gradient results kept: a few dozen small arrays.
const GRADIENT_CACHE_SIZE = 32;
// The idle extension's time per idle slot: it runs a layer at a time (about
// 3 ms each on a desktop once compiled, four times that on a phone-class CPU)
// until this much time has gone, so no slot is a long task.
const EXTEND_SLOT_MS = 8;
// Layers per task of the first forward pass's slices (prepare()).
const PREPARE_LAYERS = 2;

export function modelConfig({ norm, placement, depth, eps }) {
  return { ...MODEL_SHAPE, norm, placement, layers: depth, eps };
}

// The instance that runs the settings' norm, placement and eps at any depth
// (see above).
export function forwardModelConfig(settings) {
  return modelConfig({ ...settings, depth: DEPTH_MAX });
}

const configKey = (c) => `${c.norm}|${c.placement}|${c.layers}|${c.eps}`;

// For tests only: a page or test harness that sets window.NORMLAB_WALK_STEP_MS
// to a number of milliseconds (before the page's scripts run) gets a walk
// that lasts that long per narrated step, so a browser test need not wait
// for the reading pace. Nothing in the page sets it.
export function walkStepMs(win) {
  const ms = win.NORMLAB_WALK_STEP_MS;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : AUTORUN_STEP_MS;
}

const pools = new WeakMap();

// The model pool of normlab instance nl: { models (key -> instance, least to
// most recently used), take(config), peek(config), join(), leave() }. take
// returns the instance for config, made if missing, and deletes the least
// recently used beyond MODEL_POOL_SIZE; peek returns it only if it exists.
// A controller joins the pool when it first takes from it and leaves it when
// disposed; the last to leave deletes every instance.
export function modelPool(nl) {
  let pool = pools.get(nl);
  if (pool) return pool;
  const models = new Map();
  let users = 0;
  pool = {
    models,
    take(config) {
      const key = configKey(config);
      let model = models.get(key);
      if (model) models.delete(key);
      else model = nl.createModel(config);
      models.set(key, model);
      for (const [old, instance] of models) {
        if (models.size <= MODEL_POOL_SIZE) break;
        instance.delete();
        models.delete(old);
      }
      return model;
    },
    peek: (config) => models.get(configKey(config)) ?? null,
    join() {
      users += 1;
    },
    leave() {
      users -= 1;
      if (users > 0) return;
      for (const model of models.values()) model.delete();
      models.clear();
    },
  };
  pools.set(nl, pool);
  return pool;
}

// win: the window (timers, idle callbacks, performance); render(): repaint
// soon; timing: record User Timing measures (tests/bench/page-perf.mjs);
// walk: the walk's hooks { startsOff, manual, depth(), onStep(step),
// onEnd(), store, asks(), settings() } (createDemoWalk below).
export function createDemoController({ win, render, timing = false, walk = null }) {
  const runtime = {
    // The model pool this controller joined (modelPool), once it ran a pass.
    pool: null,
    // The forward views: the last computed view and its key, the last good
    // view, kept (and marked stale) while the prompt has a problem, the
    // configuration of the instance that ran it (the idle extension goes on
    // with it), and the last FORWARD_VIEWS_KEPT views by key, least to most
    // recently shown.
    forward: { key: null, view: null, lastGood: null, instance: null, views: new Map() },
    gainView: null,
    // Backward passes wait for the input to settle (GRADIENT_SETTLE_MS), then
    // run one stack per task; results are kept for the last few settings.
    gradients: { key: null, timer: null, settling: false, busy: false, result: null, inputAt: 0, cache: new Map() },
    extension: { handle: null },
    lastInputAt: 0,
  };

  const request = win.requestIdleCallback ? (fn) => win.requestIdleCallback(fn) : (fn) => win.setTimeout(fn, 50);
  const cancelIdle = win.cancelIdleCallback ? (h) => win.cancelIdleCallback(h) : (h) => win.clearTimeout(h);

  function measure(name, start) {
    if (timing) win.performance.measure(name, { start, end: win.performance.now() });
  }

  // The pool of nl, joined (an element switched to another backend leaves
  // the old instance's pool).
  function poolOf(nl) {
    const pool = modelPool(nl);
    if (runtime.pool !== pool) {
      runtime.pool?.leave();
      runtime.pool = pool;
      pool.join();
    }
    return pool;
  }

  // ---- forward views

  // The forward views' data for the settings ({ prompt, norm, placement,
  // depth, eps }): { prompt, tokens, error, view }.
  function forward(nl, settings) {
    const { prompt } = settings;
    const tokens = promptTokenCount(prompt);
    const problem = promptProblem(prompt);
    const state = runtime.forward;
    if (problem) return { prompt, tokens, error: problem, view: state.lastGood };
    const config = modelConfig(settings);
    const key = `${configKey(config)}|${prompt}`;
    if (state.key !== key) {
      const instance = forwardModelConfig(settings);
      let view = state.views.get(key);
      if (view) {
        state.views.delete(key);
        // Its instance, if the pool still has it, is in use again.
        const pool = poolOf(nl);
        if (pool.peek(instance)) pool.take(instance);
      } else {
        try {
          let start = win.performance.now();
          const run = poolOf(nl).take(instance).forward(prompt, { topK: 5, layers: settings.depth });
          measure('normlab:forward:run', start);
          start = win.performance.now();
          view = forwardView(run, config, prompt);
          measure('normlab:forward:view', start);
        } catch (error) {
          return {
            prompt,
            tokens,
            error: { code: 'errModel', params: { message: error.message } },
            view: state.lastGood,
          };
        }
      }
      state.views.set(key, view);
      if (state.views.size > FORWARD_VIEWS_KEPT) state.views.delete(state.views.keys().next().value);
      state.key = key;
      state.view = view;
      state.instance = instance;
    }
    state.lastGood = state.view;
    return { prompt, tokens, error: null, view: state.view };
  }

  // A fixed sample of one norm's gains. Layer l's weights come from (seed, l)
  // alone, so every configuration holds the same gains here; they are read
  // once, from the forward views' model.
  function gains(nl, settings) {
    if (runtime.gainView) return runtime.gainView;
    const model = runtime.pool?.peek(forwardModelConfig(settings));
    if (!model) return null;
    const all = model.gains(GAIN_SOURCE.layer, GAIN_SOURCE.which);
    const features = seededSample(all.length, GAIN_SAMPLE_SIZE, GAIN_SAMPLE_SEED);
    const values = features.map((i) => all[i]);
    runtime.gainView = {
      ...GAIN_SOURCE,
      hidden: all.length,
      seed: GAIN_SAMPLE_SEED,
      features,
      values,
      ...gainStats(nl, values, all),
    };
    return runtime.gainView;
  }

  // Runs `step` more layers of the forward views' model for the prompt of its
  // last forward view, up to DEPTH_MAX, in the model only (the views are not
  // touched). Returns true while layers remain; false too once another
  // instance ran a forward pass since (the model then holds no kept run).
  function extend(step) {
    const model = runtime.forward.instance && runtime.pool?.peek(runtime.forward.instance);
    if (!model) return false;
    try {
      const depth = model.extend(step);
      return depth > 0 && depth < DEPTH_MAX;
    } catch {
      return false;
    }
  }

  // After a paint, in idle time, and after the gradient views (whose 100 ms
  // this must not delay): the forward views' model runs the rest of its
  // DEPTH_MAX layers, EXTEND_SLOT_MS per idle slot, so a later jump of the
  // depth slider finds its layers run and repaints in one frame. The next
  // paint starts over.
  function scheduleExtension() {
    const state = runtime.extension;
    if (state.handle !== null) cancelIdle(state.handle);
    const stepOnce = () => {
      state.handle = null;
      const g = runtime.gradients;
      if (g.busy || g.settling) {
        state.handle = request(stepOnce);
        return;
      }
      const start = win.performance.now();
      let more = extend(1);
      while (more && win.performance.now() - start < EXTEND_SLOT_MS) more = extend(1);
      if (more) state.handle = request(stepOnce);
    };
    state.handle = request(stepOnce);
  }

  // Before the first paint with the kernels: the forward views' first pass
  // for these settings, in slices, one task each (making the instance,
  // which draws its embedding; its first layer; then PREPARE_LAYERS more per
  // task, each drawing its layers' weights as it first reads them), so the
  // page is never held for the whole stack (a quarter of a second on a
  // desktop while the module's code is fresh, four times that on a
  // phone-class CPU). The paint's forward() then finds the layers run and
  // adds only the final norm and the head; the result is the same, bit for
  // bit. Resolves when done (or at once on a prompt the model refuses, or
  // when another model ran meanwhile: forward() then runs whole).
  async function prepare(nl, settings) {
    if (promptProblem(settings.prompt)) return;
    const yieldTask = () =>
      new Promise((resolve) => {
        if (!win.MessageChannel) return win.setTimeout(resolve, 0);
        const channel = new win.MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      });
    try {
      const model = poolOf(nl).take(forwardModelConfig(settings));
      await yieldTask();
      model.forward(settings.prompt, { topK: 1, layers: 1 });
      for (let depth = 1; depth < settings.depth;) {
        await yieldTask();
        const next = model.extend(Math.min(PREPARE_LAYERS, settings.depth - depth));
        if (next <= depth) return;
        depth = next;
      }
    } catch {
      // forward() reports it, in the paint.
    }
  }

  // ---- gradient views

  // One stack's backward pass for the gradient view (gradientView in
  // compute.js shapes it). For the pre-norm stack also its forward view, for
  // what its norms do to the gradient (normScaling); post-norm's backward
  // pass measures that itself. When the forward views show this very stack
  // (same settings and depth: a model's layers depend on the seed and the
  // layer alone), their last run serves, and no second forward pass runs.
  function runGradients(nl, settings) {
    const problem = promptProblem(settings.prompt, MIN_GRADIENT_TOKENS);
    if (problem) return { error: problem };
    try {
      const config = modelConfig(settings);
      const model = poolOf(nl).take(forwardModelConfig(settings));
      const view = gradientView(model.gradients(settings.prompt, { layers: settings.depth }), settings.placement);
      if (settings.placement === 'pre') {
        const shown = runtime.forward.view;
        const same =
          shown !== null && shown.prompt === settings.prompt && configKey(shown.config) === configKey(config);
        view.scaling = normScaling(
          same
            ? shown
            : forwardView(model.forward(settings.prompt, { topK: 1, layers: settings.depth }), config, settings.prompt),
        );
      }
      return view;
    } catch (error) {
      return { error: { code: 'errModel', params: { message: error.message } } };
    }
  }

  // The gradient views for { prompt, norm, eps, depth }: { busy, result,
  // deferred }. Backward passes are heavier than a repaint: they run once the
  // input has been still for GRADIENT_SETTLE_MS, one stack per task, so a
  // dragged slider is never held up by them; render() is called when they
  // are done. With `defer` (the views are far from the screen) nothing new
  // is scheduled: views not computed yet are busy and deferred, and the
  // next call without it schedules them.
  function gradients(nl, settings, defer = false) {
    const g = runtime.gradients;
    const key = JSON.stringify(settings);
    if (key === g.key) return { busy: g.busy, result: g.result, deferred: false };
    // (A prompt the passes refuse is not deferred: its message costs nothing.)
    if (defer && !g.cache.has(key) && !promptProblem(settings.prompt, MIN_GRADIENT_TOKENS))
      return { busy: true, result: g.result, deferred: true };
    g.key = key;
    g.inputAt = runtime.lastInputAt;
    win.clearTimeout(g.timer);
    g.settling = false;
    if (g.cache.has(key)) {
      // Shown in the next task's frame, not this one: the input that got here
      // may have a forward pass to show first.
      g.timer = win.setTimeout(() => {
        g.result = g.cache.get(key);
        g.busy = false;
        render();
      }, 0);
      return { busy: g.busy, result: g.result, deferred: false };
    }
    g.busy = true;
    // The settle time counts from the input itself, not from this paint
    // (which may have waited for a forward pass); an input before it runs out
    // cancels the timer at once (input()).
    g.settling = true;
    const wait = Math.max(0, g.inputAt + GRADIENT_SETTLE_MS - win.performance.now());
    g.timer = win.setTimeout(() => {
      g.settling = false;
      let start = win.performance.now();
      const pre = runGradients(nl, { ...settings, placement: 'pre' });
      measure('normlab:gradients:pre', start);
      g.timer = win.setTimeout(() => {
        if (g.key !== key) return;
        start = win.performance.now();
        const post = runGradients(nl, { ...settings, placement: 'post' });
        measure('normlab:gradients:post', start);
        g.result = { depth: settings.depth, norm: settings.norm, pre, post, error: pre.error ?? post.error ?? null };
        g.cache.set(key, g.result);
        if (g.cache.size > GRADIENT_CACHE_SIZE) g.cache.delete(g.cache.keys().next().value);
        g.busy = false;
        render();
      }, 0);
    }, wait);
    return { busy: g.busy, result: g.result, deferred: false };
  }

  // ---- the walk

  const demoWalk = walk && createDemoWalk({ win, render, runtime, hooks: walk });

  return {
    runtime,
    walk: demoWalk,
    forward,
    gains,
    gradients,
    extend,
    prepare,
    // Called after every paint that showed forward views.
    idle() {
      scheduleExtension();
    },
    // An input happened now. A backward pass still waiting for the input to
    // settle must not start before this input's frame: that frame schedules
    // it anew (the gradient views' paint). Returns whether one was waiting.
    input() {
      runtime.lastInputAt = win.performance.now();
      const g = runtime.gradients;
      if (!g.settling) return false;
      win.clearTimeout(g.timer);
      g.settling = false;
      g.key = null;
      return true;
    },
    dispose() {
      win.clearTimeout(runtime.gradients.timer);
      if (runtime.extension.handle !== null) cancelIdle(runtime.extension.handle);
      demoWalk?.pause();
      runtime.pool?.leave();
      runtime.pool = null;
    },
  };
}

// The walk with its prediction. Before the walk the reader predicts where
// the layer chart's two curves end (the residual stream after the last
// layer, the input norm's output at the last layer) and commits, or skips;
// the chart then shows only the stream's starting point. A waiting walk
// starts once the panel is in view and the prediction is in or skipped, and
// draws the curves as it goes; at the end (or at once, when the walk does
// not run by itself) the prediction is compared with what the model
// computed. A prediction is kept for the settings it was made for (norm,
// placement, depth) and compared only with those.
//
// hooks: { startsOff, manual (reduced motion: step by hand, nothing timed),
//   depth(), onStep(step), onEnd(), store (the learner store, or null: no
//   predictions), asks() (false: a link chose what to show; ask nothing),
//   settings() ({ norm, placement, depth }) }
function createDemoWalk({ win, render, runtime, hooks }) {
  // step: the walk's last step; draft: the prediction being made; invited:
  // the reader asked to predict where the page would not have asked.
  const state = (runtime.walk = { step: null, draft: null, invited: false });
  const record = () => readPredictions(hooks.store).d ?? null;
  const asking = () => Boolean(hooks.store) && (hooks.asks() || state.invited) && !record();
  const autorun = createAutorun({
    win,
    stepMs: walkStepMs(win),
    manual: hooks.manual,
    startsOff: hooks.startsOff,
    depth: hooks.depth,
    ready: () => !asking(),
    onStep: (step) => {
      state.step = step;
      hooks.onStep(step);
    },
    onEnd: () => hooks.onEnd(),
  });

  // The prediction inputs start where the stream starts: "nothing changes"
  // is the neutral guess.
  const start = () => runtime.forward.view?.residualL2[0] ?? null;
  const draft = () => ({ r: state.draft?.r ?? start(), n: state.draft?.n ?? start() });

  // After the reader's answer (or skip): a waiting walk may start; a walk
  // that does not run by itself leaves the chart drawn whole at once.
  function answered(value) {
    writePrediction(hooks.store, 'd', value);
    state.draft = null;
    autorun.check();
    render();
  }

  return {
    get status() {
      return autorun.status;
    },
    get step() {
      return autorun.step;
    },
    get manual() {
      return autorun.manual;
    },
    // Play with a prediction pending skips it: the reader chose to watch.
    play() {
      if (asking()) writePrediction(hooks.store, 'd', { s: 1 });
      autorun.play();
      render();
    },
    pause() {
      autorun.pause();
      render();
    },
    resume() {
      autorun.resume();
      render();
    },
    next() {
      autorun.next();
      render();
    },
    finish() {
      autorun.finish();
      render();
    },
    handOver: () => autorun.handOver(),
    firstView: () => autorun.firstView(),
    // which: 'r' | 'n'
    predictMove(which, value) {
      state.draft = { ...draft(), [which]: Math.min(CURVE_GUESS_MAX, Math.max(CURVE_GUESS_MIN, value)) };
      render();
    },
    commit() {
      const { r, n } = draft();
      if (r === null) return;
      answered({ r, n, k: settingsKey(hooks.settings()) });
    },
    skip() {
      answered({ s: 1 });
    },
    // Forget the prediction and ask again; the walk waits for the answer.
    again() {
      writePrediction(hooks.store, 'd', null);
      state.draft = null;
      state.invited = true;
      autorun.rewind();
      render();
    },
    // What the walk shows with this forward view: { status, manual, step,
    // steps, stage, from, to, layer, drawn (null: everything), prediction,
    // comparison }.
    view(view) {
      const depth = hooks.depth();
      const status = autorun.status;
      const step = state.step;
      const walking = status === 'running' || status === 'paused';
      const ask = asking();
      let drawn = null;
      if (ask || status === 'waiting') drawn = { residual: 0, norms: -1 };
      else if (walking && step) drawn = drawnAt(step.stage, step.layer, depth);
      const stored = record();
      const made = recordState(stored) === 'made';
      const matches = made && settingsKey(settingsFromKey(stored.k)) === settingsKey(hooks.settings());
      const values = ask ? draft() : made ? { r: stored.r, n: stored.n } : null;
      const prediction = {
        state: ask ? 'asking' : recordState(stored),
        // The markers on the chart: the draft while asking, the kept
        // prediction when it is for these settings.
        markers: values && (ask || matches) && values.r !== null ? values : null,
        matches,
        madeFor: made && !matches ? settingsFromKey(stored.k) : null,
        offered: Boolean(hooks.store),
      };
      const comparison = matches && view && !walking && status !== 'waiting' ? compareCurves(stored, view) : null;
      return {
        status,
        manual: autorun.manual,
        step: autorun.step,
        steps: step?.steps ?? autorunSteps(depth),
        stage: step?.stage ?? 'tokenize',
        from: step?.from ?? 0,
        to: step?.to ?? 0,
        layer: step?.layer ?? 0,
        drawn,
        prediction,
        comparison,
      };
    },
  };
}
