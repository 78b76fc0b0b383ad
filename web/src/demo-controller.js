// The demo panel's behaviour, one module for the page and for the custom
// elements that show the synthetic model (<normlab-demo>, <normlab-layer-chart>,
// <normlab-gain>, <normlab-gradient-flow>): which model instances exist, when
// forward and backward passes run, what runs in idle time, and the auto-run
// walk. The page and the elements keep only their wiring and layout: they
// call forward(), gains(), gradients() while painting, input() on every input,
// and get render() back when work finished in the background brings
// something new to show.
//
// Everything here that is not URL state lives in one object, `runtime`
// (below): the model instances, the last forward view and the last good one,
// the gain sample, the gradient views' schedule and results, the idle
// extension and the walk.
//
// Model instances. One per configuration in use: the forward views' (norm,
// placement, eps) and the gradient views' pre- and post-norm stacks at their
// own depth. The forward views' instance is DEPTH_MAX layers deep and runs the
// first `depth` of them: layer l's weights depend on the seed and l alone, so
// that is the depth-layer model, and the instance keeps the prompt's residual
// stream, so a depth move computes only the layers not run yet for this
// prompt (none going down). Every other instance but the `spare` most
// recently used is deleted as soon as no view needs it: switching a setting
// back reuses its instance, and wasm memory, which never shrinks, does not
// pile up.
import { createAutorun } from './autorun.js'
import { forwardView, gradientView, promptProblem, promptTokenCount } from './compute.js'
import {
  AUTORUN_STEP_MS, DEPTH_MAX, GAIN_SAMPLE_SEED, GAIN_SAMPLE_SIZE, GAIN_SOURCE, GRADIENT_SETTLE_MS, MIN_GRADIENT_TOKENS,
  MODEL_SHAPE,
} from './constants.js'
import { seededSample } from './seeded-vector.js'

// Model instances kept beyond the ones in use, so that switching a norm,
// placement or eps setting back skips drawing its weights again. One: each
// spare can hold tens of MB of wasm memory (a 64-layer model with its kept
// residual stream for a 64-token prompt). Depth needs none (one model serves
// every depth), nor do revisited gradient settings (their results are kept).
export const SPARE_MODELS = 1
// Gradient results kept: a few dozen small arrays.
const GRADIENT_CACHE_SIZE = 32
// Layers the forward views' model runs per idle slot (about 3 ms each).
const EXTEND_LAYERS = 8

export function modelConfig({ norm, placement, depth, eps }) {
  return { ...MODEL_SHAPE, norm, placement, layers: depth, eps }
}

// The instance the forward views run at any depth (see above).
export function forwardModelConfig(settings) {
  return modelConfig({ ...settings, depth: DEPTH_MAX })
}

const configKey = (c) => `${c.norm}|${c.placement}|${c.layers}|${c.eps}`

