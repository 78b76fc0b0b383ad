// Softmax-saturation widget: six fixed scores, one per token, whose common
// scale follows the per-token magnitude (L2). The probabilities, the largest
// one and the entropy arrive computed (by the wasm softmax and
// distributionStats); this module only draws them.
import { drawHorizontalBars } from '../charts/bar-chart.js'
import { createChartFrame } from '../charts/chart-frame.js'
import { SOFTMAX_L2_UNIT, SOFTMAX_LOG2_MAX, SOFTMAX_LOG2_MIN, SOFTMAX_LOG2_STEP, ZONE_DRIFT_FROM, ZONE_SATURATED_FROM } from '../constants.js'
import { decimals, fixed } from '../format.js'
import { createDataTable } from './data-table.js'
import { el, labelledControl, readout } from './dom.js'

const ZONE_TEXT = { informative: 'zoneInformative', drift: 'zoneDrift', saturated: 'zoneSaturated' }

export const l2FromSlider = (position) => SOFTMAX_L2_UNIT * 2 ** position
export const sliderFromL2 = (l2) => Math.log2(l2 / SOFTMAX_L2_UNIT)

// onMagnitude(l2) is called when the user moves the slider or resets it.
export function createSoftmaxWidget(root, { onMagnitude }) {
  const { wrap: control, input: slider, label } = labelledControl('softmax-l2', 'input', {
    type: 'range', min: SOFTMAX_LOG2_MIN, max: SOFTMAX_LOG2_MAX, step: SOFTMAX_LOG2_STEP,
  })
  // A tick at the default, where a normalized 1024-wide vector sits.
  const ticks = el('datalist', { id: 'softmax-l2-ticks' })
  const defaultTick = el('option', { value: '0' })
  ticks.append(defaultTick)
  slider.setAttribute('list', ticks.id)
  const valueOut = el('output', { className: 'control-value', htmlFor: slider.id })
  const reset = el('button', { type: 'button', className: 'button-quiet' })
  control.append(ticks, valueOut, reset)

  slider.addEventListener('input', () => onMagnitude(l2FromSlider(Number(slider.value))))
  reset.addEventListener('click', () => onMagnitude(SOFTMAX_L2_UNIT))

  const figure = el('figure', { className: 'chart-figure' })
  const chartBox = el('div', { className: 'chart-box' })
  figure.append(chartBox)
  const chart = createChartFrame(chartBox, { height: 210 })

  const top = readout()
  const entropy = readout()
  const zone = readout()
  zone.value.classList.add('zone-badge')
  const readouts = el('dl', { className: 'readouts' })
  readouts.append(top.wrap, entropy.wrap, zone.wrap)
  // Announce the zone, not every number, when it changes.
  const zoneText = el('p', { className: 'zone-text', role: 'status' })

  const thresholds = el('p', { className: 'widget-note' })
  const note = el('p', { className: 'widget-note synthetic-note' })
  const table = createDataTable(root)
  root.prepend(control, figure, readouts, zoneText, thresholds, note)

  return {
    // data: null while the kernels load, else
    // { l2, scale, tokens, scores, logits, probs, maxProb, entropy, maxEntropy, zone }
    update(data, { t, rich }) {
      label.textContent = t('softmax.slider')
      reset.textContent = t('softmax.reset')
      defaultTick.label = t('softmax.defaultMark')
      top.label.textContent = t('softmax.top')
      entropy.label.textContent = t('softmax.entropy')
      zone.label.textContent = t('softmax.zone')
      rich(thresholds, 'softmax.thresholds')
      rich(note, 'softmax.note', { scores: data?.scores.map((s) => fixed(s, 1)).join(', ') ?? '' })
      if (!data) return

      const position = sliderFromL2(data.l2)
      if (Number(slider.value) !== position) slider.value = String(position)
      const valueText = t('softmax.sliderValue', { l2: decimals(data.l2, 1), scale: decimals(data.scale, 2) })
      valueOut.textContent = valueText
      slider.setAttribute('aria-valuetext', valueText)
      reset.disabled = data.l2 === SOFTMAX_L2_UNIT

      const topIndex = data.probs.indexOf(Math.max(...data.probs))
      chart.render((svg, width, height) => drawHorizontalBars(svg, width, height, {
        domain: [0, 1],
        bars: data.tokens.map((token, i) => ({ label: token, value: data.probs[i], text: fixed(data.probs[i]), highlight: i === topIndex })),
        marks: [
          { value: ZONE_DRIFT_FROM, label: t('softmax.zoneDrift') },
          { value: ZONE_SATURATED_FROM, label: t('softmax.zoneSaturated') },
        ],
      }), `${t('softmax.chartLabel')}: ${data.tokens.map((token, i) => `${token} ${fixed(data.probs[i])}`).join(', ')}`)

      top.value.textContent = fixed(data.maxProb)
      entropy.value.textContent = t('softmax.entropyUnit', { value: fixed(data.entropy, 2), max: fixed(data.maxEntropy, 2) })
      zone.value.textContent = t(`softmax.${ZONE_TEXT[data.zone]}`)
      zone.value.dataset.zone = data.zone
      zoneText.textContent = t(`softmax.${ZONE_TEXT[data.zone]}Text`)

      table.update({
        summaryText: t('table.show'),
        captionText: t('softmax.tableCaption', { l2: decimals(data.l2, 1) }),
        columns: [t('softmax.token'), t('softmax.score'), t('softmax.logit'), t('softmax.probability')],
        rows: data.tokens.map((token, i) => [token, fixed(data.scores[i], 1), fixed(data.logits[i], 2), fixed(data.probs[i])]),
      })
    },
  }
}
