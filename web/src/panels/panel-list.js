// A surface as a list of panels: the page walks its list, each custom
// element its one panel. A panel is a descriptor, one per file
// (web/src/panels/*.js, the embed's in embed/widgets.js):
//
//   { name,
//     create(env)           builds its widgets; returns the panel's own object
//     inputs(frame, panel)  optional: what it shows. The panel is painted
//                           only when these changed (compared as JSON);
//                           without inputs it is painted every frame
//     paint(frame, panel)   shows the frame
//     paintSteps(frame, panel)
//                         } optional: its first paint as a list of functions,
//                           which build() may run in separate tasks (the
//                           static text: the top of the page, then each
//                           section)
//
// frame: what one repaint shows, { nl (the kernels, null before they load),
// backend, state, ctx (text-context.js) } and whatever the surface adds;
// env: what the surface offers its panels (set, render, guard, ...).
// Panels are created and painted in list order; env.panel(name) gives the
// object of a panel created before (or, from a callback, of any).
//
// createPanelList(descriptors, env) creates every panel at once. With
// { deferred: true } it creates none: build(frame, firstScreen) then creates
// and first-paints them in list order over several tasks, a few
// milliseconds' worth each, so that no task holds a phone's main thread for
// the whole page; the first `firstScreen` panels (the top of the page) come
// first, before the later steps of their own paintSteps. Until a panel's first paint is done, paint() passes it by.

// The work one later task of build() does before it yields, in ms.
const SLICE_MS = 12;

export function createPanelList(descriptors, env, { deferred = false } = {}) {
  const made = new Map();
  // The panels whose first paint is done: paint() repaints only these.
  const built = new Set();
  env.panel = (name) => made.get(name);
  function create(descriptor) {
    const start = env.timing ? env.win.performance.now() : 0;
    made.set(descriptor.name, descriptor.create(env));
    if (env.timing) env.win.performance.measure(`normlab:create:${descriptor.name}`, { start });
  }
  if (!deferred) {
    for (const descriptor of descriptors) {
      create(descriptor);
      built.add(descriptor.name);
    }
  }
  // The inputs each panel last painted, as JSON: most inputs touch one
  // view, and rewriting the others' text would cost a page-wide style and
  // layout pass on every slider move.
  // The language painted in is part of it: a frame's ctx is made for the
  // language of its time, while its state is the page's own, so a paint
  // still running (build(), paintSliced()) when the reader switches language
  // paints the old language's text under the new language's inputs; the
  // repaint that follows must not take that for done.
  const painted = new Map();
  const signature = (descriptor, frame) =>
    descriptor.inputs
      ? JSON.stringify([frame.ctx?.lang ?? null, descriptor.inputs(frame, made.get(descriptor.name))])
      : null;

  // The next task: scheduler.postTask where there is one (no 4 ms clamp on
  // a chain of timeouts), else a timeout.
  const nextTask = () =>
    new Promise((resolve) => {
      if (env.win.scheduler?.postTask) env.win.scheduler.postTask(resolve, { priority: 'user-visible' });
      else env.win.setTimeout(resolve, 0);
    });

  // Creates and first-paints every panel (deferred lists only); resolves
  // once all are built. Nothing runs in the caller's task (on a page, the
  // one that evaluated its script); then each task runs up to SLICE_MS of
  // the work, in list order, except that a paintSteps' later steps of the
  // first `firstScreen` panels wait until those panels are done (the top of
  // the page first).
  async function build(frame, firstScreen = 1) {
    const queue = descriptors.flatMap((descriptor) => [() => create(descriptor), () => firstPaint(descriptor)]);
    let next = 0;
    const held = [];
    function firstPaint(descriptor) {
      const { name } = descriptor;
      const panel = made.get(name);
      const finish = () => {
        const sig = signature(descriptor, frame);
        if (sig !== null) painted.set(name, sig);
        built.add(name);
      };
      const steps = descriptor.paintSteps?.(frame, panel) ?? [() => descriptor.paint(frame, panel)];
      const [head, ...rest] = steps;
      env.guard(name, head);
      if (rest.length === 0) {
        finish();
        return;
      }
      const tail = [...rest.map((step) => () => env.guard(name, step)), finish];
      // The rest right after this unit, or, for a first-screen panel, once
      // the first screen is done.
      if (next <= 2 * firstScreen) held.push(...tail);
      else queue.splice(next, 0, ...tail);
    }
    queue.splice(2 * firstScreen, 0, () => queue.splice(next, 0, ...held));
    while (next < queue.length) {
      await nextTask();
      const start = env.win.performance.now();
      do queue[next++]();
      while (next < queue.length && env.win.performance.now() - start < SLICE_MS);
    }
  }

  // Paints one built panel, if its inputs changed.
  function paintOne(descriptor, frame) {
    const { name } = descriptor;
    if (!built.has(name)) return;
    const panel = made.get(name);
    if (descriptor.inputs) {
      const sig = signature(descriptor, frame);
      if (painted.get(name) === sig) return;
      painted.set(name, sig);
    }
    env.guard(name, () => descriptor.paint(frame, panel));
  }

  return {
    get: (name) => made.get(name),
    build,
    // Paints the panels (all, or those named in `only`) whose inputs changed.
    paint(frame, only = null) {
      for (const descriptor of descriptors) {
        if (only && !only.includes(descriptor.name)) continue;
        paintOne(descriptor, frame);
      }
    },
    // The same as paint(frame) over several tasks, up to SLICE_MS each, in
    // list order: for a repaint that changes most views at once (the
    // kernels' first). Resolves when done.
    async paintSliced(frame) {
      let start = env.win.performance.now();
      for (const descriptor of descriptors) {
        if (env.win.performance.now() - start >= SLICE_MS) {
          await nextTask();
          start = env.win.performance.now();
        }
        paintOne(descriptor, frame);
      }
    },
  };
}
