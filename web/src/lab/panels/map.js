// The trainability map: the committed sweep of the page's language as one
// table per run kind, depth by learning rate, each cell its seeds' median
// final loss and a mark per seed; what the sweep says at the reader's depth
// and learning rate; and how it was made. Below it the variants' sweep (the
// normalization choices current models make, on one text) the same way. A
// pressed cell trains its seed-1 run here with its sweep's settings (the
// reader's stay as they are) and says whether it gave the committed final
// loss.
import { decimals, fixed, integer } from '../../format.js';
import { recordState } from '../../predictions.js';
import { el, setAttr, setDisabled, setHidden, setText } from '../../widgets/dom.js';
import { finalLoss, runOutcome } from '../conclusions.js';
import { OUTCOME_KEY, RUN_LABEL } from '../labels.js';
import { CONTRAST_PRESETS, LAB_DEFAULTS, LAB_RUNS } from '../runs.js';
import { depthList, fourDecimals, hundredths, runName, sentenceParagraphs, whole } from '../sentences.js';
import { cellKey, cellSummary, sweepReading, variantReading } from '../sweep.js';
import { SWEEPS, VARIANT_SWEEP } from '../tables.js';
// The name of each language's committed text.
const PROSE = { 'zh-CN': 'proseZh', en: 'proseEn' };
// The map's two sweeps: the chapter's (one per language, both on one grid;
// its cells data-cell) and the variants' (one text's, data-variant-cell),
// with the variants this page's trainer takes.
const SOURCES = {
  lab: { sweep: (lang) => SWEEPS[lang], grid: SWEEPS.en.grid, runs: LAB_RUNS, attribute: 'cell' },
  variants: {
    sweep: () => VARIANT_SWEEP,
    grid: VARIANT_SWEEP.grid,
    runs: VARIANT_SWEEP.runs.filter((id) => CONTRAST_PRESETS.current.includes(id)),
    attribute: 'variantCell',
  },
};
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
  // Each variant's count, apart by semicolons (a variant's name may hold a comma).
  counts: (counts, text) =>
    counts
      .map(({ run, learned }) => text.t('variantCount', { run: runName(run, text), learned }))
      .join(text.t('variantCountsJoin')),
};

// The table of one run kind of a source's sweep, a button per cell; cells
// collects each button with its place and the spans of its contents.
function mapTable(source, id, cells, onCell) {
  const { grid } = SOURCES[source];
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
  head.append(corner, ...grid.lr.map((v) => el('th', { scope: 'col', textContent: decimals(v, 4) })));
  const body = table.createTBody();
  for (const layers of grid.layers) {
    const tr = body.insertRow();
    tr.append(el('th', { scope: 'row', textContent: String(layers) }));
    for (const lr of grid.lr) {
      const button = el('button', { type: 'button', className: 'lab-map-cell' });
      button.dataset[SOURCES[source].attribute] = cellKey(id, layers, lr);
      const median = el('span', { className: 'lab-map-loss' });
      const marks = el('span', { className: 'lab-map-marks' });
      button.append(median, marks);
      button.addEventListener('click', () => onCell(source, id, layers, lr));
      cells.push({ button, source, id, layers, lr, median, marks });
      const td = tr.insertCell();
      td.append(button);
    }
  }
  scroller.append(table);
  return scroller;
}

// The map's text: its titles (the cells' descriptions), its contents in the
// page's language and the sweeps' readings, rewritten only when the language
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
  const variants = VARIANT_SWEEP;
  setText(part.variantsTitle, t('mapVariantsTitle'));
  setText(
    part.variantsIntro,
    t('mapVariantsIntro', {
      layers: depthList(variants.grid.layers, text),
      lrs: text.list(variants.grid.lr.map((lr) => decimals(lr, 4))),
      seeds: integer(variants.grid.seeds.length),
      steps: integer(variants.steps),
      text: t(PROSE[variants.lang]),
      entropy: decimals(variants.entropy, 2),
    }),
  );
  setText(part.variantsMadeSummary, t('madeSummary'));
  setText(
    part.variantsMadeText,
    t('variantMadeText', {
      ...variants.made,
      minutes: integer(Math.round(variants.made.seconds / 60)),
      threads: integer(variants.made.threads),
    }),
  );
  for (const tables of [part.tables, part.variantTables]) {
    for (const caption of tables.querySelectorAll('caption')) setText(caption, t(RUN_LABEL[caption.dataset.run]));
    for (const scroller of tables.querySelectorAll('.lab-map-scroll'))
      setAttr(scroller, 'aria-label', t(RUN_LABEL[scroller.dataset.run]));
    // The corner names both headers, the columns' above the rows'.
    for (const corner of tables.querySelectorAll('.lab-map-corner')) {
      const [lr, layers] = corner.children;
      setText(lr, t('mapCornerLr'));
      setText(layers, t('mapCornerLayers'));
    }
  }
  for (const { button, source, id, layers, lr, median, marks } of part.cells) {
    const entries = SOURCES[source].sweep(text.lang).cells[cellKey(id, layers, lr)] ?? [];
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
  // What each sweep says at the chosen depth and learning rate.
  part.reading.replaceChildren(...sentenceParagraphs(sweepReading(sweep, settings), FORMATS, text));
  part.variantsReading.replaceChildren(...sentenceParagraphs(variantReading(variants, settings), FORMATS, text));
  setText(part.madeSummary, t('madeSummary'));
  setText(part.madeText, t('madeText', { ...sweep.made, seeds: integer(sweep.grid.seeds.length) }));
}

