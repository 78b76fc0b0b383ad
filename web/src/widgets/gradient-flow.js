// Gradient flow, pre-norm vs post-norm: the backward pass of two stacks of
// the same depth and weights that differ only in where the norm sits. Per
// layer: the norm of all its parameters' gradients, and the residual stream's
// gradient where it enters the layer; for post-norm also each norm's
// rescaling factor and their running product. Below them, a short reading of
// what the numbers say, its wording chosen by the numbers themselves.
import { drawLineChart } from '../charts/line-chart.js'
import { createChartFrame } from '../charts/chart-frame.js'
import { createLegend } from '../charts/legend.js'
import { GRAD_DEPTH_MAX, GRAD_DEPTH_MIN, GROWTH_REPRODUCED_FROM } from '../constants.js'
import { significant } from '../format.js'
import { createDataTable } from './data-table.js'
import { el, labelledControl, readout, setAttr, setText } from './dom.js'

// A measured gradient counts as "far more" than the rescalings alone allow
// when it is at least this many times their product.
const GIVES_BACK_FROM = 2

// on: { depth(n) }
export function createGradientFlow(root, on) {
  const { wrap: depthWrap, input: slider, label: sliderLabel } = labelledControl('grad-depth', 'input', {
    type: 'range', min: GRAD_DEPTH_MIN, max: GRAD_DEPTH_MAX, step: 1,
  })
  depthWrap.classList.add('control-grow')
  const depthOut = el('output', { className: 'control-value control-value-short', htmlFor: slider.id })
  depthWrap.append(depthOut)
  slider.addEventListener('input', () => on.depth(Number(slider.value)))

  const status = el('p', { className: 'gradient-status', role: 'status' })
  const error = el('p', { className: 'input-error' })
  const body = el('div', { className: 'gradient-body' })
  const preRatio = readout()
  const postRatio = readout()
  const product = readout()
  const loss = readout()
  preRatio.value.dataset.readout = 'pre-ratio'
  postRatio.value.dataset.readout = 'post-ratio'
  product.value.dataset.readout = 'product'
  loss.value.dataset.readout = 'loss'
  const readouts = el('dl', { className: 'readouts' })
  readouts.append(preRatio.wrap, postRatio.wrap, product.wrap, loss.wrap)

  const figures = {}
  for (const [name, height] of [['params', 250], ['residual', 230], ['rescale', 230]]) {
    const figure = el('figure', { className: 'chart-figure' })
    const caption = el('figcaption', { className: 'chart-caption' })
    const legendBox = el('div')
    const box = el('div', { className: 'chart-box' })
    figure.append(caption, legendBox, box)
    figures[name] = { figure, caption, legend: createLegend(legendBox), chart: createChartFrame(box, { height }) }
  }
  const reading = el('div', { className: 'reading' })
  const readingTitle = el('h4')
  const readingText = el('div', { className: 'reading-text' })
  reading.append(readingTitle, readingText)
  const note = el('p', { className: 'widget-note' })
  body.append(readouts, figures.params.figure, figures.residual.figure, figures.rescale.figure, reading)
  root.append(depthWrap, status, error, body, note)
  const table = createDataTable(root)
  let painted = null

  return {
    // data: { depth, busy, result: null | { depth, norm, pre, post, error } }
    //   pre / post: compute.js's gradients() results
    update({ depth, busy, result }, { t, lang }) {
      setText(sliderLabel, t('gradient.depth'))
      if (Number(slider.value) !== depth) slider.value = String(depth)
      const depthText = t('gradient.depthValue', { depth })
      setText(depthOut, depthText)
      setAttr(slider, 'aria-valuetext', depthText)
      setText(note, t('gradient.note'))
      setText(status, busy ? t('gradient.updating') : result ? '' : t('model.pending'))
      setAttr(body, 'aria-busy', String(busy))
      root.dataset.busy = String(busy)
      const problem = result?.error ?? null
      error.hidden = !problem
      setText(error, problem ? t(`model.${problem.code}`, problem.params) : '')
      const good = result && !result.error ? result : painted?.result ?? null
      body.hidden = !good
      if (!good) return
      if (painted && painted.result === good && painted.lang === lang) return
      painted = { result: good, lang }
      paint(good, t)
    },
  }

  function paint(result, t) {
    const { pre, post } = result
    const L = pre.layers
    const hasNorm = result.norm !== 'none'
    const ratio = (g) => g.layer[L - 1] / g.layer[0]
    const rescale = post.rescale
    const productEnd = rescale ? rescale.product.at(-1) : null
    const firstOverLast = post.layer[0] / post.layer[L - 1]

    setText(preRatio.label, t('gradient.preRatio'))
    setText(postRatio.label, t('gradient.postRatio'))
    setText(product.label, t('gradient.product', { count: rescale ? rescale.factor.length : 2 * L }))
    setText(loss.label, t('gradient.loss'))
    setText(preRatio.value, `${significant(ratio(pre), 2)}×`)
    setText(postRatio.value, `${significant(ratio(post), 2)}×`)
    setText(product.value, productEnd === null ? '–' : significant(productEnd, 2))
    setText(loss.value, `${significant(pre.loss)} / ${significant(post.loss)}`)

    const x = { type: 'linear', domain: [0, L - 1], label: t('gradient.axisLayer'), integer: true }
    const points = (values) => values.map((v, l) => [l, v])
    const logDomain = (values) => {
      const positive = values.filter((v) => v > 0)
      return [Math.min(...positive) / 1.5, Math.max(...positive) * 1.5]
    }
    const pair = (preValues, postValues) => [
      { id: 'grad-pre', label: t('gradient.seriesPre'), points: points(preValues) },
      { id: 'grad-post', label: t('gradient.seriesPost'), points: points(postValues) },
    ]
    const keys = (series) => series.map(({ id, label }) => ({ id, label }))

    setText(figures.params.caption, t('gradient.paramsTitle'))
    figures.params.legend.update(keys(pair(pre.layer, post.layer)))
    figures.params.chart.render((svg, width, height) => drawLineChart(svg, width, height, {
      x, y: { type: 'log', domain: logDomain([...pre.layer, ...post.layer]), label: t('gradient.axisGrad'), tickFormat: '~g' },
      series: pair(pre.layer, post.layer),
      legend: true,
    }), `${t('gradient.paramsTitle')}: ${t('gradient.preRatio')} ${significant(ratio(pre), 2)}, ${t('gradient.postRatio')} ${significant(ratio(post), 2)}`)

    setText(figures.residual.caption, t('gradient.residualTitle'))
    figures.residual.legend.update(keys(pair(pre.residual, post.residual)))
    figures.residual.chart.render((svg, width, height) => drawLineChart(svg, width, height, {
      x: { ...x, domain: [0, L] },
      y: { type: 'log', domain: logDomain([...pre.residual, ...post.residual]), label: t('gradient.axisGrad'), tickFormat: '~g' },
      series: pair(pre.residual, post.residual),
      legend: true,
    }), t('gradient.residualTitle'))

    figures.rescale.figure.hidden = !rescale
    if (rescale) {
      // Norm n of layer l sits at l + n / 2 on the layer axis.
      const at = (values) => values.map((v, i) => [Math.floor(i / 2) + (i % 2) / 2, v])
      setText(figures.rescale.caption, t('gradient.rescaleTitle'))
      const series = [
        { id: 'rescale-factor', label: t('gradient.seriesFactor'), points: at(rescale.factor), dots: true },
        { id: 'rescale-product', label: t('gradient.seriesProduct'), points: at(rescale.product) },
      ]
      figures.rescale.legend.update(keys(series))
      figures.rescale.chart.render((svg, width, height) => drawLineChart(svg, width, height, {
        x: { ...x, domain: [0, L - 0.5] },
        y: { type: 'log', domain: logDomain([...rescale.factor, ...rescale.product, 1]), label: t('gradient.axisFactor'), tickFormat: '~g' },
        // The axis names 1; the line only marks where a norm stops shrinking.
        rules: [{ id: 'one', value: 1, label: '' }],
        series,
        legend: true,
      }), `${t('gradient.rescaleTitle')}: ${t('gradient.product', { count: rescale.factor.length })} ${significant(productEnd, 2)}`)
    }

    setText(readingTitle, t('gradient.readingTitle'))
    const say = (key, params) => el('p', { textContent: t(key, params) })
    const numbers = {
      depth: L, preRatio: significant(ratio(pre), 2), postRatio: significant(ratio(post), 2),
      threshold: GROWTH_REPRODUCED_FROM, count: rescale?.factor.length ?? 0,
      product: productEnd === null ? '' : significant(productEnd, 2), firstOverLast: significant(firstOverLast, 2),
    }
    const paragraphs = []
    if (!hasNorm) paragraphs.push(say('gradient.readingNoNorm', numbers))
    else {
      paragraphs.push(say('gradient.readingRatios', numbers))
      paragraphs.push(say(ratio(post) >= GROWTH_REPRODUCED_FROM ? 'gradient.readingReproduced' : 'gradient.readingNotReproduced', numbers))
      // "Level" within the same factor either way.
      const preShape = ratio(pre) < 1 / GROWTH_REPRODUCED_FROM ? 'readingPreFalls' : ratio(pre) > GROWTH_REPRODUCED_FROM ? 'readingPreGrows' : 'readingPreLevel'
      paragraphs.push(say(`gradient.${preShape}`, numbers))
      if (rescale) {
        const givesBack = firstOverLast >= GIVES_BACK_FROM * productEnd
        paragraphs.push(say('gradient.readingProduct', numbers))
        paragraphs.push(say(givesBack ? 'gradient.readingGivesBack' : 'gradient.readingAccounts', numbers))
      }
    }
    readingText.replaceChildren(...paragraphs)

    table.update({
      summaryText: t('table.show'),
      captionText: t('gradient.tableCaption', { depth: L }),
      columns: [t('gradient.layerCol'), t('gradient.colParamsPre'), t('gradient.colParamsPost'), t('gradient.colResidualPre'), t('gradient.colResidualPost')],
      rows: pre.layer.map((_, l) => [String(l), significant(pre.layer[l]), significant(post.layer[l]), significant(pre.residual[l]), significant(post.residual[l])]),
    })
  }
}
