// When views repaint: one scheduler per page, per custom element (and for
// any other surface with views of its own, such as the training lab). Two
// rules:
//
// Frames coalesce. However many inputs fire, `paint` runs once per
// animation frame. An input that changed what one view alone shows may
// name that view (its scope); the frame then paints that view alone,
// unless something else asked for a different scope, or for the whole, in
// the same frame.
//
// Views far from the screen wait. A view that is not near the screen is not
// painted in the frame of an input that changed it (a keystroke, a depth
// step, a walk step): it keeps its newest paint and runs it when it comes
// near the screen (a whole repaint is requested then) or in the next idle
// time, whichever is first, so it is right when it scrolls in and a moment
// after any change. Without IntersectionObserver every view paints at once.
//
//   createScheduler({ win, paint(scope), onError(error, name), measure(name, start) })
//     win      the window (animation frames, idle callbacks, observers)
//     paint    repaints: scope is null for the whole, else the scope asked
//     onError  a view's paint threw (default: to the console); the views
//              around it go on
//     measure  optional, for User Timing: a view of view() painted (name,
//              start time, kind: 'view' in the frame, 'offscreen' later)
//   returns
//     request(scope = null)  a repaint in the next animation frame
//     view(node, inputs, paint, now)
//              paints now when `node` is near the screen (or must: `now`,
//              as on a language change), else keeps `paint` for later;
//              `inputs` is what the view shows (an array compared item by
//              item with ===), and nothing is kept when the view already
//              shows them. The observer watches the node's `.demo-part`
//              section (or the node): the browser skips the rendering of a
//              section off screen (content-visibility), and with it the
//              intersections of what is inside. The view's name (for onError
//              and measure) is the node's data-widget.
//     dispose()  stops observing and drops what is kept

// How far outside the viewport a view counts as near (half a screen).
const NEAR_MARGIN = '50% 0px';
// The longest a deferred view waits for idle time.
const IDLE_TIMEOUT_MS = 250;

const reportError = (error, name) => console.error(`normlab: the ${name} view failed:`, error);

export function createScheduler({ win, paint, onError = reportError, measure = null }) {
  // ---- frames
  let frameRequested = false;
  let frameScope = null;
  function request(scope = null) {
    if (frameRequested) {
      if (frameScope !== scope) frameScope = null;
      return;
    }
    frameRequested = true;
    frameScope = scope;
    win.requestAnimationFrame(() => {
      frameRequested = false;
      paint(frameScope);
    });
  }

  // ---- views off screen
  // Per view node: near (in or close to the viewport), pending (the paint
  // kept for later, or null), shown (the inputs it last painted).
  const views = new Map();
  const sections = new Map();
  const observer =
    'IntersectionObserver' in win &&
    new win.IntersectionObserver(
      (entries) => {
        let arrived = false;
        for (const entry of entries) {
          const view = sections.get(entry.target);
          if (!view) continue;
          view.near = entry.isIntersecting;
          if (view.near && view.pending) arrived = true;
        }
        if (arrived) request();
      },
      { rootMargin: NEAR_MARGIN },
    );
  const requestIdle = win.requestIdleCallback
    ? (fn) => win.requestIdleCallback(fn, { timeout: IDLE_TIMEOUT_MS })
    : (fn) => win.setTimeout(fn, 50);
  const cancelIdle = win.cancelIdleCallback ? (h) => win.cancelIdleCallback(h) : (h) => win.clearTimeout(h);
  let idle = null;

  function run(node, fn, kind) {
    const name = node.dataset?.widget ?? 'view';
    const start = win.performance.now();
    try {
      fn();
    } catch (error) {
      onError(error, name);
    }
    measure?.(name, start, kind);
  }

  function paintPending() {
    idle = null;
    for (const [node, view] of views) {
      if (!view.pending) continue;
      const pending = view.pending;
      view.pending = null;
      run(node, pending, 'offscreen');
    }
  }

  function view(node, inputs, paintView, now = false) {
    if (observer && !views.has(node)) {
      const entry = { near: true, pending: null, shown: [] };
      views.set(node, entry);
      const section = node.closest('.demo-part') ?? node;
      sections.set(section, entry);
      observer.observe(section);
    }
    const entry = views.get(node);
    if (!entry || entry.near || now) {
      if (entry) Object.assign(entry, { pending: null, shown: inputs });
      run(node, paintView, 'view');
      return;
    }
    if (inputs.every((input, i) => input === entry.shown[i])) {
      entry.pending = null;
      return;
    }
    entry.pending = () => {
      entry.shown = inputs;
      paintView();
    };
    idle ??= requestIdle(paintPending);
  }

  function dispose() {
    if (observer) observer.disconnect();
    if (idle !== null) cancelIdle(idle);
    idle = null;
    views.clear();
    sections.clear();
  }

  return { request, view, dispose };
}
