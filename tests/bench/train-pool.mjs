// Trains many runs at once, one worker thread per core (train-worker.mjs),
// each run in a trainer of its own: the same numbers as one after another,
// sooner. runPool(jobs, { threads, onResult }) resolves to the summaries in
// the jobs' order; a job is { options } (createTrainer's); onResult(i,
// summary, seconds) hears of each as it ends (seconds: its steps' wall time,
// one run per core).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export async function runPool(jobs, { threads = availableParallelism(), onResult = () => {} } = {}) {
  const results = new Array(jobs.length);
  let next = 0;
  const lane = () =>
    new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./train-worker.mjs', import.meta.url));
      const send = () => {
        if (next >= jobs.length) {
          worker.terminate().then(() => resolve());
          return;
        }
        const id = next++;
        worker.postMessage({ id, options: jobs[id].options });
      };
      worker.on('message', (message) => {
        if (message.ready) return send();
        if (message.error !== undefined) {
          worker.terminate();
          reject(new Error(`run ${message.id} (${JSON.stringify(jobs[message.id].options)}): ${message.error}`));
          return;
        }
        results[message.id] = message.summary;
        onResult(message.id, message.summary, message.seconds);
        send();
      });
      worker.once('error', reject);
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, jobs.length)) }, lane));
  return results;
}
