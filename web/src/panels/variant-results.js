// After pre-norm's table of the variants' sweep (web/data/variant-sweep.json,
// bundled as the page's claims: claim-params.js): for each variant, how many
// of its seeds learned at the lab's learning rate at each depth, how many of
// all its runs learned, and the largest attention score any of them reached.
import { claimParams } from '../claim-params.js';
import { el } from '../widgets/dom.js';

export default {
  name: 'variant-results',
  create({ widget }) {
    // Should it ever be wider than the screen, it scrolls in its own region,
    // which the keyboard reaches as the data tables' do.
    const scroll = el('div', { className: 'table-scroll', tabIndex: 0 });
    const table = el('table', { className: 'variant-table' });
    scroll.append(table);
    widget('variant-results').append(scroll);
    return { table };
  },
  inputs: ({ state }) => [state.lang],
  paint({ state, ctx: { t } }, { table }) {
    const { variants: v } = claimParams(state.lang);
    const caption = el('caption', { textContent: t('after.results.caption', v) });
    const th = (text, scope = 'col', span = {}) => el('th', { scope, textContent: text, ...span });
    // Two header rows: the depths sit under "learned at the lab's rate".
    const head = el('tr');
    head.append(
      th(t('after.results.run'), 'col', { rowSpan: 2 }),
      th(t('after.results.atRate', v), 'colgroup', { colSpan: v.depthList.length }),
      th(t('after.results.all', v), 'col', { rowSpan: 2 }),
      th(t('after.results.peak'), 'col', { rowSpan: 2 }),
    );
    const depths = el('tr');
    depths.append(...v.depthList.map((layers) => th(String(layers))));
    const body = el('tbody');
    for (const row of v.table) {
      const tr = el('tr');
      tr.dataset.run = row.run;
      tr.append(
        th(t(`after.runs.${row.run}`), 'row'),
        ...row.atLabRate.map((n) => el('td', { textContent: t('after.results.count', { n, of: v.seeds }) })),
        el('td', { textContent: t('after.results.count', { n: row.learned, of: v.runsEach }) }),
        el('td', { textContent: row.peak }),
      );
      body.append(tr);
    }
    const thead = el('thead');
    thead.append(head, depths);
    table.replaceChildren(caption, thead, body);
  },
};
