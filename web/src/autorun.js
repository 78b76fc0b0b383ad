// The demo panel's auto-run: a walk along one forward pass, stage by stage
// (the forward-pass strip's stages, with one step per layer in the middle),
// after which the reader has the controls. It only keeps time and says where
// the walk is; the page turns each step into state (the layer) and the
// strip's highlight.
//
// status: 'waiting'  starts by itself when the panel first comes into view
//         'off'      starts only when asked (reduced motion, a link that
//                    chose a layer, or a reader who took the controls first)
//         'running' | 'paused' | 'done'
const BEFORE = ['tokenize', 'embed']
const AFTER = ['finalNorm', 'head', 'sample']

// The step'th stop of a walk through `depth` layers.
export function autorunStep(step, depth) {
  if (step < BEFORE.length) return { stage: BEFORE[step], layer: 0 }
  if (step < BEFORE.length + depth) return { stage: 'layers', layer: step - BEFORE.length }
  return { stage: AFTER[step - BEFORE.length - depth], layer: depth - 1 }
}

export const autorunSteps = (depth) => BEFORE.length + depth + AFTER.length

// onStep({ step, steps, stage, layer }), onEnd(); depth() is read at every
// step, so a depth change during the walk shortens or lengthens it.
export function createAutorun({ win, stepMs, startsOff, depth, onStep, onEnd }) {
  let status = startsOff ? 'off' : 'waiting'
  let step = 0
  let timer = null

  function emit() {
    onStep({ step, steps: autorunSteps(depth()), ...autorunStep(step, depth()) })
  }

  function tick() {
    step += 1
    if (step >= autorunSteps(depth())) {
      timer = null
      status = 'done'
      onEnd()
      return
    }
    emit()
    timer = win.setTimeout(tick, stepMs)
  }

  function halt() {
    win.clearTimeout(timer)
    timer = null
  }

  return {
    get status() {
      return status
    },
    get step() {
      return step
    },
    // From the start, whatever the walk was doing.
    play() {
      halt()
      status = 'running'
      step = 0
      emit()
      timer = win.setTimeout(tick, stepMs)
    },
    // The first view of the panel: only a waiting walk starts.
    firstView() {
      if (status === 'waiting') this.play()
    },
    pause() {
      if (status !== 'running') return
      halt()
      status = 'paused'
    },
    resume() {
      if (status !== 'paused') return
      status = 'running'
      timer = win.setTimeout(tick, stepMs)
    },
    // The reader took the controls: the walk ends where it is, and a walk
    // that has not started yet no longer starts by itself.
    handOver() {
      halt()
      if (status === 'running' || status === 'paused') {
        status = 'done'
        onEnd()
      } else if (status === 'waiting') status = 'off'
    },
  }
}
