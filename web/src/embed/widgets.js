// The embeddable widgets: for each name, how to build it into a container
// and repaint it from an element's state. They reuse the page's widget
// modules and compute functions (web/src/widgets/*, compute.js); only the
// wiring (which state a widget reads, which inputs it changes) lives here.
import { computeSoftmaxView, createCalculatorModel, createPlaygroundModel, gainView } from '../compute.js';
import { createDemoController } from '../demo-controller.js';
import { createMemoryLearnerStore } from '../learner.js';
import { createAttentionWidget } from '../widgets/attention.js';
import { createAutorunWidget } from '../widgets/autorun.js';
import { createCalculator } from '../widgets/calculator.js';
import { el } from '../widgets/dom.js';
import { createGainWidget } from '../widgets/gain.js';
import { createGradientFlow } from '../widgets/gradient-flow.js';
import { createLayerBreakdown } from '../widgets/layer-breakdown.js';
import { createLayerChart } from '../widgets/layer-chart.js';
import { createModelControls } from '../widgets/model-controls.js';
import { createPlayground } from '../widgets/playground.js';
import { createSoftmaxWidget } from '../widgets/softmax.js';

// Widget names, as used in <normlab-NAME> and ?widget=NAME.
export const WIDGET_NAMES = [
  'softmax',
  'gain',
  'calculator',
  'layer-chart',
  'playground',
  'gradient-flow',
  'demo',
  'training-lab',
];

// The training lab's code and styles (lab.js, lab.css, beside the embed
// stylesheet) load on demand: the script once per document, as a classic
// script from 'self' (allowed by the strict CSP and from file://), the
// stylesheet linked in each element's shadow root.
let labScript = null;
function loadLab(win, url) {
  labScript ??= new Promise((resolve, reject) => {
    const script = win.document.createElement('script');
    script.src = url;
    script.onload = () => resolve(win.normlabLab);
    script.onerror = () => reject(new Error(`${url} did not load`));
    win.document.head.append(script);
  });
  return labScript;
}

// A box for one widget, as the page's .widget divs are.
function box(parent, name) {
  const node = el('div', { className: 'widget' });
  node.dataset.widget = name;
  parent.append(node);
  return node;
}

// A titled part of the demo panel: heading and (hideable) captions.
function part(parent, titleKey, ...captionKeys) {
  const section = el('section', { className: 'demo-part' });
  const title = el('h3', { className: 'nl-title' });
  const captions = captionKeys.map(() => el('p', { className: 'nl-caption' }));
  section.append(title, ...captions);
  parent.append(section);
  return {
    section,
    paint: ({ t, rich }) => {
      title.textContent = t(titleKey);
      captionKeys.forEach((key, i) => rich(captions[i], key));
    },
  };
}

// The model-based views: each element has its own demo controller (the
// page's: demo-controller.js), with its own views and schedule; the model
// instances are one pool per wasm instance, shared by every element on the
// page. model.set is env.set for the widget's inputs: it tells the
// controller an input happened.
function modelHelpers(env, walk = null) {
  const win = env.window;
  const demo = createDemoController({ win, render: () => env.render(), walk });
  const settings = (state, t) => ({
    prompt: state.prompt ?? t('model.defaultPrompt'),
    norm: state.norm,
    placement: state.placement,
    depth: state.depth,
    eps: state.eps,
  });
  const gradientSettings = (s, state) => ({ prompt: s.prompt, norm: s.norm, eps: s.eps, depth: state.gradDepth });
  function forward(nl, state, t) {
    const s = settings(state, t);
    if (!nl) return { settings: s, forward: null, view: null };
    const result = demo.forward(nl, s);
    demo.idle();
    return { settings: s, forward: result, view: result.view };
  }
  function gradients(nl, state, t) {
    if (!nl) return { busy: false, result: null };
    return demo.gradients(nl, gradientSettings(settings(state, t), state));
  }
  const set = (changes) => {
    demo.input();
    env.set(changes);
  };
  return { demo, forward, gradients, set };
}

const layerOf = (state, view) => Math.min(state.layer, (view?.layers ?? state.depth) - 1);

