// The demo panel's wiring, one function for the page and for every custom
// element that shows a part of it (<normlab-demo>, <normlab-layer-chart>,
// <normlab-gain>, <normlab-gradient-flow>): which settings the model takes,
// which inputs the controls change, the walk's hooks, when the walk first
// sees the chart, what is painted in which order, and what runs after the
// paint. The behaviour itself (model passes, their schedule, the walk) is
// the demo controller's (demo-controller.js); where the parts sit is the
// caller's (index.html's sections, the element's shadow root).
//
// createDemoPanel(parts, env)
//   parts: the widget boxes the panel fills, each optional: controls, gain,
//     chart, autorun (the walk: needs chart and env.walk), breakdown,
//     attention, gradient. A panel of the gradient view alone runs no
//     forward pass.
//   env: {
//     win,
//     state()       the state object (state.js) the panel reads,
//     set(changes)  changes it and repaints (the panel has told the
//                   controller of the input first),
//     render()      repaints,
//     guard(name, fn)  paints one view; a failure stays in that view,
//     scheduler     schedule.js's, for the attention view off screen,
//     timing        record User Timing measures (tests/bench/page-perf.mjs),
//     walk          with parts.autorun: { store (the learner store the
//                   prediction is kept in), startsOff, asks(), off() (a walk
//                   not started yet is turned off), onStep(step), onEnd() },
//     gain          with parts.gain: { options (createGainWidget's), data(nl,
//                   view, settings, synthetic()) } (default: the synthetic
//                   sample alone),
//   }
// returns { demo, walk, input(), paint(nl, ctx) -> the forward view,
//   prepare(nl, ctx) -> a promise, connected(), disconnected() }
import { gainView } from '../compute.js';
import { createDemoController } from '../demo-controller.js';
import { createAttentionWidget } from '../widgets/attention.js';
import { createAutorunWidget } from '../widgets/autorun.js';
import { createGainWidget } from '../widgets/gain.js';
import { createGradientFlow } from '../widgets/gradient-flow.js';
import { createLayerBreakdown } from '../widgets/layer-breakdown.js';
import { createLayerChart } from '../widgets/layer-chart.js';
import { createModelControls } from '../widgets/model-controls.js';

// The settings as the model takes them; the prompt's default (null) is the
// language's example prompt.
export function modelSettings(state, t) {
  const prompt = state.prompt ?? t('model.defaultPrompt');
  return { prompt, norm: state.norm, placement: state.placement, depth: state.depth, eps: state.eps };
}

// The gradient views' settings: the forward views' prompt, norm and eps at
// their own depth.
export function gradientSettings(settings, state) {
  return { prompt: settings.prompt, norm: settings.norm, eps: settings.eps, depth: state.gradDepth };
}

// The layer shown: the state's, within the view's depth.
export const layerOf = (state, view) => Math.min(state.layer, (view?.layers ?? state.depth) - 1);

// The synthetic sample's gains, the only source without a training lab.
const SYNTHETIC_CHOICE = { source: 'synthetic', run: null, layer: 0, which: 'inputNorm' };

