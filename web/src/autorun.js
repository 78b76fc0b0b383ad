// The demo panel's walk along one forward pass, stage by stage (the
// forward-pass strip's stages), after which the reader has the controls. It
// only keeps time and says where the walk is; the demo controller turns each
// position into what the chart draws, and the page into state (the layer)
// and the strip's highlight.
//
// The walk is told in narrated steps: tokenize, embed, the layers in at most
// NARRATED_LAYER_STEPS groups, the final norm, the LM head, sampling. Each
// narrated step lasts stepMs, long enough to read its sentence; inside a
// group of layers the chart still grows one layer at a time (stepMs is
// shared among the group's layers), while the sentence stays the same.
//
// status: 'waiting'  starts by itself once the panel has come into view and
//                    ready() holds (the reader's prediction is in, or skipped)
//         'off'      starts only when asked (reduced motion, a link that
//                    chose a layer, or a reader who took the controls first)
//         'running' | 'paused' | 'done'
// In manual mode (reduced motion) nothing is timed: Play shows the first
// step and each next() the following one, a group of layers at once.
const BEFORE = ['tokenize', 'embed'];
const AFTER = ['finalNorm', 'head', 'sample'];

// However deep the model, its layers are told in at most this many steps.
export const NARRATED_LAYER_STEPS = 6;

export const layersPerStep = (depth) => Math.max(1, Math.ceil(depth / NARRATED_LAYER_STEPS));
const layerSteps = (depth) => Math.ceil(depth / layersPerStep(depth));

export const autorunSteps = (depth) => BEFORE.length + layerSteps(depth) + AFTER.length;

// The step'th narrated stop of a walk through `depth` layers: its stage and
// the layers it covers (from..to; the stages around the layers cover the
// first or the last layer).
export function autorunStep(step, depth) {
  if (step < BEFORE.length) return { stage: BEFORE[step], from: 0, to: 0 };
  const per = layersPerStep(depth);
  if (step < BEFORE.length + layerSteps(depth)) {
    const from = (step - BEFORE.length) * per;
    return { stage: 'layers', from, to: Math.min(depth, from + per) - 1 };
  }
  return {
    stage: AFTER[Math.min(AFTER.length - 1, step - BEFORE.length - layerSteps(depth))],
    from: depth - 1,
    to: depth - 1,
  };
}

// How much of the layer chart a walk at `stage`, layer `layer` has drawn:
// the residual stream's points 0..residual (it has depth + 1: the last is
// the stream leaving the last layer) and the norms' outputs 0..norms; -1
// draws none. The embedding is the stream's first point; layer l adds the
// stream entering it and its norms' outputs; the final norm adds the
// stream's last point.
export function drawnAt(stage, layer, depth) {
  if (stage === 'tokenize') return { residual: -1, norms: -1 };
  if (stage === 'embed') return { residual: 0, norms: -1 };
  if (stage === 'layers') return { residual: layer, norms: layer };
  return { residual: depth, norms: depth - 1 };
}

// onStep({ step, steps, stage, from, to, layer }), onEnd(); depth() is read
// at every step, so a depth change during the walk shortens or lengthens
// it; ready() says whether a waiting walk may start (default: always).
export function createAutorun({ win, stepMs, manual = false, startsOff, depth, onStep, onEnd, ready = () => true }) {
  let status = startsOff || manual ? 'off' : 'waiting';
  let step = 0;
  let layer = 0;
  let timer = null;
  let seen = false;

  const where = () => autorunStep(step, depth());

  function emit() {
    const at = where();
    onStep({ step, steps: autorunSteps(depth()), ...at, layer });
  }

  // The wait before the next tick: a narrated step's share for each of its
  // layers, or the whole step.
  function wait() {
    const at = where();
    return at.stage === 'layers' ? stepMs / (at.to - at.from + 1) : stepMs;
  }

  function schedule() {
    timer = win.setTimeout(tick, wait());
  }

  function end() {
    timer = null;
    status = 'done';
    onEnd();
  }

  // One layer further inside a group, else the next narrated step.
  function advance(wholeStep) {
    const at = where();
    if (at.stage === 'layers' && layer < at.to && !wholeStep) {
      layer += 1;
      return true;
    }
    step += 1;
    if (step >= autorunSteps(depth())) return false;
    const next = where();
    layer = manual || wholeStep ? next.to : next.from;
    return true;
  }

  function tick() {
    if (!advance(false)) {
      end();
      return;
    }
    emit();
    schedule();
  }

  function halt() {
    win.clearTimeout(timer);
    timer = null;
  }

  function start() {
    halt();
    step = 0;
    layer = 0;
    emit();
    if (manual) status = 'paused';
    else {
      status = 'running';
      schedule();
    }
  }

  return {
    get status() {
      return status;
    },
    get step() {
      return step;
    },
    get layer() {
      return layer;
    },
    get manual() {
      return manual;
    },
    // From the start, whatever the walk was doing.
    play() {
      start();
    },
    // The panel came into view: a waiting walk starts once ready() holds.
    firstView() {
      seen = true;
      this.check();
    },
    // ready() may have changed: a waiting walk in view starts.
    check() {
      if (status === 'waiting' && seen && ready()) start();
    },
    pause() {
      if (status !== 'running') return;
      halt();
      status = 'paused';
    },
    resume() {
      if (status !== 'paused') return;
      if (manual) {
        this.next();
        return;
      }
      status = 'running';
      schedule();
    },
    // One narrated step on, by hand (a paused or manual walk): the rest of
    // a group of layers at once.
    next() {
      if (status !== 'paused') return;
      const at = where();
      if (at.stage === 'layers' && layer < at.to) layer = at.to;
      else if (!advance(true)) {
        end();
        return;
      }
      emit();
    },
    // Skip to the end: the last step shown, then done.
    finish() {
      halt();
      step = autorunSteps(depth()) - 1;
      layer = depth() - 1;
      emit();
      end();
    },
    // The reader took the controls: the walk ends where it is, and a walk
    // that has not started yet no longer starts by itself.
    handOver() {
      halt();
      if (status === 'running' || status === 'paused') end();
      else if (status === 'waiting') status = 'off';
    },
    // Back to before the walk (a new prediction): a timed walk waits to
    // start again, a manual one waits for Play.
    rewind() {
      halt();
      status = manual ? 'off' : 'waiting';
      step = 0;
      layer = 0;
    },
  };
}
