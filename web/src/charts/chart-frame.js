// A responsive SVG for one chart. The chart is drawn at the container's real
// pixel width (not scaled through a viewBox), so its text stays readable from
// a 375 px phone to a desktop; a ResizeObserver draws it once its width is
// known and redraws it when that changes.
import { select } from 'd3-selection';

export function createChartFrame(container, { height, label }) {
  const svg = select(container).append('svg').attr('class', 'chart').attr('role', 'img').attr('height', height);
  const title = svg.append('title');
  let draw = null;
  let width = 0;

  let sized = 0;
  const redraw = () => {
    if (!draw || width === 0) return;
    if (sized !== width) {
      svg.attr('width', width).attr('viewBox', `0 0 ${width} ${height}`);
      sized = width;
    }
    draw(svg, width, height);
  };

  const observer = new ResizeObserver((entries) => {
    const next = Math.floor(entries[0].contentRect.width);
    if (next !== width) {
      width = next;
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
