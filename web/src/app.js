// The page: one state object, one render(). Input handlers change the state
// and call render(); render() computes every figure from the state through
// the wasm kernels (compute.js) and hands the results to the widgets.
import { computeSoftmax, computeWorkedExample, createCalculatorModel, createPlaygroundModel } from './compute.js'
import { MAX_PROMPT_TOKENS, MODEL_SHAPE, PLAYGROUND_DIM, PLAYGROUND_SEED, REFERENCE_MODEL } from './constants.js'
import { createDemoController } from './demo-controller.js'
import { DICTIONARIES, LANGUAGE_CODES, detectLanguage } from './i18n/index.js'
import { KATEX_VERSION, typeset } from './math.js'
import { estimateReadingMinutes } from './reading-time.js'
import { isQuizAnswer, searchFromState, stateFromSearch } from './state.js'
import { textContext } from './text-context.js'
import { createCalculator } from './widgets/calculator.js'
import { el, setOptions } from './widgets/dom.js'
import { createForwardStrip } from './widgets/forward-strip.js'
import { createGlossary, installTermTooltips } from './widgets/glossary.js'
import { createAttentionWidget } from './widgets/attention.js'
import { createAutorunWidget } from './widgets/autorun.js'
import { createGainWidget } from './widgets/gain.js'
import { createGradientFlow } from './widgets/gradient-flow.js'
import { createLayerBreakdown } from './widgets/layer-breakdown.js'
import { createLayerChart } from './widgets/layer-chart.js'
import { createModelControls } from './widgets/model-controls.js'
import { createPlayground } from './widgets/playground.js'
import { createQuiz } from './widgets/quiz.js'
import { createSoftmaxWidget } from './widgets/softmax.js'
import { createWorkedExample } from './widgets/worked-example.js'

// Versions of the bundled libraries, injected by web/build.mjs from their
// package.json files so the references section cannot go stale.
const LIBRARY_VERSIONS = NORMLAB_LIBRARY_VERSIONS

// Parameters of strings that appear in the static page text.
const STATIC_PARAMS = {
  'intro.reference': REFERENCE_MODEL,
  'references.katex': { version: KATEX_VERSION },
  'references.d3': LIBRARY_VERSIONS,
  'playground.intro': { d: PLAYGROUND_DIM, seed: PLAYGROUND_SEED },
  'demo.settingsIntro': { ...MODEL_SHAPE, maxTokens: MAX_PROMPT_TOKENS },
}

const URL_WRITE_DELAY_MS = 250

