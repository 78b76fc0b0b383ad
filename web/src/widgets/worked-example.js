// Worked example A, step by step. Every number in the steps is one the
// kernel returned (nl.rmsnormSteps); the module only typesets them.
import { decimals, vectorTex } from '../format.js';
import { typesetPieces } from '../math.js';
import { el } from './dom.js';

const STEPS = ['stepSquares', 'stepMean', 'stepRms', 'stepY'];

export function createWorkedExample(root) {
  const list = el('ol', { className: 'steps' });
  const rows = STEPS.map(() => {
    const li = el('li', { className: 'step' });
    const label = el('span', { className: 'step-label' });
    const math = el('span', { className: 'math step-math' });
    li.append(label, math);
    list.append(li);
    return { label, math };
  });
  const pending = el('p', { className: 'widget-note' });
  root.append(list, pending);

  return {
    // data: null while the kernels load, else { x, eps, squares, meanSquare, rms, y }
    update(data, { t }) {
      for (const [i, key] of STEPS.entries()) rows[i].label.textContent = t(`formula.${key}`);
      pending.hidden = data !== null;
      pending.textContent = t('formula.pending');
      list.hidden = data === null;
      if (!data) return;
      const sum = Array.from(data.squares, (v) => decimals(v)).join(' + ');
      const epsTex = `10^{${Math.round(Math.log10(data.eps))}}`;
      // Each step may wrap after its relations (typesetPieces).
      typesetPieces(rows[0].math, ['x^2 =', vectorTex(data.squares)]);
      typesetPieces(rows[1].math, [
        '\\operatorname{mean}(x^2) =',
        `\\frac{${sum}}{${data.squares.length}} =`,
        decimals(data.meanSquare),
      ]);
      typesetPieces(rows[2].math, [
        '\\mathrm{RMS} =',
        `\\sqrt{${decimals(data.meanSquare)} + ${epsTex}} \\approx`,
        decimals(data.rms),
      ]);
      typesetPieces(rows[3].math, [`y = \\frac{x}{${decimals(data.rms)}} \\approx`, vectorTex(data.y)]);
    },
  };
}
