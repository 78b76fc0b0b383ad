// The trainability map: the committed sweep of the page's language as one
// table per run kind, depth by learning rate, each cell its seeds' median
// final loss and a mark per seed; what the sweep says at the reader's depth
// and learning rate; and how it was made. A pressed cell trains its seed-1
// run here with the sweep's settings (the reader's stay as they are) and
// says whether it gave the committed final loss.
import { decimals, fixed, integer } from '../../format.js';
import { recordState } from '../../predictions.js';
import { el, setAttr, setDisabled, setHidden, setText } from '../../widgets/dom.js';
import { finalLoss, runOutcome } from '../conclusions.js';
import { OUTCOME_KEY, RUN_LABEL } from '../labels.js';
import { LAB_DEFAULTS, LAB_RUNS } from '../runs.js';
import { depthList, fourDecimals, hundredths, runName, sentenceParagraphs, whole } from '../sentences.js';
import { cellKey, cellSummary, sweepReading } from '../sweep.js';
import { SWEEPS } from '../tables.js';

// Both languages' sweeps share one grid.
const GRID = SWEEPS.en.grid;
// One mark per seed, by outcome (conclusions.js).
const MARK = { learned: '✓', between: '↘', plateau: '–', above: '–', collapsed: '○', vanished: '∅', diverged: '✕' };
// Each parameter of the sweep's sentences as it is shown.
const FORMATS = {
  run: runName,
  learnedAt: depthList,
  failedAt: depthList,
  seeds: whole,
  layers: whole,
  total: whole,
  preCount: whole,
  postCount: whole,
  warmupCount: whole,
  lr: fourDecimals,
  postLr: fourDecimals,
  preLr: fourDecimals,
  post: hundredths,
  pre: hundredths,
};

// The table of one run kind, a button per cell; cells collects each
// button with its place and the spans of its contents.
function mapTable(id, cells, onCell) {
  // On a narrow screen a table scrolls in its own region, which the
  // keyboard reaches as the data tables' do.
  const scroller = el('div', { className: 'table-scroll lab-map-scroll', tabIndex: 0, role: 'region' });
  scroller.dataset.run = id;
  const table = el('table', { className: 'lab-map-table' });
  const caption = table.createCaption();
  caption.dataset.run = id;
  const head = table.createTHead().insertRow();
  const corner = el('th', { scope: 'col', className: 'lab-map-corner' });
  corner.append(el('span', { className: 'lab-map-corner-lr' }), el('span', { className: 'lab-map-corner-layers' }));
  head.append(corner, ...GRID.lr.map((v) => el('th', { scope: 'col', textContent: decimals(v, 4) })));
  const body = table.createTBody();
  for (const layers of GRID.layers) {
    const tr = body.insertRow();
    tr.append(el('th', { scope: 'row', textContent: String(layers) }));
    for (const lr of GRID.lr) {
      const button = el('button', { type: 'button', className: 'lab-map-cell' });
      button.dataset.cell = cellKey(id, layers, lr);
      const median = el('span', { className: 'lab-map-loss' });
      const marks = el('span', { className: 'lab-map-marks' });
      button.append(median, marks);
      button.addEventListener('click', () => onCell(id, layers, lr));
      cells.push({ button, id, layers, lr, median, marks });
      const td = tr.insertCell();
      td.append(button);
    }
  }
  scroller.append(table);
  return scroller;
}

