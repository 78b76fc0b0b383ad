// The embeddable widgets: for each name, the panel (panels/panel-list.js's
// descriptor: name, create, paint) an element of that name shows. They reuse
// the page's widget modules, compute functions and the demo panel
// (web/src/widgets/*, compute.js, panels/demo-panel.js); only the wiring
// (which state a widget reads, which inputs it changes) lives here.
import { computeSoftmaxView, createCalculatorModel, createPlaygroundModel } from '../compute.js';
import { createMemoryLearnerStore } from '../learner.js';
import { createDemoPanel } from '../panels/demo-panel.js';
import { createCalculator } from '../widgets/calculator.js';
import { el } from '../widgets/dom.js';
import { createPlayground } from '../widgets/playground.js';
import { createSoftmaxWidget } from '../widgets/softmax.js';

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

// A demo panel (panels/demo-panel.js) of the given parts in an element: each
// element has its own demo controller, with its own views and schedule; the
// model instances are one pool per wasm instance, shared by every element on
// the page.
function elementDemoPanel(parts, env, walk = null) {
  return createDemoPanel(parts, {
    win: env.window,
    state: env.state,
    set: env.set,
    render: env.render,
    guard: env.guard,
    scheduler: env.scheduler,
    timing: false,
    walk,
  });
}

// A panel of one model-based widget: a demo panel of that part alone.
function demoPart(name, partName) {
  return {
    name,
    create: (env) => elementDemoPanel({ [partName]: box(env.root, name) }, env),
    paint: ({ nl, ctx }, panel) => panel.paint(nl, ctx),
  };
}

// Each panel's create gets env { window, root (the container), set(changes),
// render(), state(), options(), guard(what, fn), scheduler (schedule.js's),
// assets (the embed stylesheet's URL, beside which the other assets are) };
// its paint gets the frame { nl, backend, state, ctx }.
const PANELS = [
  {
    name: 'softmax',
    create: (env) =>
      createSoftmaxWidget(box(env.root, 'softmax'), {
        onMagnitude: (l2) => env.set({ l2 }),
        onGrowth: (softmaxGrowth) => env.set({ softmaxGrowth }),
      }),
    paint: ({ nl, state, ctx }, widget) =>
      widget.update(nl && computeSoftmaxView(nl, state.l2, state.softmaxGrowth), ctx),
  },
  // An element has no training lab: the synthetic sample only.
  demoPart('gain', 'gain'),
  {
    name: 'calculator',
    create(env) {
      const widget = createCalculator(box(env.root, 'calculator'), {
        onVector: (vector) => env.set({ vector }),
        onEps: (eps) => env.set({ eps }),
      });
      return { widget, compute: createCalculatorModel() };
    },
    paint: ({ nl, state, ctx }, { widget, compute }) =>
      widget.update(
        nl ? compute(nl, state.vector, state.eps) : { text: state.vector, eps: state.eps, error: null, result: null },
        ctx,
      ),
  },
  demoPart('layer-chart', 'chart'),
  {
    name: 'playground',
    create(env) {
      const widget = createPlayground(box(env.root, 'playground'), {
        onStretch: (stretch) => env.set({ stretch }),
        onEps: (eps) => env.set({ eps }),
      });
      return { widget, compute: createPlaygroundModel() };
    },
    paint: ({ nl, state, ctx }, { widget, compute }) => widget.update(nl && compute(nl, state.stretch, state.eps), ctx),
  },
  demoPart('gradient-flow', 'gradient'),
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
  {
    name: 'demo',
    create(env) {
      const parts = [];
      const add = (titleKey, ...captionKeys) => {
        const p = part(env.root, titleKey, ...captionKeys);
        parts.push(p);
        return p.section;
      };
      const controls = box(add('demo.settings', 'demo.settingsIntro'), 'model-controls');
      // The chart, then the walk's prediction, stage and controls right below
      // it, where the walk is watched.
      const chartPart = add('demo.layerChart', 'demo.layerChartIntro', 'demo.autorunIntro');
      const chart = box(chartPart, 'layer-chart');
      const autorun = box(chartPart, 'autorun');
      autorun.classList.add('widget-compact');
      const breakdown = box(add('demo.breakdown', 'demo.breakdownIntro'), 'layer-breakdown');
      const attention = box(add('demo.attention', 'demo.attentionIntro'), 'attention');
      const gradient = box(add('demo.gradient', 'demo.gradientIntro'), 'gradient-flow');
      const given = () => env.options().given;
      const panel = elementDemoPanel({ controls, chart, autorun, breakdown, attention, gradient }, env, {
        store: createMemoryLearnerStore(),
        // Starts 'waiting'; paint turns it off when the options say so.
        startsOff: false,
        off: () => env.options().autorun === 'off' || given().includes('layer'),
        // A read-only figure (hide="controls") has no way to answer.
        asks: () => !given().includes('layer') && !env.options().hide.has('controls'),
      });
      return { ...panel, parts };
    },
    paint({ nl, ctx }, panel) {
      for (const p of panel.parts) p.paint(ctx);
      panel.paint(nl, ctx);
    },
  },
  // The training lab, with a guess kept in the element's own memory.
  {
    name: 'training-lab',
    create(env) {
      const node = box(env.root, 'training-lab');
      const mount = el('div');
      node.append(el('link', { rel: 'stylesheet', href: new URL('lab.css', env.assets).href }), mount);
      const win = env.window;
      const panel = { lab: null, view: null };
      loadLab(win, new URL('lab.js', env.assets).href).then(
        (api) => {
          panel.lab = api.mount(mount, { win, doc: win.document, store: createMemoryLearnerStore() });
          if (panel.view) panel.lab.update(panel.view);
        },
        (error) => console.error('normlab: the training lab did not load:', error),
      );
      return panel;
    },
    paint({ nl, state }, panel) {
      panel.view = { lang: state.lang, nl };
      panel.lab?.update(panel.view);
    },
  },
];

// Widget names, as used in <normlab-NAME> and ?widget=NAME.
export const WIDGET_NAMES = PANELS.map((panel) => panel.name);

// The panel an element named `name` shows.
export const widgetPanel = (name) => PANELS.find((panel) => panel.name === name);
