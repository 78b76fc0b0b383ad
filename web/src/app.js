// The page: one state object, one render(). Input handlers change the state
// and call render(); render() computes every figure from the state through
// the wasm kernels (compute.js) and hands the results to the widgets.
import { computeSoftmax, computeWorkedExample, createCalculatorModel, createPlaygroundModel } from './compute.js'
import { PLAYGROUND_DIM, PLAYGROUND_SEED, REFERENCE_MODEL } from './constants.js'
import { DICTIONARIES, LANGUAGE_CODES, detectLanguage, lookup, plain } from './i18n/index.js'
import { KATEX_VERSION, mathNode, typeset } from './math.js'
import { estimateReadingMinutes } from './reading-time.js'
import { richNodes } from './rich-text.js'
import { isQuizAnswer, searchFromState, stateFromSearch } from './state.js'
import { createCalculator } from './widgets/calculator.js'
import { el, setOptions } from './widgets/dom.js'
import { createForwardStrip } from './widgets/forward-strip.js'
import { createGlossary, createTerm, installTermTooltips } from './widgets/glossary.js'
import { createModelSlot } from './widgets/model-slot.js'
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
}

const URL_WRITE_DELAY_MS = 250

export function startPage({ loadNormlab, doc = document, win = window }) {
  const detected = detectLanguage(win.navigator.languages?.length ? win.navigator.languages : [win.navigator.language])
  const { state, rejected } = stateFromSearch(win.location.search, detected)
  // What is not part of a shareable view: the loaded kernels and the notes.
  const runtime = {
    nl: null,
    backend: 'loading',
    notices: rejected.map((r) => ({ key: 'notice.paramRejected', params: r })),
    paintedLang: null,
  }

  const context = makeContext(() => state.lang)
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
  const modelSlots = [...doc.querySelectorAll('.model-slot')].map((root) => createModelSlot(root, { whatKey: root.dataset.what }))
  const computeCalculator = createCalculatorModel()
  const computePlayground = createPlaygroundModel()

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

  function paint() {
    const ctx = context()
    const root = doc.documentElement
    root.lang = state.lang
    root.dataset.theme = state.theme
    const languageChanged = runtime.paintedLang !== state.lang
    if (languageChanged) paintStaticText(doc, ctx)

    setOptions(langSelect, LANGUAGE_CODES.map((code) => [code, DICTIONARIES[code].meta.langName]), state.lang)
    for (const option of langSelect.options) option.lang = option.value
    setOptions(themeSelect, [['auto', ctx.t('toolbar.themeAuto')], ['light', ctx.t('toolbar.themeLight')], ['dark', ctx.t('toolbar.themeDark')]], state.theme)
    backendOut.dataset.backend = runtime.backend
    backendOut.textContent = runtime.backend === 'loading' ? ctx.t('toolbar.backendLoading')
      : runtime.backend === 'failed' ? ctx.t('toolbar.backendFailed') : runtime.backend
    paintNotices(ctx)

    const nl = runtime.nl
    guarded('strip', () => strip.update({ t: ctx.t, layers: REFERENCE_MODEL.layers }))
    guarded('glossary', () => glossary.update(ctx))
    guarded('softmax', () => softmax.update(nl && computeSoftmax(nl, state.l2), ctx))
    guarded('worked example', () => worked.update(nl && computeWorkedExample(nl), ctx))
    guarded('calculator', () => calculator.update(nl ? computeCalculator(nl, state.vector, state.eps)
      : { text: state.vector, eps: state.eps, error: null, result: null }, ctx))
    guarded('playground', () => playground.update(nl && computePlayground(nl, state.stretch, state.eps), ctx))
    guarded('quiz', () => quiz.update(state.quiz, ctx))
    for (const slot of modelSlots) guarded('model view', () => slot.update(null, ctx))

    if (languageChanged) {
      runtime.paintedLang = state.lang
      readingTime.textContent = ctx.t('intro.readingTime', { minutes: estimateReadingMinutes(doc.getElementById('content'), state.lang) })
    }
    scheduleUrlWrite()
  }

  // One failing view must not take the others down; the error still
  // reaches the console, where the browser tests look for it.
  function guarded(name, fn) {
    try {
      fn()
    } catch (error) {
      console.error(`normlab: the ${name} view failed:`, error)
    }
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
  }, (error) => {
    runtime.backend = 'failed'
    runtime.notices.push({ key: 'notice.wasmFailed', params: { reason: error.message } })
    render()
  })

  return { state, render, setStage: strip.setStage }
}

// t() gives plain text for the current language; rich() renders a string's
// inline markup into an element, skipping the work if nothing changed.
function makeContext(currentLang) {
  return () => {
    const lang = currentLang()
    const t = (key, params) => plain(lookup(lang, key), params)
    const makers = {
      term: (key, text) => createTerm(key, text, lookup(lang, `glossary.${key}.def`)),
      math: (tex) => mathNode(tex),
    }
    const rich = (node, key, params) => {
      const signature = `${lang}|${key}|${JSON.stringify(params ?? null)}`
      if (node.dataset.rich === signature) return
      node.replaceChildren(...richNodes(lookup(lang, key), params, makers))
      node.dataset.rich = signature
    }
    return { lang, t, rich }
  }
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