export function createDemoPanel(parts, env) {
  const { win } = env;
  const reducedMotion = Boolean(win.matchMedia?.('(prefers-reduced-motion: reduce)').matches);
  const walkHooks = parts.autorun ? env.walk : null;
  const demo = createDemoController({
    win,
    render: () => env.render(),
    timing: env.timing,
    walk: walkHooks && {
      startsOff: walkHooks.startsOff,
      manual: reducedMotion,
      depth: () => env.state().depth,
      onStep: (step) => {
        walkHooks.onStep?.(step);
        set({ layer: step.layer });
      },
      onEnd: () => {
        walkHooks.onEnd?.();
        env.render();
      },
      store: walkHooks.store,
      asks: () => walkHooks.asks(),
      settings: () => env.state(),
    },
  });
  const autorun = demo.walk;
  // An input: the controller hears of it before the state changes.
  function set(changes) {
    demo.input();
    env.set(changes);
  }
  const state = () => env.state();

  const controls =
    parts.controls &&
    createModelControls(parts.controls, {
      prompt: (prompt) => set({ prompt }),
      resetPrompt: () => set({ prompt: null }),
      norm: (norm) => set({ norm }),
      placement: (placement) => set({ placement }),
      depth: (depth) => set({ depth, layer: Math.min(state().layer, depth - 1) }),
      eps: (eps) => set({ eps }),
    });
  const gain = parts.gain && createGainWidget(parts.gain, env.gain?.options ?? { withLab: false });
  const chart =
    parts.chart &&
    createLayerChart(parts.chart, {
      scale: (layerScale) => set({ layerScale }),
      ...(autorun && { predictMove: (which, value) => autorun.predictMove(which, value) }),
    });
  const autorunWidget = autorun && createAutorunWidget(parts.autorun, autorun);
  const breakdown =
    parts.breakdown &&
    createLayerBreakdown(parts.breakdown, {
      layer: (layer) => {
        autorun?.handOver();
        set({ layer });
      },
    });
  const attention = parts.attention && createAttentionWidget(parts.attention);
  const gradient = parts.gradient && createGradientFlow(parts.gradient, { depth: (gradDepth) => set({ gradDepth }) });
  const runsForward = Boolean(controls || gain || chart || breakdown || attention);

  // The walk starts the first time the chart comes into view, once the model
  // can fill it (paint()).
  const walk = { seen: !('IntersectionObserver' in win), suspended: false };
  if (autorun && !walk.seen) {
    const observer = new win.IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        walk.seen = true;
        env.render();
      },
      { threshold: 0.25 },
    );
    observer.observe(parts.chart);
  }

  // The gradient views' backward passes (two stacks, the panel's heaviest
  // work: at load, about 150 ms each on a desktop, four times that on a
  // phone-class CPU, one task each) run only while their view is near the
  // screen (within half a screen, as schedule.js's views): a page loaded
  // far above them never waits on them. Settings changed while the view is
  // away are computed when it comes near. Without IntersectionObserver they
  // run at once.
  const gradientsNear = { near: !gradient || !('IntersectionObserver' in win) };
  if (!gradientsNear.near) {
    const observer = new win.IntersectionObserver(
      (entries) => {
        const near = entries.at(-1).isIntersecting;
        if (near === gradientsNear.near) return;
        gradientsNear.near = near;
        if (near) env.render();
      },
      { rootMargin: '50% 0px' },
    );
    // The section, not the view: the browser skips rendering a section off
    // screen (content-visibility), and with it the intersections inside.
    observer.observe(parts.gradient.closest('.demo-part') ?? parts.gradient);
  }

  let paintedLang = null;
  let paintedGradients = null;

  // Paints every part; returns the forward view (null before the model).
  function paint(nl, ctx) {
    const s = state();
    if (autorun) {
      // Only a walk that has not started yet is turned off: Play still works.
      if (autorun.status === 'waiting' && walkHooks.off?.()) autorun.handOver();
      if (nl && walk.seen) autorun.firstView();
    }
    const settings = modelSettings(s, ctx.t);
    let forward = null;
    let gradients = { busy: false, result: null, deferred: false };
    if (nl && runsForward) env.guard('model', () => (forward = demo.forward(nl, settings)));
    if (nl && gradient) gradients = demo.gradients(nl, gradientSettings(settings, s), !gradientsNear.near);
    const view = forward?.view ?? null;
    const layer = layerOf(s, view);
    if (controls) {
      env.guard('model settings', () =>
        controls.update({ settings, isDefaultPrompt: s.prompt === null, forward }, ctx),
      );
    }
    if (gain) env.guard('learned gain', () => gain.update(gainData(nl, view, settings), ctx));
    const walkView = autorun?.view(view);
    if (autorunWidget) {
      env.guard('auto-run', () => autorunWidget.update({ ...walkView, depth: s.depth, reducedMotion, view }, ctx));
    }
    if (chart) {
      const data = { view, layer, scale: s.layerScale, ...(walkView && { walk: walkView }) };
      env.guard('layer chart', () => chart.update(data, ctx));
    }
    if (breakdown) env.guard('layer breakdown', () => breakdown.update({ view, layer, depth: s.depth }, ctx));
    if (attention) {
      env.scheduler.view(
        parts.attention,
        [view, layer, s.lang],
        () => attention.update({ view, layer }, ctx),
        paintedLang !== s.lang,
      );
    }
    paintedLang = s.lang;
    if (gradient) {
      env.guard('gradient flow', () => gradient.update({ depth: s.gradDepth, ...gradients }, ctx));
      if (env.timing && gradients.result && paintedGradients !== gradients.result) {
        win.performance.measure('normlab:gradient-views', {
          start: demo.runtime.gradients.inputAt,
          end: win.performance.now(),
        });
      }
      paintedGradients = gradients.result;
    }
    // After the gradient views: the idle work must not delay them.
    if (forward) demo.idle();
    return view;
  }

  function gainData(nl, view, settings) {
    const synthetic = () => (nl && view ? gainView(demo.gains(nl, settings), view) : null);
    if (env.gain?.data) return env.gain.data(nl, view, settings, synthetic);
    return { choice: SYNTHETIC_CHOICE, runs: [], gains: synthetic() };
  }

  return {
    demo,
    walk: autorun,
    // An input outside the panel happened (the page's other views): returns
    // whether a backward pass waiting for the input to settle was put off
    // (demo-controller.js input()).
    input: () => demo.input(),
    paint,
    // Before the first paint with the kernels nl: the forward views' first
    // pass in slices (demo-controller.js prepare()); resolves when done.
    prepare: (nl, ctx) => (runsForward ? demo.prepare(nl, modelSettings(state(), ctx.t)) : Promise.resolve()),
    // Taken out of the document, the walk pauses; put back, it goes on.
    disconnected() {
      if (!autorun) return;
      walk.suspended = autorun.status === 'running';
      autorun.pause();
      env.render();
    },
    connected() {
      if (!autorun) return;
      if (walk.suspended) autorun.resume();
      walk.suspended = false;
      env.render();
    },
  };
}
