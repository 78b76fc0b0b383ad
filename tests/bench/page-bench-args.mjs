// What the page benchmarks (page-perf.mjs, lab-perf.mjs) share: their
// arguments and the quantile they report.
//
//   [--runs N]   moves per control (default 40)
//   [--url URL]  the page to measure (default dist/index.html from disk)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function parseArgs(argv) {
  const o = { runs: 40, url: pathToFileURL(path.join(ROOT, 'dist/index.html')).href };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--url') o.url = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return o;
}

// The q-quantile of values (the nearest rank at or below).
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
