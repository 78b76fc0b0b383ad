// The page's demo panel (demo-panel.js) in index.html's sections, with the
// learned-gain view, which can also show the gains of the training lab's
// runs. Its paint leaves the forward view in frame.view for the lessons.
import { trainedGainView } from '../compute.js';
import { WALK_SECTION, isWalkSection } from '../course-progress.js';
import { createDemoPanel } from './demo-panel.js';

export default {
  name: 'demo',
  create(env) {
    const { widget, learner } = env;
    const strip = () => env.panel('forward-strip');
    // Which gains the reader chose to see.
    let wanted = { source: 'synthetic', run: null, layer: 0, which: 'inputNorm' };
    // The reader's choice as far as it can be met (the trained source needs
    // a finished lab run), the lab's runs, and the gains shown.
    function gainData(nl, view, settings, synthetic) {
      const runs = env.panel('training-lab')?.runs ?? [];
      if (wanted.source === 'trained' && runs.length > 0 && nl) {
        const run = runs.find((r) => r.id === wanted.run) ?? runs[0];
        const layer = Math.min(wanted.layer, run.gains.layers.length - 1);
        const choice = { ...wanted, run: run.id, layer };
        return { choice, runs, gains: trainedGainView(nl, run, layer, wanted.which) };
      }
      return { choice: { ...wanted, source: 'synthetic' }, runs, gains: synthetic() };
    }
    const parts = {
      controls: widget('model-controls'),
      gain: widget('gain'),
      chart: widget('layer-chart'),
      autorun: widget('autorun'),
      breakdown: widget('layer-breakdown'),
      attention: widget('attention'),
      gradient: widget('gradient-flow'),
    };
    return createDemoPanel(parts, {
      win: env.win,
      state: () => env.state,
      // The panel's inputs have told the controller already.
      set: env.change,
      render: () => env.render(),
      guard: env.guard,
      scheduler: env.scheduler,
      timing: env.timing,
      walk: {
        store: learner,
        // A link that chose a layer shows that layer.
        startsOff: env.given.includes('layer'),
        asks: () => env.questions.asks.d,
        onStep: (step) => strip().setStage(step.stage),
        onEnd: () => {
          strip().setStage(null);
          if (learner.read(WALK_SECTION, isWalkSection) === null) learner.write(WALK_SECTION, { d: 1 });
        },
      },
      gain: {
        options: {
          choose: (change) => {
            wanted = { ...wanted, ...change };
            env.render();
          },
        },
        data: gainData,
      },
    });
  },
  paint(frame, panel) {
    frame.view = panel.paint(frame.nl, frame.ctx);
  },
};
