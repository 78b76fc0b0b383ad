// The training lab, which comes in its own script when its section nears
// the view (the lab's loader, which the page passes in). Its finished runs
// with a norm (panel.runs: newest per run id, each with a serial that
// changes when its gains do) feed the learned-gain view.
import { LAB_RUNS } from '../predictions.js';

export function trainingLabPanel(createLabLoader) {
  return {
    name: 'training-lab',
    create(env) {
      const panel = { runs: [], serial: 0, lab: null };
      const takeRuns = (runs) => {
        const kept = new Map(panel.runs.map((run) => [run.id, run]));
        for (const run of runs) {
          const old = kept.get(run.id);
          kept.set(run.id, old && old.gains === run.gains ? old : { ...run, serial: ++panel.serial });
        }
        panel.runs = LAB_RUNS.filter((id) => kept.has(id)).map((id) => kept.get(id));
        env.render();
      };
      panel.lab = createLabLoader({
        win: env.win,
        doc: env.doc,
        root: env.widget('training-lab'),
        store: env.learner,
        onTrained: takeRuns,
      });
      return panel;
    },
    paint: ({ nl, state }, { lab }) => lab.update({ lang: state.lang, nl }),
  };
}
