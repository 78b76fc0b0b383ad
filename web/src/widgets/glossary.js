// The glossary section and the glossary terms used inline in the prose.
// A term in the text is a link to its glossary entry (useful on touch
// screens); hovering it or moving the keyboard focus onto it shows the
// definition in a tooltip, and screen readers get the same definition
// through aria-describedby. Escape hides an open tooltip (WCAG 1.4.13).
export const GLOSSARY_KEYS = ['rmsnorm', 'layernorm', 'prenorm', 'postnorm', 'variance', 'l2', 'gain', 'identity']

const definitionId = (key) => `glossary-def-${key}`

export function createGlossary(root) {
  const list = document.createElement('dl')
  list.className = 'glossary-list'
  root.append(list)
  return {
    update({ t }) {
      list.replaceChildren(...GLOSSARY_KEYS.flatMap((key) => {
        const dt = document.createElement('dt')
        dt.id = `glossary-${key}`
        dt.textContent = t(`glossary.${key}.term`)
        const dd = document.createElement('dd')
        dd.id = definitionId(key)
        dd.textContent = t(`glossary.${key}.def`)
        return [dt, dd]
      }))
    },
  }
}

// One inline term. The definition text is duplicated into the tooltip (hidden
// from assistive technology, which reads the glossary entry instead).
export function createTerm(key, text, definition) {
  const link = document.createElement('a')
  link.className = 'term'
  link.href = `#glossary-${key}`
  link.setAttribute('aria-describedby', definitionId(key))
  link.append(text)
  const tip = document.createElement('span')
  tip.className = 'term-tip'
  tip.setAttribute('aria-hidden', 'true')
  tip.textContent = definition
  link.append(tip)
  return link
}

// Tooltip behaviour for every term on the page, installed once.
export function installTermTooltips(doc) {
  const show = (term) => {
    term.classList.remove('is-dismissed')
    keepInViewport(term)
  }
  doc.addEventListener('mouseover', (e) => {
    const term = e.target.closest?.('.term')
    if (term) show(term)
  })
  doc.addEventListener('focusin', (e) => {
    if (e.target.classList?.contains('term')) show(e.target)
  })
  doc.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return
    for (const term of doc.querySelectorAll('.term:hover, .term:focus')) term.classList.add('is-dismissed')
  })
}

// A tooltip anchored at a term near the right edge of a narrow screen would
// overflow; shift it left by the overflow (a CSSOM write, allowed by CSP).
function keepInViewport(term) {
  const tip = term.querySelector('.term-tip')
  if (!tip) return
  tip.style.setProperty('--tip-shift', '0px')
  const margin = 8
  const rect = tip.getBoundingClientRect()
  const viewport = term.ownerDocument.documentElement.clientWidth
  const overflow = rect.right + margin - viewport
  const shift = overflow > 0 ? -Math.min(overflow, Math.max(0, rect.left - margin)) : 0
  tip.style.setProperty('--tip-shift', `${shift}px`)
}
