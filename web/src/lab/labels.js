// The names the lab's panels share: a run's label and a committed seed's
// outcome, as keys of lab/en.js.
export const RUN_LABEL = {
  pre: 'runPre',
  post: 'runPost',
  warmup: 'runWarmup',
  post6: 'runPost6',
  qknorm: 'runQkNorm',
  sandwich: 'runSandwich',
  output: 'runOutput',
  deepnorm: 'runDeepNorm',
  dyt: 'runDyt',
};

export const OUTCOME_KEY = {
  learned: 'outcomeLearned',
  between: 'outcomeBetween',
  plateau: 'outcomePlateau',
  above: 'outcomeAbove',
  collapsed: 'outcomeCollapsed',
  vanished: 'outcomeVanished',
  diverged: 'outcomeDiverged',
};
