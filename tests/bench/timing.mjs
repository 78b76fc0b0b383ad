// Shared timing helper: warm up, then time repeated samples; the result is
// the median per-call time. A sample times a batch of calls sized to last
// >= sampleMs, so microsecond calls are not lost in timer resolution.
//
// bench.mjs measures every implementation of a cell in rounds (A B C A B C
// ...) and pools the samples, so a slow spell on this shared 2-core machine
// hits every implementation alike instead of one of them.
import { performance } from 'node:perf_hooks';

const isThenable = (v) => v != null && typeof v.then === 'function';

export const DEFAULT_BUDGET = {
  rounds: 5, // rounds over all implementations of a cell
  warmupMs: 200, // warm-up before the first round (also at least 3 calls)
  rewarmMs: 20, // warm-up before each later round
  budgetMs: 250, // measuring time per implementation per round
  sampleMs: 2, // a sample lasts at least this long
  minSamples: 5, // per round, however slow the call
  maxSamples: 101, // per round
};

/**
 * Times `run` (sync, or async returning a promise) for one round.
 * Returns the per-call time of each sample, in ms.
 */
export async function sample(run, { warmupMs, budgetMs, sampleMs, minSamples, maxSamples }) {
  const async = isThenable(run());
  // Sync functions are timed in a plain loop, async ones awaited one by one.
  const batch = async
    ? async (n) => {
        const t = performance.now();
        for (let i = 0; i < n; i++) await run();
        return performance.now() - t;
      }
    : async (n) => {
        const t = performance.now();
        for (let i = 0; i < n; i++) run();
        return performance.now() - t;
      };

  // Warm up, and estimate one call's time.
  let calls = 0,
    spent = 0;
  while (calls < 3 || spent < warmupMs) {
    const n = Math.max(1, calls);
    spent += await batch(n);
    calls += n;
  }
  const perCall = spent / calls;
  const callsPerSample = Math.max(1, Math.ceil(sampleMs / perCall));
  const samples = Math.min(maxSamples, Math.max(minSamples, Math.round(budgetMs / (perCall * callsPerSample))));
  const times = [];
  for (let s = 0; s < samples; s++) times.push((await batch(callsPerSample)) / callsPerSample);
  return times;
}

// times: per-call ms of each sample -> { medianUs, minUs, samples }
export function summarize(times) {
  const t = [...times].sort((a, b) => a - b);
  const mid = t.length >> 1;
  const median = t.length % 2 ? t[mid] : (t[mid - 1] + t[mid]) / 2;
  return { medianUs: median * 1e3, minUs: t[0] * 1e3, samples: t.length };
}

/**
 * Measures several implementations of one cell in interleaved rounds.
 * runs: Map id -> run. Returns Map id -> summarize(...).
 */
export async function measureRounds(runs, budget = DEFAULT_BUDGET) {
  const b = { ...DEFAULT_BUDGET, ...budget };
  const pooled = new Map([...runs.keys()].map((id) => [id, []]));
  for (let r = 0; r < b.rounds; r++) {
    for (const [id, run] of runs) {
      const times = await sample(run, { ...b, warmupMs: r === 0 ? b.warmupMs : b.rewarmMs });
      pooled.get(id).push(...times);
    }
  }
  return new Map([...pooled].map(([id, times]) => [id, summarize(times)]));
}
