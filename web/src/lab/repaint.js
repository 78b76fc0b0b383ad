// The lab's repaint schedule, behind one entry, requestPaint(force): at most
// one paint per animation frame, and while busy() (a run training) at most
// one per REPAINT_MS, so training keeps the main thread; a forced request (a
// reader's input, a new language) paints on the next frame whatever the
// phase. The page's shared scheduler can take its place behind the same
// entry.
//
// measure: a User Timing measure name for each paint (tests/bench), or null.

// While a run trains, the lab repaints at most this often.
export const REPAINT_MS = 250;

export function createRepaint({ win, paint, busy, measure = null }) {
  let frame = null;
  let lastPaint = -Infinity;
  let forced = false;
  return function requestPaint(force) {
    forced ||= force;
    if (frame !== null) return;
    frame = win.requestAnimationFrame((now) => {
      frame = null;
      if (!forced && busy() && now - lastPaint < REPAINT_MS) {
        win.setTimeout(() => requestPaint(false), REPAINT_MS - (now - lastPaint));
        return;
      }
      forced = false;
      lastPaint = now;
      const start = measure ? win.performance.now() : 0;
      paint();
      if (measure) win.performance.measure(measure, { start, end: win.performance.now() });
    });
  };
}