// A pressed cell's run, when it ended, against the committed one, below
// the cell's own tables.
function paintCellResult(part, { text, nl, state }) {
  const { t } = text;
  const cell = state.cell;
  const run = state.runs[0];
  const done = cell !== null && state.phase === 'done' && run && (run.status === 'done' || run.status === 'diverged');
  const source = cell?.source ?? 'lab';
  for (const [name, result] of Object.entries(part.results)) {
    if (!done || name !== source) {
      setHidden(result, true);
      setText(result, '');
    }
  }
  if (!done) return;
  const result = part.results[source];
  setHidden(result, false);
  const sweep = SOURCES[source].sweep(text.lang);
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

  create({ root, start, languageText }) {
    const box = el('section', { className: 'lab-map' });
    const title = el('h4');
    const intro = el('p');
    const legend = el('p', { className: 'lab-line-note' });
    const tables = el('div', { className: 'lab-map-tables' });
    const results = {
      lab: el('p', { className: 'lab-map-result', role: 'status' }),
      variants: el('p', { className: 'lab-variant-result', role: 'status' }),
    };
    const reading = el('div', { className: 'lab-map-reading' });
    const made = el('details', { className: 'lab-made' });
    const madeSummary = el('summary');
    const madeText = el('p');
    made.append(madeSummary, madeText);
    const variantsTitle = el('h5', { className: 'lab-variant-map-title' });
    const variantsIntro = el('p');
    const variantTables = el('div', { className: 'lab-map-tables lab-variant-tables' });
    const variantsReading = el('div', { className: 'lab-variant-reading' });
    const variantMap = el('div', { className: 'lab-variant-map' });
    const variantsMade = el('details', { className: 'lab-made' });
    const variantsMadeSummary = el('summary');
    const variantsMadeText = el('p');
    variantsMade.append(variantsMadeSummary, variantsMadeText);
    variantMap.append(variantsTitle, variantsIntro, variantTables, results.variants, variantsReading, variantsMade);
    box.append(title, intro, legend, tables, results.lab, reading, made, variantMap);
    // The page's language as last painted.
    const shown = { lang: null };
    // A cell's seed-1 run with its sweep's settings, on the text that sweep
    // trained on (the variants': one language's committed text, on every
    // page); the charts come into view.
    const runCell = (source, id, layers, lr) => {
      const sweepLang = source === 'variants' ? VARIANT_SWEEP.lang : shown.lang;
      const own = sweepLang === shown.lang ? null : languageText(sweepLang);
      start({ ...LAB_DEFAULTS, layers, lr, runs: [id], seed: 1, text: own }, { source, id, layers, lr });
      root.querySelector('[data-chart="lab-loss"]').scrollIntoView({ block: 'start' });
    };
    const cells = [];
    for (const [source, { runs }] of Object.entries(SOURCES)) {
      const into = source === 'lab' ? tables : variantTables;
      for (const id of runs) into.append(mapTable(source, id, cells, runCell));
    }
    return {
      nodes: [box],
      box,
      title,
      intro,
      legend,
      tables,
      results,
      reading,
      madeSummary,
      madeText,
      variantsTitle,
      variantsIntro,
      variantTables,
      variantsReading,
      variantsMadeSummary,
      variantsMadeText,
      cells,
      shown,
    };
  },

  paint(part, inputs) {
    const { text, nl, state, settings, record, editable } = inputs;
    const cell = state.cell;
    const open = Boolean(nl) && editable && recordState(record) !== 'none';
    part.shown.lang = text.lang;
    for (const { button, source, id, layers, lr } of part.cells) {
      setDisabled(button, !open);
      button.classList.toggle(
        'is-chosen',
        cell !== null &&
          (cell.source ?? 'lab') === source &&
          cell.id === id &&
          cell.layers === layers &&
          cell.lr === lr,
      );
    }
    paintMapText(part, text, settings);
    paintCellResult(part, inputs);
  },
};
