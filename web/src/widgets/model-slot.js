// A view whose figures come from normlab's synthetic model: the learned-gain
// bars, the L2/tok-across-layers chart, the single-layer breakdown, the
// auto-run, gradient flow and attention saturation. Like every widget it is
// driven through update(data, ctx); until the model is part of the build,
// data is null and the slot says so plainly instead of drawing anything.
//
// The data each view will receive (produced by the page from the model's
// results, never by the widget itself):
//   gain             { gains: Float32Array(48), amplified, suppressed, min, max }
//   layer-chart      { residualL2: number[depth], inputNormOutL2: number[depth],
//                      postAttentionNormOutL2: number[depth], sqrtD, scale: 'log' | 'linear' }
//   layer-breakdown  { layer, depth, probes: { [probeName]: { l2, mean, variance, std, rms } } }
//   autorun          { layer, depth, running, done }
//   gradient-flow    { depth, pre: number[depth], post: number[depth],
//                      postRescale: number[depth], postRunningProduct: number[depth] }
//   attention        { maxProb: number[depth], entropy: number[depth] }
import { el } from './dom.js'

export function createModelSlot(root, { whatKey }) {
  const badge = el('p', { className: 'slot-badge' })
  const what = el('p', { className: 'slot-what' })
  const pending = el('p', { className: 'slot-pending' })
  const body = el('div', { className: 'slot-body' })
  root.append(badge, what, pending, body)

  return {
    update(data, { t, rich }) {
      badge.textContent = t('model.pendingTitle')
      rich(what, whatKey)
      pending.textContent = t('model.pending')
      pending.hidden = data !== null
    },
  }
}