export function startPage({ loadNormlab, doc = document, win = window, extraNotices = [] }) {
  const detected = detectLanguage(win.navigator.languages?.length ? win.navigator.languages : [win.navigator.language])
  const { state, rejected, given } = stateFromSearch(win.location.search, detected)
  const reducedMotion = Boolean(win.matchMedia?.('(prefers-reduced-motion: reduce)').matches)
  // What is not part of a shareable view and not the demo's (that is the
  // demo controller's runtime): the loaded kernels, the notes, the walk's
  // position.
  const runtime = {
    nl: null,
    backend: 'loading',
    notices: [...rejected.map((r) => ({ key: 'notice.paramRejected', params: r })), ...extraNotices],
    paintedLang: null,
    demoSeen: false,
    autorunStep: null,
    paintedGradients: null,
  }
  // Opt-in User Timing marks for tests/bench/page-perf.mjs.
  const timing = win.NORMLAB_TIMING === true

  const context = () => textContext(state.lang)
  const widget = (name) => doc.querySelector(`[data-widget="${name}"]`)
  const strip = createForwardStrip(widget('forward-strip'))
  const glossary = createGlossary(widget('glossary'))
  const softmax = createSoftmaxWidget(widget('softmax'), {
    onMagnitude: (l2) => set({ l2 }),
  })
  const worked = createWorkedExample(widget('worked-example'))
  const calculator = createCalculator(widget('calculator'), {
    onVector: (vector) => set({ vector }),
    onEps: (eps) => set({ eps }),
  })
  const playground = createPlayground(widget('playground'), {
    onStretch: (stretch) => set({ stretch }),
    onEps: (eps) => set({ eps }),
  })
  const quiz = createQuiz(widget('quiz'), {
    onAnswer: (id, option) => {
      if (isQuizAnswer(option)) set({ quiz: { ...state.quiz, [id]: option } })
    },
  })
  const gain = createGainWidget(widget('gain'))
  const modelControls = createModelControls(widget('model-controls'), {
    prompt: (prompt) => set({ prompt }),
    resetPrompt: () => set({ prompt: null }),
    norm: (norm) => set({ norm }),
    placement: (placement) => set({ placement }),
    depth: (depth) => set({ depth, layer: Math.min(state.layer, depth - 1) }),
    eps: (eps) => set({ eps }),
  })
  const demo = createDemoController({
    win,
    render: () => render(),
    timing,
    walk: {
      // A link that chose a layer shows that layer; a reader who asked for
      // reduced motion starts the walk themselves.
      startsOff: reducedMotion || given.includes('layer'),
      depth: () => state.depth,
      onStep: (step) => {
        runtime.autorunStep = step
        strip.setStage(step.stage)
        set({ layer: step.layer })
      },
      onEnd: () => {
        strip.setStage(null)
        render()
      },
    },
  })
  const autorun = demo.walk
  const autorunWidget = createAutorunWidget(widget('autorun'), {
    play: () => autorun.play(),
    pause: () => {
      autorun.pause()
      render()
    },
    resume: () => {
      autorun.resume()
      render()
    },
  })
  const layerChart = createLayerChart(widget('layer-chart'), { scale: (layerScale) => set({ layerScale }) })
  const breakdown = createLayerBreakdown(widget('layer-breakdown'), {
    layer: (layer) => {
      autorun.handOver()
      set({ layer })
    },
  })
  const attention = createAttentionWidget(widget('attention'))
  const gradientFlow = createGradientFlow(widget('gradient-flow'), { depth: (gradDepth) => set({ gradDepth }) })
  const computeCalculator = createCalculatorModel()
  const computePlayground = createPlaygroundModel()

  // The walk starts the first time the chart comes into view, once the model
  // can fill it.
  if ('IntersectionObserver' in win) {
    const observer = new win.IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return
      observer.disconnect()
      runtime.demoSeen = true
      if (runtime.nl) autorun.firstView()
    }, { threshold: 0.25 })
    observer.observe(widget('layer-chart'))
  }

  const langSelect = doc.getElementById('lang-select')
  const themeSelect = doc.getElementById('theme-select')
  const backendOut = doc.getElementById('backend')
  const notices = doc.getElementById('notices')
  const readingTime = doc.getElementById('reading-time')
  langSelect.addEventListener('change', () => set({ lang: langSelect.value }))
  themeSelect.addEventListener('change', () => set({ theme: themeSelect.value }))
  installTermTooltips(doc)
  for (const node of doc.querySelectorAll('[data-tex]')) typeset(node, node.dataset.tex, { display: true })

  function set(changes) {
    Object.assign(state, changes)
    demo.input()
    render()
  }

  // Repaints coalesce into one per frame, however many inputs fire.
  let frameRequested = false
  function render() {
    if (frameRequested) return
    frameRequested = true
    win.requestAnimationFrame(() => {
      frameRequested = false
      paint()
    })
  }

  // A view is repainted only when what it shows changed: most inputs touch
  // one widget, and rewriting the others' text would cost a page-wide style
  // and layout pass on every slider move.
  const paintedInputs = new Map()
  function changed(name, inputs) {
    const signature = JSON.stringify(inputs)
    if (paintedInputs.get(name) === signature) return false
    paintedInputs.set(name, signature)
    return true
  }

  function paint() {
    const paintStart = win.performance.now()
    const ctx = context()
    const root = doc.documentElement
    const languageChanged = runtime.paintedLang !== state.lang
    if (root.lang !== state.lang) root.lang = state.lang
    if (root.dataset.theme !== state.theme) root.dataset.theme = state.theme
    if (languageChanged) paintStaticText(doc, ctx)

    const nl = runtime.nl
    const loaded = runtime.backend
    if (changed('toolbar', [state.lang, state.theme, loaded])) {
      setOptions(langSelect, LANGUAGE_CODES.map((code) => [code, DICTIONARIES[code].meta.langName]), state.lang)
      for (const option of langSelect.options) option.lang = option.value
      setOptions(themeSelect, [['auto', ctx.t('toolbar.themeAuto')], ['light', ctx.t('toolbar.themeLight')], ['dark', ctx.t('toolbar.themeDark')]], state.theme)
      backendOut.dataset.backend = runtime.backend
      backendOut.textContent = runtime.backend === 'loading' ? ctx.t('toolbar.backendLoading')
        : runtime.backend === 'failed' ? ctx.t('toolbar.backendFailed') : runtime.backend
    }
    if (changed('notices', [state.lang, runtime.notices])) paintNotices(ctx)

    if (changed('strip', [state.lang])) guarded('strip', () => strip.update({ t: ctx.t, layers: REFERENCE_MODEL.layers }))
    if (changed('glossary', [state.lang])) guarded('glossary', () => glossary.update(ctx))
    if (changed('softmax', [state.lang, loaded, state.l2])) guarded('softmax', () => softmax.update(nl && computeSoftmax(nl, state.l2), ctx))
    if (changed('worked example', [state.lang, loaded])) guarded('worked example', () => worked.update(nl && computeWorkedExample(nl), ctx))
    if (changed('calculator', [state.lang, loaded, state.vector, state.eps])) {
      guarded('calculator', () => calculator.update(nl ? computeCalculator(nl, state.vector, state.eps)
        : { text: state.vector, eps: state.eps, error: null, result: null }, ctx))
    }
    if (changed('playground', [state.lang, loaded, state.stretch, state.eps])) {
      guarded('playground', () => playground.update(nl && computePlayground(nl, state.stretch, state.eps), ctx))
    }
    if (changed('quiz', [state.lang, state.quiz])) guarded('quiz', () => quiz.update(state.quiz, ctx))
    paintModelViews(nl, ctx)

    if (languageChanged) {
      runtime.paintedLang = state.lang
      readingTime.textContent = ctx.t('intro.readingTime', { minutes: estimateReadingMinutes(doc.getElementById('content'), state.lang) })
    }
    scheduleUrlWrite()
    if (timing) win.performance.measure('normlab:paint', { start: paintStart, end: win.performance.now() })
  }

  // The demo panel's settings as the model takes them; the prompt's default
  // is the page language's example prompt.
  function modelSettings() {
    const prompt = state.prompt ?? ctxPrompt()
    return { prompt, norm: state.norm, placement: state.placement, depth: state.depth, eps: state.eps }
  }
  function ctxPrompt() {
    return context().t('model.defaultPrompt')
  }
  function gradientSettings(settings) {
    return { prompt: settings.prompt, norm: settings.norm, eps: settings.eps, depth: state.gradDepth }
  }

  function paintModelViews(nl, ctx) {
    const settings = modelSettings()
    let forward = null
    let gradients = { busy: false, result: null }
    if (nl) {
      guarded('model', () => {
        forward = demo.forward(nl, settings)
      })
      gradients = demo.gradients(nl, gradientSettings(settings))
    }
    const view = forward?.view ?? null
    const layer = Math.min(state.layer, (view?.layers ?? state.depth) - 1)
    guarded('model settings', () => modelControls.update({ settings, isDefaultPrompt: state.prompt === null, forward }, ctx))
    guarded('learned gain', () => gain.update(nl && view ? demo.gains(nl, settings) : null, ctx))
    const step = runtime.autorunStep
    guarded('auto-run', () => autorunWidget.update({
      status: autorun.status, step: autorun.step, steps: step?.steps ?? state.depth + 5, stage: step?.stage ?? 'tokenize',
      layer, depth: state.depth, reducedMotion, view,
    }, ctx))
    guarded('layer chart', () => layerChart.update({ view, layer, scale: state.layerScale }, ctx))
    guarded('layer breakdown', () => breakdown.update({ view, layer, depth: state.depth }, ctx))
    guarded('attention', () => attention.update({ view, layer }, ctx))
    guarded('gradient flow', () => gradientFlow.update({ depth: state.gradDepth, ...gradients }, ctx))
    if (timing && gradients.result && runtime.paintedGradients !== gradients.result) {
      win.performance.measure('normlab:gradient-views', { start: demo.runtime.gradients.inputAt, end: win.performance.now() })
    }
    runtime.paintedGradients = gradients.result
    if (nl) demo.idle()
  }

  // One failing view must not take the others down; the error still
  // reaches the console, where the browser tests look for it.
  function guarded(name, fn) {
    const start = timing ? win.performance.now() : 0
    try {
      fn()
    } catch (error) {
      console.error(`normlab: the ${name} view failed:`, error)
    }
    if (timing) win.performance.measure(`normlab:view:${name}`, { start, end: win.performance.now() })
  }

  function paintNotices(ctx) {
    notices.replaceChildren(...runtime.notices.map((notice, index) => {
      const box = el('div', { className: 'notice', role: 'status' })
      const text = el('p', { textContent: ctx.t(notice.key, notice.params) })
      const dismiss = el('button', { type: 'button', className: 'button-quiet', textContent: ctx.t('notice.dismiss') })
      dismiss.addEventListener('click', () => {
        runtime.notices.splice(index, 1)
        render()
      })
      box.append(text, dismiss)
      return box
    }))
  }

  let urlTimer = null
  function scheduleUrlWrite() {
    win.clearTimeout(urlTimer)
    urlTimer = win.setTimeout(() => {
      const search = searchFromState(state)
      if (search === win.location.search) return
      try {
        win.history.replaceState(null, '', `${search}${win.location.hash}`)
      } catch {
        // Some browsers refuse history changes for file:// pages; the page
        // works the same, only the address bar does not follow.
      }
    }, URL_WRITE_DELAY_MS)
  }

  paint()
  const load = typeof loadNormlab === 'function'
    ? loadNormlab({ backend: state.backend })
    : Promise.reject(new Error('normlab.js did not load'))
  load.then((nl) => {
    runtime.nl = nl
    runtime.backend = nl.backend
    render()
    if (runtime.demoSeen) autorun.firstView()
  }, (error) => {
    runtime.backend = 'failed'
    runtime.notices.push({ key: 'notice.wasmFailed', params: { reason: error.message } })
    render()
  })

  return { state, render, setStage: strip.setStage }
}


function paintStaticText(doc, ctx) {
  doc.title = ctx.t('meta.title')
  for (const node of doc.querySelectorAll('[data-i18n]')) {
    const key = node.dataset.i18n
    ctx.rich(node, key, STATIC_PARAMS[key] ?? { layers: REFERENCE_MODEL.layers })
  }
  for (const node of doc.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':')
      node.setAttribute(attr, ctx.t(key, STATIC_PARAMS[key]))
    }
  }
}
