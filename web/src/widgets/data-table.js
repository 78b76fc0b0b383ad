// The text alternative every chart carries: a plain table of the numbers the
// chart draws, inside a disclosure so it does not crowd the figure.
export function createDataTable(container) {
  const details = document.createElement('details')
  details.className = 'data-table'
  const summary = document.createElement('summary')
  // Wide tables scroll inside their own keyboard-focusable region instead of
  // widening the page on a phone.
  const scroller = document.createElement('div')
  scroller.className = 'table-scroll'
  scroller.tabIndex = 0
  const table = document.createElement('table')
  const caption = table.createCaption()
  const head = table.createTHead()
  const body = table.createTBody()
  scroller.append(table)
  details.append(summary, scroller)
  container.append(details)

  return {
    // columns: header strings; rows: arrays of cell strings (first cell is
    // the row header).
    update({ summaryText, captionText, columns, rows }) {
      summary.textContent = summaryText
      caption.textContent = captionText
      scroller.setAttribute('aria-label', captionText)
      scroller.setAttribute('role', 'region')
      head.replaceChildren(row(columns, 'th', 'col'))
      body.replaceChildren(...rows.map((cells) => row(cells, 'td', null)))
    },
  }
}

function row(cells, tag, scope) {
  const tr = document.createElement('tr')
  for (const [i, text] of cells.entries()) {
    const isRowHeader = tag === 'td' && i === 0
    const cell = document.createElement(isRowHeader ? 'th' : tag)
    if (scope) cell.scope = scope
    if (isRowHeader) cell.scope = 'row'
    cell.textContent = text
    tr.append(cell)
  }
  return tr
}
