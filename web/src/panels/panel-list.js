// A surface as a list of panels: the page walks its list, each custom
// element its one panel. A panel is a descriptor, one per file
// (web/src/panels/*.js, the embed's in embed/widgets.js):
//
//   { name,
//     create(env)           builds its widgets; returns the panel's own object
//     inputs(frame, panel)  optional: what it shows. The panel is painted
//                           only when these changed (compared as JSON);
//                           without inputs it is painted every frame
//     paint(frame, panel) } shows the frame
//
// frame: what one repaint shows, { nl (the kernels, null before they load),
// backend, state, ctx (text-context.js) } and whatever the surface adds;
// env: what the surface offers its panels (set, render, guard, ...).
// Panels are created and painted in list order; env.panel(name) gives the
// object of a panel created before (or, from a callback, of any).

export function createPanelList(descriptors, env) {
  const made = new Map();
  env.panel = (name) => made.get(name);
  for (const descriptor of descriptors) made.set(descriptor.name, descriptor.create(env));
  // The inputs each panel last painted, as JSON: most inputs touch one
  // view, and rewriting the others' text would cost a page-wide style and
  // layout pass on every slider move.
  const painted = new Map();

  return {
    get: (name) => made.get(name),
    // Paints the panels (all, or those named in `only`) whose inputs changed.
    paint(frame, only = null) {
      for (const descriptor of descriptors) {
        const { name } = descriptor;
        if (only && !only.includes(name)) continue;
        const panel = made.get(name);
        if (descriptor.inputs) {
          const signature = JSON.stringify(descriptor.inputs(frame, panel));
          if (painted.get(name) === signature) continue;
          painted.set(name, signature);
        }
        env.guard(name, () => descriptor.paint(frame, panel));
      }
    },
  };
}
