// Worked-example calculator: the user's vector through RMSNorm and, beside
// it, LayerNorm, one step per row. Parsing problems and kernel refusals are
// shown inline while the last valid result stays on screen. Steps that
// overflow float32 come in double precision (compute.js, calculatorSteps),
// with a line that says so above them. Where eps is not negligible under a
// root (eps-share.js: the zero vector, a constant vector's variance, tiny
// entries), the RMS or std is written out with its eps, √(0 + 10⁻⁶), and a
// line below the steps says what that does to y.
import { CALCULATOR_MAX_ENTRIES, EPS_CHOICES, EXAMPLE_A, EXAMPLE_B } from '../constants.js';
import { EPS_NEGLIGIBLE, epsShare, lnRegime, rmsRegime } from '../eps-share.js';
import { decimals, decimalsApart, percentPast, powerOfTen, rootValue, significant, vectorText } from '../format.js';
import { el, labelledControl, setOptions } from './dom.js';

// The largest finite float32, about 3.4e38: past it a square is infinite.
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

// onVector(text) when the text changes or a preset is chosen; onEps(eps).
export function createCalculator(root, { onVector, onEps }) {
  const {
    wrap: field,
    input,
    label,
  } = labelledControl('calc-vector', 'input', {
    type: 'text',
    inputmode: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'calc-hint calc-error',
  });
  const hint = el('p', { id: 'calc-hint', className: 'control-hint' });
  field.append(hint);
  input.addEventListener('input', () => onVector(input.value));

  const presets = el('div', { className: 'button-row' });
  const presetA = el('button', { type: 'button', className: 'button-quiet' });
  const presetB = el('button', { type: 'button', className: 'button-quiet' });
  presetA.addEventListener('click', () => onVector(EXAMPLE_A.join(', ')));
  presetB.addEventListener('click', () => onVector(EXAMPLE_B.join(', ')));
  const { wrap: epsWrap, input: epsSelect, label: epsLabel } = labelledControl('calc-eps', 'select');
  epsWrap.classList.add('control-inline');
  epsSelect.addEventListener('change', () => onEps(Number(epsSelect.value)));
  presets.append(presetA, presetB, epsWrap);

  // role=alert: a problem with the input is announced as soon as it appears.
  const error = el('p', { id: 'calc-error', className: 'input-error', role: 'alert' });
  const stale = el('p', { className: 'widget-note' });

  const columns = el('div', { className: 'calc-columns' });
  const rmsColumn = column('rms', ['squares', 'meanSquare', 'rmsValue', 'y', 'outL2']);
  const lnColumn = column('ln', ['mean', 'centered', 'variance', 'std', 'lnY', 'outL2']);
  columns.append(rmsColumn.section, lnColumn.section);
  root.append(field, presets, error, stale, columns);

  return {
    // data: { text, eps, error: {code, params} | null, result: null |
    //   { x, rms: {squares, meanSquare, rms, y}, ln: {mean, centered, variance, std, y}, rmsL2, lnL2,
    //     overflow: { rms, ln } } }
    update(data, { t }) {
      label.textContent = t('calculator.label');
      hint.textContent = t('calculator.hint', { max: CALCULATOR_MAX_ENTRIES });
      presetA.textContent = t('calculator.exampleA');
      presetB.textContent = t('calculator.exampleB');
      epsLabel.textContent = t('calculator.eps');
      setOptions(
        epsSelect,
        EPS_CHOICES.map((e) => [e, powerOfTen(e)]),
        data.eps,
      );
      // Never rewrite the field while the user types in it (the caret would
      // jump); only when the state changed from elsewhere (a preset, a link).
      if (input.value !== data.text) input.value = data.text;

      input.setAttribute('aria-invalid', String(Boolean(data.error)));
      error.hidden = !data.error;
      error.textContent = data.error ? t(`calculator.${data.error.code}`, data.error.params) : '';
      const result = data.result;
      stale.hidden = !(data.error && result);
      stale.textContent = result ? t('calculator.stale', { vector: vectorText(result.x) }) : '';

      rmsColumn.heading.textContent = t('calculator.rms');
      lnColumn.heading.textContent = t('calculator.ln');
      const max = significant(FLOAT32_MAX, 2);
      rmsColumn.flag(Boolean(result?.overflow.rms), t('calculator.overflowRms', { max }));
      lnColumn.flag(Boolean(result?.overflow.ln), t('calculator.overflowLn', { max }));
      const rmsRoot = result && rmsRegime(result);
      const lnRoot = result && lnRegime(result);
      rmsColumn.note(result && rmsNote(result, rmsRoot, t));
      lnColumn.note(result && lnNote(result, lnRoot, t));
      rmsColumn.fill(
        t,
        result && {
          squares: vectorText(result.rms.squares),
          meanSquare: decimals(result.rms.meanSquare, 3),
          rmsValue:
            rmsRoot === 'clear'
              ? decimals(result.rms.rms, 3)
              : withEps(result.rms.rms, result.rms.meanSquare, result.eps),
          y: vectorText(result.rms.y),
          outL2: decimals(result.rmsL2, 3),
        },
      );
      lnColumn.fill(
        t,
        result && {
          mean: decimals(result.ln.mean, 3),
          centered: vectorText(result.ln.centered),
          variance: decimals(result.ln.variance, 3),
          std: lnRoot === 'clear' ? decimals(result.ln.std, 3) : withEps(result.ln.std, result.ln.variance, result.eps),
          lnY: vectorText(result.ln.y),
          outL2: decimals(result.lnL2, 3),
        },
      );
    },
  };
}

