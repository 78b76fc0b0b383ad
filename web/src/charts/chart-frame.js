// A responsive SVG for one chart. The chart is drawn at the container's real
// pixel width (not scaled through a viewBox), so its text stays readable from
// a 375 px phone to a desktop; a ResizeObserver draws it once its width is
// known and redraws it when that changes.
//
// A chart in a section the browser skips while off screen
// (content-visibility: auto, sections.css) is drawn only while the section
// is rendered: when it is not (the section's contentvisibilityautostatechange
// event), a new drawing waits for the section to come back. A section far
// below is also rendered once after load to learn its size (app.js
// measureSections): its charts are not drawn then, unless near the screen,
// since drawing them would cost a phone-class CPU a long task per chart for
// a picture nobody sees yet. A chart keeps its height (the svg's height
// attribute) drawn or not, so the section's size is the same either way.
import { select } from 'd3-selection';

// How far outside the viewport a chart's section counts as near, in
// viewport heights.
const NEAR_SCREENS = 1;

export function createChartFrame(container, { height, label }) {
  const svg = select(container).append('svg').attr('class', 'chart').attr('role', 'img').attr('height', height);
  const title = svg.append('title');
  let draw = null;
  let width = 0;

  let sized = 0;
  // The drawing last shown (at width `sized`): a section shown again redraws
  // only what changed meanwhile.
  let drawn = null;
  // Whether the chart's section is rendered (and, while measured, near).
  let shown = true;
  const redraw = () => {
    if (!draw || width === 0 || !shown) return;
    if (sized !== width) {
      svg.attr('width', width).attr('viewBox', `0 0 ${width} ${height}`);
      sized = width;
    }
    draw(svg, width, height);
    drawn = draw;
  };

  const win = container.ownerDocument.defaultView;
  const section = container.closest('.demo-part, .chapter > section');
  const skips = Boolean(section && 'oncontentvisibilityautostatechange' in section);
  if (skips) {
    const show = (rendered) => {
      shown = rendered;
      if (shown && (drawn !== draw || sized !== width)) redraw();
    };
    section.addEventListener('contentvisibilityautostatechange', (event) => show(!event.skipped));
    // A printed page is rendered whole (sections.css).
    win.addEventListener('beforeprint', () => show(true));
  }
  // Called where the layout is fresh (a ResizeObserver's report).
  const near = () => {
    const { top, bottom } = section.getBoundingClientRect();
    return bottom >= -NEAR_SCREENS * win.innerHeight && top <= (1 + NEAR_SCREENS) * win.innerHeight;
  };

  const observer = new ResizeObserver((entries) => {
    const next = Math.floor(entries[0].contentRect.width);
    if (next !== width) {
      width = next;
      // A report means the section is rendered: measured, or on screen.
      if (skips) shown = !section.classList.contains('measuring') || near();
      redraw();
    }
  });
  // The first width comes from the observer's first report, in the frame's
  // rendering after layout: reading it here would force a layout of the page
  // per chart while the page builds its views (most of a second at load on a
  // phone-class CPU). Until then render() only keeps the drawing.
  observer.observe(container);

  return {
    // draw(svg, width, height) paints the whole chart from the latest data.
    render(nextDraw, ariaLabel = label) {
      draw = nextDraw;
      // Unchanged text is not written again (a write replaces the text node).
      if (svg.attr('aria-label') !== (ariaLabel ?? null)) {
        svg.attr('aria-label', ariaLabel);
        title.text(ariaLabel);
      }
      redraw();
    },
  };
}
