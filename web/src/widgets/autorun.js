// The auto-run's controls and progress: where the walk along the forward
// pass is, what the model measured there, and buttons to pause, resume or
// replay it. The walk itself is timed by src/autorun.js; the numbers come
// from the forward view the page computed.
import { significant } from '../format.js'
import { el, setAttr, setText } from './dom.js'

// A byte token as text: printable ASCII as itself, anything else as hex.
export function byteLabel(id) {
  return id >= 0x21 && id <= 0x7e ? `“${String.fromCharCode(id)}”` : id === 0x20 ? '“␠”' : `0x${id.toString(16).padStart(2, '0')}`
}

// on: { play(), pause(), resume() }
export function createAutorunWidget(root, on) {
  const buttons = el('div', { className: 'button-row' })
  const play = el('button', { type: 'button', id: 'autorun-play' })
  const pause = el('button', { type: 'button', id: 'autorun-pause', className: 'button-quiet' })
  play.addEventListener('click', () => on.play())
  pause.addEventListener('click', () => (pause.dataset.action === 'resume' ? on.resume() : on.pause()))
  const progress = el('progress', { id: 'autorun-progress', max: 1, value: 0 })
  const progressLabel = el('label', { htmlFor: progress.id, className: 'control-label' })
  buttons.append(play, pause, progressLabel, progress)
  // What the walk shows at each step: read, not announced (it changes
  // several times a second). Only the start and the end are announced.
  const where = el('p', { className: 'autorun-where' })
  const status = el('p', { className: 'autorun-status', role: 'status' })
  root.append(buttons, where, status)

  return {
    // data: { status, step, steps, stage, layer, depth, reducedMotion,
    //   view: forward view | null }
    update(data, { t }) {
      const running = data.status === 'running'
      const paused = data.status === 'paused'
      root.dataset.status = data.status
      setText(play, t(data.status === 'waiting' || data.status === 'off' ? 'autorun.play' : 'autorun.replay'))
      setText(pause, t(paused ? 'autorun.resume' : 'autorun.pause'))
      pause.dataset.action = paused ? 'resume' : 'pause'
      pause.disabled = !(running || paused)
      setText(progressLabel, t('autorun.progress'))
      const walked = data.status === 'done' ? data.steps : running || paused ? data.step + 1 : 0
      progress.max = data.steps
      progress.value = walked
      setAttr(progress, 'aria-valuetext', t('autorun.progressValue', { step: walked, steps: data.steps }))

      setText(where, running || paused ? describe(data, t) : '')
      where.hidden = !(running || paused)
      const statusKey = {
        waiting: 'autorun.waiting',
        off: data.reducedMotion ? 'autorun.reduced' : 'autorun.off',
        running: 'autorun.running',
        paused: 'autorun.paused',
        done: 'autorun.done',
      }[data.status]
      setText(status, t(statusKey, { depth: data.depth }))
    },
  }
}

function describe({ stage, layer, depth, view }, t) {
  if (!view) return t('model.pending')
  const norm = t(`model.short.${view.config.norm}`)
  const at = (name) => significant(view.probes[name].l2[layer])
  switch (stage) {
    case 'tokenize':
      return t('autorun.stage.tokenize', { tokens: view.tokens })
    case 'embed':
      return t('autorun.stage.embed', { hidden: view.hidden, l2: significant(view.residualL2[0]) })
    case 'layers':
      if (view.config.norm === 'none') return t('autorun.stage.layersNone', { layer, last: depth - 1, residual: at('residual.in') })
      return t(view.config.placement === 'post' ? 'autorun.stage.layersPost' : 'autorun.stage.layers', {
        layer, last: depth - 1, residual: at('residual.in'), out: at('inputNorm.out'), norm,
      })
    case 'finalNorm':
      if (view.config.norm === 'none') return t('autorun.stage.finalNormNone', { in: significant(view.final['finalNorm.in'].l2) })
      return t('autorun.stage.finalNorm', { norm,
        in: significant(view.final['finalNorm.in'].l2), out: significant(view.final['finalNorm.out'].l2),
      })
    case 'head':
      return t('autorun.stage.head')
    default:
      return t('autorun.stage.sample', { token: byteLabel(view.next.tokens[0]), prob: significant(view.next.probs[0], 2) })
  }
}