// The map's text: its titles (the cells' descriptions), its contents in the
// page's language and the sweep's reading, rewritten only when the language
// or the settings they quote changed, not on every repaint while a run
// trains.
function paintMapText(part, text, settings) {
  const { t } = text;
  const sweep = SWEEPS[text.lang];
  const signature = `${text.lang}|${settings.layers}|${settings.lr}`;
  if (part.box.dataset.signature === signature) return;
  part.box.dataset.signature = signature;
  setText(part.title, t('mapTitle'));
  setText(
    part.intro,
    t('mapIntro', {
      steps: integer(sweep.steps),
      seeds: integer(sweep.grid.seeds.length),
      entropy: decimals(sweep.entropy, 2),
      warmup: integer(sweep.warmup),
    }),
  );
  setText(part.legend, t('mapLegend'));
  for (const caption of part.tables.querySelectorAll('caption')) setText(caption, t(RUN_LABEL[caption.dataset.run]));
  for (const scroller of part.tables.querySelectorAll('.lab-map-scroll'))
    setAttr(scroller, 'aria-label', t(RUN_LABEL[scroller.dataset.run]));
  // The corner names both headers, the columns' above the rows'.
  for (const corner of part.tables.querySelectorAll('.lab-map-corner')) {
    const [lr, layers] = corner.children;
    setText(lr, t('mapCornerLr'));
    setText(layers, t('mapCornerLayers'));
  }
  for (const { button, id, layers, lr, median, marks } of part.cells) {
    const entries = sweep.cells[cellKey(id, layers, lr)] ?? [];
    const summary = cellSummary(entries);
    button.className = `lab-map-cell is-${summary.verdict}`;
    setText(median, summary.median === null ? '' : fixed(summary.median, 2));
    setText(marks, summary.outcomes.map((o) => MARK[o]).join(''));
    const seeds = entries.map((e) =>
      Number.isFinite(e.final)
        ? t('mapSeedLoss', { seed: e.seed, outcome: t(OUTCOME_KEY[e.outcome]), final: decimals(e.final, 2) })
        : t('mapSeed', { seed: e.seed, outcome: t(OUTCOME_KEY[e.outcome]) }),
    );
    // The visible text (the loss and the marks) names the button, with the
    // table's caption and headers around it; the title spells it out.
    setAttr(
      button,
      'title',
      t('mapCell', { run: t(RUN_LABEL[id]), layers, lr: decimals(lr, 4), seeds: text.list(seeds) }),
    );
  }
  // What the sweep says at the chosen depth and learning rate.
  part.reading.replaceChildren(...sentenceParagraphs(sweepReading(sweep, settings), FORMATS, text));
  setText(part.madeSummary, t('madeSummary'));
  setText(part.madeText, t('madeText', { ...sweep.made, seeds: integer(sweep.grid.seeds.length) }));
}

// A pressed cell's run, when it ended, against the committed one.
function paintCellResult(part, { text, nl, state }) {
  const { t } = text;
  const cell = state.cell;
  const run = state.runs[0];
  const done = cell !== null && state.phase === 'done' && run && (run.status === 'done' || run.status === 'diverged');
  const { result } = part;
  setHidden(result, !done);
  if (!done) return setText(result, '');
  const sweep = SWEEPS[text.lang];
  const final = finalLoss(run);
  const live = {
    run: t(RUN_LABEL[cell.id]),
    layers: integer(cell.layers),
    lr: decimals(cell.lr, 4),
    backend: nl.backend,
    steps: integer(state.steps),
    final: decimals(final, 4),
    heldout: decimals(run.heldout, 4),
    outcome: t(OUTCOME_KEY[runOutcome(run)]),
  };
  const committed = (sweep.cells[cellKey(cell.id, cell.layers, cell.lr)] ?? []).find((e) => e.seed === 1);
  const same = committed && state.steps === sweep.steps && Object.is(committed.final, final);
  setText(
    result,
    !committed || state.steps !== sweep.steps
      ? t('mapCompareNew', live)
      : t(same ? 'mapCompareSame' : 'mapCompareOther', {
          ...live,
          sweepFinal: decimals(committed.final, 4),
          sweepOutcome: t(OUTCOME_KEY[committed.outcome]),
        }),
  );
  result.dataset.same = String(Boolean(same));
}

export const mapPanel = {
  name: 'map',
  reads: ['text', 'nl', 'state', 'settings', 'record', 'editable'],
  formats: FORMATS,

  create({ root, start }) {
    const box = el('section', { className: 'lab-map' });
    const title = el('h4');
    const intro = el('p');
    const legend = el('p', { className: 'lab-line-note' });
    const tables = el('div', { className: 'lab-map-tables' });
    const result = el('p', { className: 'lab-map-result', role: 'status' });
    const reading = el('div', { className: 'lab-map-reading' });
    const made = el('details', { className: 'lab-made' });
    const madeSummary = el('summary');
    const madeText = el('p');
    made.append(madeSummary, madeText);
    box.append(title, intro, legend, tables, result, reading, made);
    // A cell's seed-1 run with the sweep's settings; the charts come into view.
    const runCell = (id, layers, lr) => {
      start({ ...LAB_DEFAULTS, layers, lr, runs: [id], seed: 1, text: null }, { id, layers, lr });
      root.querySelector('[data-chart="lab-loss"]').scrollIntoView({ block: 'start' });
    };
    const cells = [];
    for (const id of LAB_RUNS) tables.append(mapTable(id, cells, runCell));
    return { nodes: [box], box, title, intro, legend, tables, result, reading, madeSummary, madeText, cells };
  },

  paint(part, inputs) {
    const { text, nl, state, settings, record, editable } = inputs;
    const cell = state.cell;
    const open = Boolean(nl) && editable && recordState(record) !== 'none';
    for (const { button, id, layers, lr } of part.cells) {
      setDisabled(button, !open);
      button.classList.toggle('is-chosen', cell !== null && cell.id === id && cell.layers === layers && cell.lr === lr);
    }
    paintMapText(part, text, settings);
    paintCellResult(part, inputs);
  },
};