// A root whose eps shows, with what is under it: 0.001 = √(0 + 10⁻⁶).
const withEps = (root, under, eps) => `${rootValue(root)} = √(${decimals(under, 3)} + ${powerOfTen(eps)})`;

// eps's share in percent, never printed as the 0.01% below which the page
// calls it negligible when it is past it.
const sharePercent = (under, eps) => percentPast(100 * epsShare(under, eps), 100 * EPS_NEGLIGIBLE);

function rmsNote(r, regime, t) {
  if (regime === 'zero') return t('calculator.rmsZero', { rms: rootValue(r.rms.rms), eps: powerOfTen(r.eps) });
  if (regime !== 'eps') return null;
  const sqrtD = Math.sqrt(r.x.length);
  const k = decimalsApart(r.rmsL2, sqrtD);
  return t('calculator.rmsSmall', {
    eps: powerOfTen(r.eps),
    share: sharePercent(r.rms.meanSquare, r.eps),
    l2: decimals(r.rmsL2, k),
    d: r.x.length,
    sqrtD: decimals(sqrtD, k),
  });
}

function lnNote(r, regime, t) {
  if (regime === 'flat') return t('calculator.lnFlat', { std: rootValue(r.ln.std), eps: powerOfTen(r.eps) });
  if (regime !== 'eps') return null;
  return t('calculator.lnSmall', { eps: powerOfTen(r.eps), share: sharePercent(r.ln.variance, r.eps) });
}

function column(name, rowKeys) {
  const section = el('section', { className: `calc-column calc-${name}` });
  const heading = el('h4');
  // Shown when this column's steps overflow float32.
  const overflow = el('p', { className: 'calc-overflow' });
  overflow.dataset.overflow = name;
  overflow.hidden = true;
  const list = el('dl', { className: 'calc-steps' });
  const rows = rowKeys.map((key) => {
    const wrap = el('div', { className: 'calc-step' });
    const dt = el('dt');
    const dd = el('dd', { className: 'number' });
    dd.dataset.step = `${name}-${key}`;
    wrap.append(dt, dd);
    list.append(wrap);
    return { key, dt, dd };
  });
  // Shown when eps is not negligible under this column's root.
  const epsNote = el('p', { className: 'calc-eps-note' });
  epsNote.dataset.epsNote = name;
  epsNote.hidden = true;
  section.append(heading, overflow, list, epsNote);
  return {
    section,
    heading,
    note(text) {
      epsNote.hidden = !text;
      epsNote.textContent = text ?? '';
    },
    flag(on, text) {
      overflow.hidden = !on;
      overflow.textContent = on ? text : '';
      list.dataset.precision = on ? 'double' : 'float';
    },
    fill(t, values) {
      for (const { key, dt, dd } of rows) {
        dt.textContent = t(`calculator.${key}`);
        dd.textContent = values ? values[key] : '';
      }
    },
  };
}
