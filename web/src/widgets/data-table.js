// The text alternative every chart carries: a plain table of the numbers the
// chart draws, inside a disclosure so it does not crowd the figure.
import { setAttr, setText } from './dom.js';

export function createDataTable(container) {
  const details = document.createElement('details');
  details.className = 'data-table';
  const summary = document.createElement('summary');
  // Wide tables scroll inside their own keyboard-focusable region instead of
  // widening the page on a phone.
  const scroller = document.createElement('div');
  scroller.className = 'table-scroll';
  scroller.tabIndex = 0;
  const table = document.createElement('table');
  const caption = table.createCaption();
  const head = table.createTHead();
  const body = table.createTBody();
  scroller.append(table);
  details.append(summary, scroller);
  // Hidden until it has numbers (a view far from the screen waits for them),
  // so no empty disclosure is ever offered.
  details.hidden = true;
  container.append(details);

  return {
    // columns: header strings; rows: arrays of cell strings (first cell is
    // the row header), or null to leave the rows as they are (a closed
    // table whose rows are written when it opens).
    // Only what changed is written: a table's numbers often stay when its
    // chart's marker moves, and rebuilt rows would be styled and laid out
    // again.
    update({ summaryText, captionText, columns, rows }) {
      details.hidden = false;
      setText(summary, summaryText);
      setText(caption, captionText);
      setAttr(scroller, 'aria-label', captionText);
      setAttr(scroller, 'role', 'region');
      fill(head, [columns], 'th', 'col');
      if (rows) fill(body, rows, 'td', null);
    },
  };
}

// Makes section's rows read `rows`: rows of the same length keep their
// cells and change only differing text; others are rebuilt.
function fill(section, rows, tag, scope) {
  const trs = section.rows;
  for (let r = trs.length - 1; r >= rows.length; r--) trs[r].remove();
  rows.forEach((cells, r) => {
    const tr = trs[r];
    if (!tr) section.append(row(cells, tag, scope));
    else if (tr.cells.length !== cells.length) tr.replaceWith(row(cells, tag, scope));
    else cells.forEach((text, i) => setText(tr.cells[i], text));
  });
}

function row(cells, tag, scope) {
  const tr = document.createElement('tr');
  for (const [i, text] of cells.entries()) {
    const isRowHeader = tag === 'td' && i === 0;
    const cell = document.createElement(isRowHeader ? 'th' : tag);
    if (scope) cell.scope = scope;
    if (isRowHeader) cell.scope = 'row';
    cell.textContent = text;
    tr.append(cell);
  }
  return tr;
}
