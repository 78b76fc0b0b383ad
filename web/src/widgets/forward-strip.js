// The forward-pass strip: the stages one token goes through, in order.
// setStage() highlights one of them; the demo panel's walk uses it to show
// where in the pass the figures come from. The page's strip sits at the top;
// the compact copy (compact: true) sits next to the demo panel's chart, where
// the walk is watched, thousands of pixels below it: stage names only, and
// while the walk is in the layers, which ones.
export const STAGES = ['tokenize', 'embed', 'layers', 'finalNorm', 'head', 'sample'];

export function createForwardStrip(root, { compact = false } = {}) {
  const list = document.createElement('ol');
  list.className = compact ? 'strip strip-compact' : 'strip';
  const items = new Map(
    STAGES.map((stage) => {
      const li = document.createElement('li');
      li.className = 'strip-stage';
      li.dataset.stage = stage;
      const name = document.createElement('span');
      name.className = 'strip-name';
      li.append(name);
      if (stage === 'layers') {
        const detail = document.createElement('span');
        detail.className = 'strip-detail';
        li.append(detail);
      }
      list.append(li);
      return [stage, li];
    }),
  );
  root.append(list);
  let current = null;
  let range = null;
  let text = null;

  function paintDetail() {
    const detail = items.get('layers').querySelector('.strip-detail');
    if (!text) return;
    const value = compact
      ? current === 'layers' && range
        ? text.t('strip.layersRange', { from: range.from, to: range.to })
        : ''
      : text.t('strip.layersDetail');
    if (detail.textContent !== value) detail.textContent = value;
  }

  // stage: one of STAGES, or null for none; layers: { from, to } while the
  // walk is in the layers (shown by the compact copy).
  function setStage(stage, layers = null) {
    current = STAGES.includes(stage) ? stage : null;
    range = layers;
    for (const [name, li] of items) {
      const on = name === current;
      li.classList.toggle('is-current', on);
      if (on) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    }
    paintDetail();
  }

  return {
    setStage,
    // t: the text function; layers: how many layers the strip names.
    update({ t, layers }) {
      text = { t };
      // Written only when they change: the compact copy is updated on every
      // repaint of the demo panel.
      for (const [stage, li] of items) {
        const name = li.querySelector('.strip-name');
        const value = t(`strip.${stage}`, { layers });
        if (name.textContent !== value) name.textContent = value;
      }
      if (compact && list.getAttribute('aria-label') !== t('strip.label'))
        list.setAttribute('aria-label', t('strip.label'));
      setStage(current, range);
    },
  };
}