// win: the window (timers, idle callbacks, performance); render(): repaint
// soon; timing: record User Timing measures (tests/bench/page-perf.mjs);
// walk: the auto-run's hooks { startsOff, depth(), onStep(step), onEnd() }.
export function createDemoController({ win, render, timing = false, spare = SPARE_MODELS, walk = null }) {
  const runtime = {
    nl: null,
    // Instances by configuration, least to most recently used.
    models: new Map(),
    // The configurations the views last asked for.
    inUse: { forward: null, gradients: [] },
    // The forward views: the last computed view and its key, and the last
    // good view, kept (and marked stale) while the prompt has a problem.
    forward: { key: null, view: null, lastGood: null },
    // The forward views' model's kept run: the prompt and how deep it ran
    // (the idle extension continues it).
    ran: { model: null, prompt: null, layers: 0 },
    gainView: null,
    // Backward passes wait for the input to settle (GRADIENT_SETTLE_MS), then
    // run one stack per task; results are kept for the last few settings.
    gradients: { key: null, timer: null, settling: false, busy: false, result: null, inputAt: 0, cache: new Map() },
    extension: { handle: null },
    lastInputAt: 0,
  }

  const request = win.requestIdleCallback ? (fn) => win.requestIdleCallback(fn) : (fn) => win.setTimeout(fn, 50)
  const cancelIdle = win.cancelIdleCallback ? (h) => win.cancelIdleCallback(h) : (h) => win.clearTimeout(h)

  function measure(name, start) {
    if (timing) win.performance.measure(name, { start, end: win.performance.now() })
  }

  function modelFor(nl, config) {
    const key = configKey(config)
    let model = runtime.models.get(key)
    if (model) runtime.models.delete(key)
    else model = nl.createModel(config)
    runtime.models.set(key, model)
    return model
  }

  // Deletes every instance not in use but the `spares` most recently used.
  function release(spares = spare) {
    const { forward, gradients } = runtime.inUse
    const wanted = new Set([forward, ...gradients].filter(Boolean).map(configKey))
    let spared = 0
    for (const [key, model] of [...runtime.models].reverse()) {
      if (wanted.has(key)) continue
      if (spared < spares) {
        spared += 1
        continue
      }
      if (runtime.ran.model === model) runtime.ran = { model: null, prompt: null, layers: 0 }
      model.delete()
      runtime.models.delete(key)
    }
  }

  // ---- forward views

  // The forward views' data for the settings ({ prompt, norm, placement,
  // depth, eps }): { prompt, tokens, error, view }.
  function forward(nl, settings) {
    runtime.inUse.forward = forwardModelConfig(settings)
    const { prompt } = settings
    const tokens = promptTokenCount(prompt)
    const problem = promptProblem(prompt)
    const state = runtime.forward
    if (problem) return { prompt, tokens, error: problem, view: state.lastGood }
    const config = modelConfig(settings)
    const key = `${configKey(config)}|${prompt}`
    if (state.key !== key) {
      try {
        const model = modelFor(nl, forwardModelConfig(settings))
        const run = model.forward(prompt, { topK: 5, layers: settings.depth })
        runtime.ran = { model, prompt, layers: settings.depth }
        state.key = key
        state.view = forwardView(run, config, prompt)
      } catch (error) {
        release()
        return { prompt, tokens, error: { code: 'errModel', params: { message: error.message } }, view: state.lastGood }
      }
    }
    release()
    state.lastGood = state.view
    return { prompt, tokens, error: null, view: state.view }
  }

  // A fixed sample of one norm's gains. Layer l's weights come from (seed, l)
  // alone, so every configuration holds the same gains here; they are read
  // once, from the forward views' model.
  function gains(nl, settings) {
    if (runtime.gainView) return runtime.gainView
    const model = runtime.models.get(configKey(forwardModelConfig(settings)))
    if (!model) return null
    const all = model.gains(GAIN_SOURCE.layer, GAIN_SOURCE.which)
    const features = seededSample(all.length, GAIN_SAMPLE_SIZE, GAIN_SAMPLE_SEED)
    const values = features.map((i) => all[i])
    runtime.gainView = {
      ...GAIN_SOURCE,
      hidden: all.length,
      seed: GAIN_SAMPLE_SEED,
      features,
      values,
      amplified: values.filter((g) => g > 1).length,
      suppressed: values.filter((g) => g < 1).length,
      min: Math.min(...values),
      max: Math.max(...values),
      // Over all the norm's gains: the factor its outputs' length carries.
      rmsAll: nl.stats(all).rms[0],
    }
    return runtime.gainView
  }

  // Runs `step` more layers of the forward views' model for the prompt of its
  // last forward view, up to DEPTH_MAX, in the model only (the views are not
  // touched). Returns true while layers remain.
  function extend(step) {
    const ran = runtime.ran
    if (!ran.model || ran.layers >= DEPTH_MAX) return false
    const layers = Math.min(DEPTH_MAX, ran.layers + step)
    try {
      ran.model.forward(ran.prompt, { topK: 1, layers })
    } catch {
      return false
    }
    ran.layers = layers
    return layers < DEPTH_MAX
  }

  // After a paint, in idle time, and after the gradient views (whose 100 ms
  // this must not delay): the forward views' model runs the rest of its
  // DEPTH_MAX layers, EXTEND_LAYERS per idle slot, so a later jump of the
  // depth slider finds its layers run and repaints in one frame. The next
  // paint starts over.
  function scheduleExtension() {
    const state = runtime.extension
    if (state.handle !== null) cancelIdle(state.handle)
    const stepOnce = () => {
      state.handle = null
      const g = runtime.gradients
      if (g.busy || g.settling) {
        state.handle = request(stepOnce)
        return
      }
      if (extend(EXTEND_LAYERS)) state.handle = request(stepOnce)
    }
    state.handle = request(stepOnce)
  }

  // ---- gradient views

  // One stack's backward pass for the gradient view (gradientView in
  // compute.js shapes it).
  function runGradients(nl, settings) {
    const problem = promptProblem(settings.prompt, MIN_GRADIENT_TOKENS)
    if (problem) return { error: problem }
    try {
      return gradientView(modelFor(nl, modelConfig(settings)).gradients(settings.prompt), settings.placement)
    } catch (error) {
      return { error: { code: 'errModel', params: { message: error.message } } }
    }
  }

  // The gradient views for { prompt, norm, eps, depth }: { busy, result }.
  // Backward passes are heavier than a repaint: they run once the input has
  // been still for GRADIENT_SETTLE_MS, one stack per task, so a dragged
  // slider is never held up by them; render() is called when they are done.
  function gradients(nl, settings) {
    const g = runtime.gradients
    runtime.inUse.gradients = [modelConfig({ ...settings, placement: 'pre' }), modelConfig({ ...settings, placement: 'post' })]
    release()
    const key = JSON.stringify(settings)
    if (key === g.key) return { busy: g.busy, result: g.result }
    g.key = key
    g.inputAt = runtime.lastInputAt
    win.clearTimeout(g.timer)
    g.settling = false
    if (g.cache.has(key)) {
      // Shown in the next task's frame, not this one: the input that got here
      // may have a forward pass to show first.
      g.timer = win.setTimeout(() => {
        g.result = g.cache.get(key)
        g.busy = false
        render()
      }, 0)
      return { busy: g.busy, result: g.result }
    }
    g.busy = true
    // The settle time counts from the input itself, not from this paint
    // (which may have waited for a forward pass); an input before it runs out
    // cancels the timer at once (input()).
    g.settling = true
    const wait = Math.max(0, g.inputAt + GRADIENT_SETTLE_MS - win.performance.now())
    g.timer = win.setTimeout(() => {
      g.settling = false
      let start = win.performance.now()
      const pre = runGradients(nl, { ...settings, placement: 'pre' })
      measure('normlab:gradients:pre', start)
      g.timer = win.setTimeout(() => {
        if (g.key !== key) return
        start = win.performance.now()
        const post = runGradients(nl, { ...settings, placement: 'post' })
        measure('normlab:gradients:post', start)
        g.result = { depth: settings.depth, norm: settings.norm, pre, post, error: pre.error ?? post.error ?? null }
        g.cache.set(key, g.result)
        if (g.cache.size > GRADIENT_CACHE_SIZE) g.cache.delete(g.cache.keys().next().value)
        g.busy = false
        render()
      }, 0)
    }, wait)
    return { busy: g.busy, result: g.result }
  }

  // ---- the walk

  const autorun = walk && createAutorun({ win, stepMs: AUTORUN_STEP_MS, ...walk })

  return {
    runtime,
    walk: autorun,
    forward,
    gains,
    gradients,
    extend,
    // Called after every paint that showed forward views.
    idle() {
      scheduleExtension()
    },
    // An input happened now. A backward pass still waiting for the input to
    // settle must not start before this input's frame: that frame schedules
    // it anew.
    input() {
      runtime.lastInputAt = win.performance.now()
      const g = runtime.gradients
      if (g.settling) {
        win.clearTimeout(g.timer)
        g.settling = false
        g.key = null
      }
    },
    // Test access to the instances (an instance per configuration).
    modelFor: (nl, config) => modelFor(nl, config),
    dispose() {
      win.clearTimeout(runtime.gradients.timer)
      if (runtime.extension.handle !== null) cancelIdle(runtime.extension.handle)
      autorun?.pause()
      runtime.inUse = { forward: null, gradients: [] }
      release(0)
    },
  }
}