// Each builder gets the container and env { window, set(changes), render(),
// state(), options(), guard(what, fn), assets (the embed stylesheet's URL,
// beside which the other assets are) } and returns paint(nl, state, ctx).
const BUILDERS = {
  // The training lab, with a guess kept in the element's own memory.
  'training-lab'(root, env) {
    const node = box(root, 'training-lab');
    const mount = el('div');
    node.append(el('link', { rel: 'stylesheet', href: new URL('lab.css', env.assets).href }), mount);
    const win = env.window;
    let lab = null;
    let view = null;
    loadLab(win, new URL('lab.js', env.assets).href).then(
      (api) => {
        lab = api.mount(mount, { win, doc: win.document, store: createMemoryLearnerStore() });
        if (view) lab.update(view);
      },
      (error) => console.error('normlab: the training lab did not load:', error),
    );
    return (nl, state) => {
      view = { lang: state.lang, nl };
      lab?.update(view);
    };
  },
  softmax(root, env) {
    const widget = createSoftmaxWidget(box(root, 'softmax'), {
      onMagnitude: (l2) => env.set({ l2 }),
      onGrowth: (softmaxGrowth) => env.set({ softmaxGrowth }),
    });
    return (nl, state, ctx) => widget.update(nl && computeSoftmaxView(nl, state.l2, state.softmaxGrowth), ctx);
  },
  calculator(root, env) {
    const compute = createCalculatorModel();
    const widget = createCalculator(box(root, 'calculator'), {
      onVector: (vector) => env.set({ vector }),
      onEps: (eps) => env.set({ eps }),
    });
    return (nl, state, ctx) =>
      widget.update(
        nl ? compute(nl, state.vector, state.eps) : { text: state.vector, eps: state.eps, error: null, result: null },
        ctx,
      );
  },
  playground(root, env) {
    const compute = createPlaygroundModel();
    const widget = createPlayground(box(root, 'playground'), {
      onStretch: (stretch) => env.set({ stretch }),
      onEps: (eps) => env.set({ eps }),
    });
    return (nl, state, ctx) => widget.update(nl && compute(nl, state.stretch, state.eps), ctx);
  },
  gain(root, env) {
    const model = modelHelpers(env);
    // An element has no training lab: the synthetic sample only.
    const widget = createGainWidget(box(root, 'gain'), { withLab: false });
    const choice = { source: 'synthetic', run: null, layer: 0, which: 'inputNorm' };
    return (nl, state, ctx) => {
      const { settings, view } = model.forward(nl, state, ctx.t);
      const gains = nl && view ? gainView(model.demo.gains(nl, settings), view) : null;
      widget.update({ choice, runs: [], gains }, ctx);
    };
  },
  'layer-chart'(root, env) {
    const model = modelHelpers(env);
    const widget = createLayerChart(box(root, 'layer-chart'), { scale: (layerScale) => model.set({ layerScale }) });
    return (nl, state, ctx) => {
      const { view } = model.forward(nl, state, ctx.t);
      widget.update({ view, layer: layerOf(state, view), scale: state.layerScale }, ctx);
    };
  },
  'gradient-flow'(root, env) {
    const model = modelHelpers(env);
    const widget = createGradientFlow(box(root, 'gradient-flow'), { depth: (gradDepth) => model.set({ gradDepth }) });
    return (nl, state, ctx) => widget.update({ depth: state.gradDepth, ...model.gradients(nl, state, ctx.t) }, ctx);
  },
  // The page's demo panel: settings, the walk with its prediction, layer
  // chart, breakdown, attention and gradient flow, driven by one model. As on
  // the page, the reader first predicts where the chart's curves end (kept
  // in the element's own memory: an element shares no storage with the page
  // around it); the walk starts once the chart has come into view and the
  // prediction is in or skipped, unless the element says autorun="off"
  // (the curves then appear whole once the prediction is in) or names a
  // layer (then nothing is asked and that layer shows), or the reader asked
  // for reduced motion (then they step through it by hand). A read-only
  // element (hide="controls") asks nothing either.
  demo(root, env) {
    const parts = [];
    const add = (titleKey, ...captionKeys) => {
      const p = part(root, titleKey, ...captionKeys);
      parts.push(p);
      return p.section;
    };
    const win = env.window;
    const reducedMotion = Boolean(win.matchMedia?.('(prefers-reduced-motion: reduce)').matches);
    const walk = { seen: false, suspended: false };
    const model = modelHelpers(env, {
      // Starts 'waiting'; paint() turns it off when the options say so.
      startsOff: false,
      manual: reducedMotion,
      depth: () => env.state().depth,
      onStep: (step) => model.set({ layer: step.layer }),
      onEnd: () => env.render(),
      store: createMemoryLearnerStore(),
      // A read-only figure (hide="controls") has no way to answer.
      asks: () => !env.options().given.includes('layer') && !env.options().hide.has('controls'),
      settings: () => env.state(),
    });
    const autorun = model.demo.walk;
    const controls = createModelControls(box(add('demo.settings', 'demo.settingsIntro'), 'model-controls'), {
      prompt: (prompt) => model.set({ prompt }),
      resetPrompt: () => model.set({ prompt: null }),
      norm: (norm) => model.set({ norm }),
      placement: (placement) => model.set({ placement }),
      depth: (depth) => model.set({ depth, layer: Math.min(env.state().layer, depth - 1) }),
      eps: (eps) => model.set({ eps }),
    });
    // The chart, then the walk's prediction, stage and controls right below
    // it, where the walk is watched.
    const chartPart = add('demo.layerChart', 'demo.layerChartIntro', 'demo.autorunIntro');
    const chartBox = box(chartPart, 'layer-chart');
    const chart = createLayerChart(chartBox, {
      scale: (layerScale) => model.set({ layerScale }),
      predictMove: (which, value) => autorun.predictMove(which, value),
    });
    const autorunBox = box(chartPart, 'autorun');
    autorunBox.classList.add('widget-compact');
    const autorunWidget = createAutorunWidget(autorunBox, autorun);
    const breakdown = createLayerBreakdown(box(add('demo.breakdown', 'demo.breakdownIntro'), 'layer-breakdown'), {
      layer: (layer) => {
        autorun.handOver();
        model.set({ layer });
      },
    });
    const attention = createAttentionWidget(box(add('demo.attention', 'demo.attentionIntro'), 'attention'));
    const gradient = createGradientFlow(box(add('demo.gradient', 'demo.gradientIntro'), 'gradient-flow'), {
      depth: (gradDepth) => model.set({ gradDepth }),
    });
    if ('IntersectionObserver' in win) {
      const observer = new win.IntersectionObserver(
        (entries) => {
          if (!entries.some((e) => e.isIntersecting)) return;
          observer.disconnect();
          walk.seen = true;
          env.render();
        },
        { threshold: 0.25 },
      );
      observer.observe(chartBox);
    }
    const paint = (nl, state, ctx) => {
      for (const p of parts) p.paint(ctx);
      const { autorun: wanted, given } = env.options();
      // Only a walk that has not started yet is turned off: Play still works.
      if (autorun.status === 'waiting' && (wanted === 'off' || given.includes('layer'))) autorun.handOver();
      if (nl && walk.seen) autorun.firstView();
      const { settings, forward, view } = model.forward(nl, state, ctx.t);
      const gradients = model.gradients(nl, state, ctx.t);
      const layer = layerOf(state, view);
      env.guard('model settings', () =>
        controls.update({ settings, isDefaultPrompt: state.prompt === null, forward }, ctx),
      );
      const walkView = autorun.view(view);
      env.guard('auto-run', () => autorunWidget.update({ ...walkView, depth: state.depth, reducedMotion, view }, ctx));
      env.guard('layer chart', () => chart.update({ view, layer, scale: state.layerScale, walk: walkView }, ctx));
      env.guard('layer breakdown', () => breakdown.update({ view, layer, depth: state.depth }, ctx));
      env.guard('attention', () => attention.update({ view, layer }, ctx));
      env.guard('gradient flow', () => gradient.update({ depth: state.gradDepth, ...gradients }, ctx));
    };
    // Taken out of the page, the walk pauses; put back, it goes on.
    paint.disconnected = () => {
      walk.suspended = autorun.status === 'running';
      autorun.pause();
      env.render();
    };
    paint.connected = () => {
      if (walk.suspended) autorun.resume();
      walk.suspended = false;
      env.render();
    };
    return paint;
  },
};

// Builds widget `name` into root; returns its paint function.
export function buildWidget(name, root, env) {
  return BUILDERS[name](root, env);
}
