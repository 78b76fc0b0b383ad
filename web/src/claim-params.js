// What the page's prose says about training, in numbers: computed at build
// time from the lab's committed tables (web/src/lab/claims.js, which also
// fails the build when the tables stop saying it), one set per page
// language, and formatted here for the sentences that quote them (the
// placement section, the takeaways, quiz questions 2, 6 and 7, the gradient
// panel).
import { decimals, significant } from './format.js';

// Depths as a sentence lists them: "6 and 12", "6, 12, and 24"; in Chinese
// "6、12 和 24" (a space between a number and the word beside it). The
// English form is Intl.ListFormat's 'en' conjunction, written out: building
// the first ListFormat loads its locale data, about 40 ms of the page's
// first paint on this machine.
export function depthList(depths, lang) {
  const items = depths.map(String);
  if (items.length < 2) return items.join('');
  if (lang === 'zh-CN') return `${items.slice(0, -1).join('、')} 和 ${items.at(-1)}`;
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

// The claims of a page language (src/lab/claims.js pageClaims()), as the
// sentences' parameters.
export function formatClaims(c, lang) {
  const list = (depths) => depthList(depths, lang);
  return {
    lr: decimals(c.lr, 4),
    steps: c.steps,
    seeds: c.seeds,
    warmup: c.warmup,
    layers: c.layers,
    headSize: c.headSize,
    qkBound: decimals(Math.sqrt(c.headSize), 2),
    postLearned: list(c.atRate.post.learnedAt),
    postStalled: list(c.atRate.post.failedAt),
    warmLearned: list(c.atRate.warmup.learnedAt),
    preLearned: list(c.atRate.pre.learnedAt),
    robustSeeds: c.robust.seeds,
    preSeeds: c.robust.pre,
    postSeeds: c.robust.post,
    warmSeeds: c.robust.warmup,
    post6Seeds: c.robust.post6,
    // The learning-rate window (quiz question 6): the sweep's rates, its
    // depths, and each run's window width per depth, in the depths' order.
    rates: c.total,
    lrLow: decimals(Math.min(...c.rates), 4),
    lrHigh: decimals(Math.max(...c.rates), 4),
    windowDepths: list(c.depths),
    postWidths: list(c.windows.post.map((w) => w.count)),
    warmWidths: list(c.windows.warmup.map((w) => w.count)),
    preWidths: list(c.windows.pre.map((w) => w.count)),
  };
}

// The variants' table (claims.js variantClaims), as After pre-norm's table
// and sentences quote it.
export function formatVariants(v, lang) {
  const list = (items) => depthList(items, lang);
  const at = v.rates.indexOf(v.lr);
  const runs = Object.keys(v.runs);
  const r = v.runs;
  return {
    lr: decimals(v.lr, 4),
    steps: v.steps,
    seeds: v.seeds,
    runsEach: v.runsEach,
    hidden: v.hidden,
    heads: v.heads,
    depths: list(v.depths),
    rates: list(v.rates.map((r) => decimals(r, 4))),
    depthList: v.depths,
    // The sentences.
    lrLow: decimals(v.rates[0], 4),
    lrHigh: decimals(v.rates.at(-1), 4),
    layers: v.layers,
    deepest: Math.max(...v.depths),
    qkPeak: significant(r.qknorm.logitPeak),
    prePeakLow: significant(r.pre.logitPeakAt[0]),
    prePeakHigh: significant(r.pre.logitPeakAt.at(-1)),
    qkLearned: r.qknorm.learned,
    preLearned: r.pre.learned,
    postLearned: r.post.learned,
    wortsmanWidth: v.wortsmanWidth,
    widthRatio: v.wortsmanWidth / v.hidden,
    preEnd: significant(r.pre.streamEnd),
    sandEnd: significant(r.sandwich.streamEnd),
    outputEnd: significant(r.output.streamEnd),
    preEndHigh: significant(r.pre.streamEndHigh),
    sandEndHigh: significant(r.sandwich.streamEndHigh),
    outputEndHigh: significant(r.output.streamEndHigh),
    outputPeak: significant(r.output.logitPeak),
    deepLearned: r.deepnorm.learned,
    deepLab: r.deepnorm.learnedAtLab,
    deepFinal: decimals(r.deepnorm.final, 2),
    preFinal: decimals(r.pre.final, 2),
    dytLearned: r.dyt.learned,
    dytFinal: decimals(r.dyt.final, 2),
    dytEnd: significant(r.dyt.streamEnd),
    dytVanished: r.dyt.vanished,
    table: runs.map((run) => ({
      run,
      atLabRate: v.runs[run].learnedAt[at],
      learned: v.runs[run].learned,
      peak: significant(v.runs[run].logitPeak),
    })),
  };
}

// The page's own: web/build.mjs bundles every language's claims. Formatted
// once per language (the same on every call; a paint asks for them once per
// sentence that quotes them).
const formatted = new Map();
export const claimParams = (lang) => {
  if (!formatted.has(lang)) {
    const c = NORMLAB_PAGE_CLAIMS[lang];
    formatted.set(lang, Object.freeze({ ...formatClaims(c, lang), variants: formatVariants(c.variants, lang) }));
  }
  return formatted.get(lang);
};
