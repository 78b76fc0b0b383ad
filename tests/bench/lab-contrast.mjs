// The lab's default contrast as the robustness table and its test build it:
// the runs of a seed, made by the lab's own code, and the claims the page
// makes of them across seeds.
import { LAB_DEFAULTS, LAB_RUNS, LAB_STEPS, runOptions } from '../../web/src/lab/runs.js';

// Each page language's committed training text.
export const LAB_TEXT_FILES = { 'zh-CN': 'web/data/training-text.zh.txt', en: 'web/data/training-text.en.txt' };

// The lab's runs, then post-norm at 6 layers (the depth where the chapter
// says post-norm is fine), all with the lab's defaults.
export const CONTRAST_RUNS = [...LAB_RUNS, 'post6'];

export function contrastOptions(run, seed, text) {
  const settings = { ...LAB_DEFAULTS, seed, text: null };
  if (run === 'post6') return runOptions('post', { ...settings, layers: 6 }, LAB_STEPS, text);
  return runOptions(run, settings, LAB_STEPS, text);
}

export function contrastJobs(texts, seeds) {
  return Object.entries(texts).flatMap(([lang, text]) =>
    seeds.flatMap((seed) =>
      CONTRAST_RUNS.map((run) => ({ lang, seed, run, options: contrastOptions(run, seed, text) })),
    ),
  );
}

// What the page says of the default contrast, per language, over the seeds
// of the table: the outcome each run should reach and in at least how many
// of 10 seeds.
export const ROBUSTNESS_CLAIMS = {
  pre: { outcome: 'learned', atLeast: 9 },
  post: { outcome: 'collapsed', atLeast: 8 },
  warmup: { outcome: 'learned', atLeast: 8 },
  post6: { outcome: 'learned', atLeast: 8 },
};

// { lang: { run: { outcome: seeds } } }
export function robustnessCounts(rows) {
  const counts = {};
  for (const row of rows) {
    const byRun = ((counts[row.lang] ??= {})[row.run] ??= {});
    byRun[row.outcome] = (byRun[row.outcome] ?? 0) + 1;
  }
  return counts;
}
