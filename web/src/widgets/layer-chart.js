// "L2/tok across layers": the residual stream's length per token where it
// enters each layer (and once more after the last), against the norms'
// outputs (pink), with a reference line at sqrt(d). A marker follows the
// Layer selector and the auto-run; the pointer gets a read-out of any layer.
import { drawLineChart } from '../charts/line-chart.js'
import { createChartFrame } from '../charts/chart-frame.js'
import { createLegend } from '../charts/legend.js'
import { decimals, significant } from '../format.js'
import { CHART_SCALES } from '../state.js'
import { createDataTable } from './data-table.js'
import { el, labelledControl, setOptions, setText } from './dom.js'

const SCALE_TEXT = { log: 'layerChart.scaleLog', linear: 'layerChart.scaleLinear' }

// on: { scale('log' | 'linear') }
export function createLayerChart(root, on) {
  const { wrap: scaleWrap, input: scaleSelect, label: scaleLabel } = labelledControl('layer-chart-scale', 'select')
  scaleWrap.classList.add('control-inline')
  scaleSelect.addEventListener('change', () => on.scale(scaleSelect.value))
  const pending = el('p', { className: 'slot-pending' })
  const summary = el('p', { className: 'chart-summary' })
  const figure = el('figure', { className: 'chart-figure' })
  const legendBox = el('div')
  const chartBox = el('div', { className: 'chart-box' })
  const readoutLine = el('p', { className: 'chart-readout' })
  figure.append(legendBox, chartBox, readoutLine)
  const legend = createLegend(legendBox)
  const chart = createChartFrame(chartBox, { height: 300 })
  const note = el('p', { className: 'widget-note' })
  root.append(scaleWrap, pending, summary, figure, note)
  const table = createDataTable(root)

  let last = null
  let hover = null
  let ctx = null

  function paintChart() {
    const { view, layer, scale } = last
    const { t } = ctx
    const L = view.layers
    const hasNorm = view.config.norm !== 'none'
    const names = normSeriesNames(view, t)
    const inputOut = view.probes['inputNorm.out'].l2
    const postOut = view.probes['postAttentionNorm.out'].l2
    const values = [...view.residualL2, ...(hasNorm ? [...inputOut, ...postOut] : []), view.sqrtD]
    const lo = Math.min(...values)
    const hi = Math.max(...values)
    const series = [{ id: 'residual', label: t('layerChart.seriesResidual'), points: view.residualL2.map((v, l) => [l, v]) }]
    if (hasNorm) {
      series.push(
        { id: 'norm-input', label: names.first, points: Array.from(inputOut, (v, l) => [l, v]) },
        // Both norms' outputs sit near sqrt(d): the second is drawn over the
        // first with a hollow dot at every layer, so neither hides the other.
        { id: 'norm-post', label: names.second, points: Array.from(postOut, (v, l) => [l, v]), dots: true },
      )
    }
    legend.update(series.map(({ id, label, dots }) => ({ id, label, dots })))
    const markerPoints = [{ id: 'residual', y: view.residualL2[layer] }]
    if (hasNorm) markerPoints.push({ id: 'norm-input', y: inputOut[layer] })
    chart.render((svg, width, height) => drawLineChart(svg, width, height, {
      x: { type: 'linear', domain: [0, L], label: t('layerChart.axisLayer'), integer: true },
      y: scale === 'log'
        ? { type: 'log', domain: [lo / 1.4, hi * 1.4], label: t('layerChart.axisL2') }
        : { type: 'linear', domain: [0, hi * 1.08], label: t('layerChart.axisL2') },
      rules: [{ id: 'sqrt-d', value: view.sqrtD, label: t('layerChart.reference', { d: view.hidden, sqrtD: decimals(view.sqrtD, 2) }) }],
      series,
      marker: { x: layer, points: markerPoints },
      legend: true,
      hover: {
        xs: view.residualL2.map((_, l) => l),
        x: hover,
        onMove: (x) => {
          if (x === hover) return
          hover = x
          paintChart()
        },
      },
    }), summary.textContent)
    setText(readoutLine, readoutText(view, hover ?? layer, t))
    readoutLine.dataset.layer = String(hover ?? layer)
  }

  return {
    // data: { view: forward view | null, layer, scale }
    update(data, context) {
      const { t, lang } = context
      setText(scaleLabel, t('layerChart.scale'))
      setOptions(scaleSelect, CHART_SCALES.map((s) => [s, t(SCALE_TEXT[s])]), data.scale)
      pending.hidden = Boolean(data.view)
      setText(pending, t('model.pending'))
      figure.hidden = !data.view
      context.rich(note, 'layerChart.note')
      if (!data.view) return
      if (last && last.view === data.view && last.layer === data.layer && last.scale === data.scale && ctx?.lang === lang) return
      if (last?.view !== data.view) hover = null
      last = data
      ctx = context
      const view = data.view
      setText(summary, summaryText(view, t))
      paintChart()
      const hasNorm = view.config.norm !== 'none'
      const names = normSeriesNames(view, t)
      const columns = [t('layerChart.layerCol'), t('layerChart.seriesResidual')]
      if (hasNorm) columns.push(names.first, names.second)
      const rows = view.residualL2.map((residual, l) => {
        const row = [l < view.layers ? String(l) : t('layerChart.finalRow'), significant(residual)]
        if (hasNorm) {
          row.push(l < view.layers ? significant(view.probes['inputNorm.out'].l2[l]) : '–')
          row.push(l < view.layers ? significant(view.probes['postAttentionNorm.out'].l2[l]) : '–')
        }
        return row
      })
      table.update({ summaryText: t('table.show'), captionText: t('layerChart.tableCaption'), columns, rows })
    },
  }
}

// The sentence above the chart: what the curves did, in computed numbers.
function summaryText(view, t) {
  const first = view.residualL2[0]
  const lastValue = view.residualL2.at(-1)
  const params = {
    depth: view.layers, first: significant(first), last: significant(lastValue), ratio: significant(lastValue / first, 2),
    sqrtD: decimals(view.sqrtD, 2),
  }
  if (view.config.norm === 'none') return t('layerChart.summaryNone', params)
  const outs = [...view.probes['inputNorm.out'].l2, ...view.probes['postAttentionNorm.out'].l2]
  return t('layerChart.summary', { ...params, lo: significant(Math.min(...outs)), hi: significant(Math.max(...outs)) })
}

// The two norms' series, named by where they sit: before attention and
// before the MLP in pre-norm, after attention and after the MLP in post-norm.
function normSeriesNames(view, t) {
  const norm = t(`model.short.${view.config.norm}`)
  return view.config.placement === 'post'
    ? { first: t('layerChart.seriesAfterAttention', { norm }), second: t('layerChart.seriesAfterMlp', { norm }) }
    : { first: t('layerChart.seriesInputNorm', { norm }), second: t('layerChart.seriesPostNorm', { norm }) }
}

function readoutText(view, layer, t) {
  const residual = significant(view.residualL2[layer])
  if (layer === view.layers) return t('layerChart.readoutFinal', { last: view.layers - 1, residual })
  if (view.config.norm === 'none') return t('layerChart.readoutNone', { layer, residual })
  return t(view.config.placement === 'post' ? 'layerChart.readoutPost' : 'layerChart.readout', {
    layer, residual, norm: t(`model.short.${view.config.norm}`),
    inputOut: significant(view.probes['inputNorm.out'].l2[layer]),
    postOut: significant(view.probes['postAttentionNorm.out'].l2[layer]),
  })
}
