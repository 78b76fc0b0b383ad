// The forward-pass strip at the top of the page: the stages one token goes
// through, in order. setStage() highlights one of them; the demo panel's
// auto-run uses it to show where in the pass the figures come from.
export const STAGES = ['tokenize', 'embed', 'layers', 'finalNorm', 'head', 'sample']

export function createForwardStrip(root) {
  const list = document.createElement('ol')
  list.className = 'strip'
  const items = new Map(STAGES.map((stage) => {
    const li = document.createElement('li')
    li.className = 'strip-stage'
    li.dataset.stage = stage
    const name = document.createElement('span')
    name.className = 'strip-name'
    li.append(name)
    if (stage === 'layers') {
      const detail = document.createElement('span')
      detail.className = 'strip-detail'
      li.append(detail)
    }
    list.append(li)
    return [stage, li]
  }))
  root.append(list)
  let current = null

  function setStage(stage) {
    current = STAGES.includes(stage) ? stage : null
    for (const [name, li] of items) {
      const on = name === current
      li.classList.toggle('is-current', on)
      if (on) li.setAttribute('aria-current', 'step')
      else li.removeAttribute('aria-current')
    }
  }

  return {
    setStage,
    update({ t, layers }) {
      for (const [stage, li] of items) {
        li.querySelector('.strip-name').textContent = t(`strip.${stage}`, { layers })
        li.querySelector('.strip-detail')?.replaceChildren(t('strip.layersDetail'))
      }
      setStage(current)
    },
  }
}
