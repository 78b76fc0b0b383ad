// The lab's repaint schedule, behind one entry, requestPaint(force), on the
// page's scheduler (panels/schedule.js: at most one paint per animation
// frame). While busy() (a run training) the lab paints at most once per
// REPAINT_MS, so training keeps the main thread; a forced request (a
// reader's input, a new language) paints on the next frame whatever the
// phase.
//
// paint(forced) returns true when it painted only part of the lab (it keeps
// each paint while training short, panel by panel: lab-widget.js); the rest
// is then painted on the next frame, whatever REPAINT_MS says.
//
// measure: a User Timing measure name for each paint (tests/bench), or null.
import { createScheduler } from '../panels/schedule.js';

// While a run trains, the lab repaints at most this often.
export const REPAINT_MS = 250;

export function createRepaint({ win, paint, busy, measure = null }) {
  let lastPaint = -Infinity;
  let forced = false;
  let later = null;
  let more = false;
  const scheduler = createScheduler({
    win,
    paint() {
      const now = win.performance.now();
      if (!forced && !more && busy() && now - lastPaint < REPAINT_MS) {
        later ??= win.setTimeout(
          () => {
            later = null;
            requestPaint(false);
          },
          REPAINT_MS - (now - lastPaint),
        );
        return;
      }
      const wasForced = forced;
      forced = false;
      if (!more) lastPaint = now;
      more = paint(wasForced) === true;
      if (measure) win.performance.measure(measure, { start: now, end: win.performance.now() });
      if (more) scheduler.request();
    },
  });
  function requestPaint(force) {
    forced ||= force;
    scheduler.request();
  }
  return requestPaint;
}
