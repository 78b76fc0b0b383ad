// The page's static text: the title, every [data-i18n] element and
// attribute, the formulas, and the reading time, in the state's language.
import { claimParams } from '../claim-params.js';
import { MAX_PROMPT_TOKENS, MODEL_SHAPE, PLAYGROUND_DIM, PLAYGROUND_SEED, REFERENCE_MODEL } from '../constants.js';
import { typeset } from '../math.js';
import { drawLayerDiagrams } from '../page/layer-diagrams.js';
import { estimateReadingMinutes, proseKeys } from '../reading-time.js';

// Versions of the bundled libraries, injected by web/build.mjs from their
// package.json files so the references section cannot go stale.
const LIBRARY_VERSIONS = NORMLAB_LIBRARY_VERSIONS;
// The prose keys that quote the lab's committed tables (claim-params.js);
// After pre-norm's results (after.results.*) quote the variants' table.
const CLAIM_KEYS = new Set(['placement.depth', 'takeaways.two']);

// Parameters of strings that appear in the static page text.
const STATIC_PARAMS = {
  'intro.reference': REFERENCE_MODEL,
  'references.katex': { version: LIBRARY_VERSIONS.katex },
  'references.d3': LIBRARY_VERSIONS,
  'playground.intro': { d: PLAYGROUND_DIM, seed: PLAYGROUND_SEED },
  'demo.settingsIntro': { ...MODEL_SHAPE, maxTokens: MAX_PROMPT_TOKENS },
};

// The parameters a static string of the page is filled with.
function staticParams(key, lang) {
  if (CLAIM_KEYS.has(key)) return claimParams(lang);
  if (key.startsWith('after.results.')) return claimParams(lang).variants;
  return STATIC_PARAMS[key] ?? { layers: REFERENCE_MODEL.layers };
}

// A section of the chapter.
const SECTION = '.chapter > section';

// The display formulas ([data-tex]) and texts of the nodes under `root` (for
// which `keep` holds), in the frame's language: one function per node.
function nodePainters(root, ctx, keep = () => true) {
  const all = (selector) => [...root.querySelectorAll(selector)].filter(keep);
  return [
    ...all('[data-tex]').map((node) => () => typeset(node, node.dataset.tex, { display: true })),
    ...all('[data-i18n]').map((node) => () => {
      const key = node.dataset.i18n;
      ctx.rich(node, key, staticParams(key, ctx.lang));
    }),
    ...all('[data-i18n-attr]').map((node) => () => {
      for (const pair of node.dataset.i18nAttr.split(';')) {
        const [attr, key] = pair.split(':');
        node.setAttribute(attr, ctx.t(key, STATIC_PARAMS[key]));
      }
    }),
  ];
}

function paintNodes(root, ctx, keep) {
  for (const paintNode of nodePainters(root, ctx, keep)) paintNode();
}

// The title and the reading time.
function paintPage({ ctx }, { doc, readingTime }) {
  doc.title = ctx.t('meta.title');
  const prose = proseKeys(doc).map((key) => ctx.t(key, staticParams(key, ctx.lang)));
  readingTime.textContent = ctx.t('intro.readingTime', { minutes: estimateReadingMinutes(prose, ctx.lang) });
}

export default {
  name: 'static-text',
  create({ doc }) {
    drawLayerDiagrams(doc);
    return { doc, readingTime: doc.getElementById('reading-time') };
  },
  inputs: ({ state }) => [state.lang],
  paint(frame, panel) {
    paintNodes(panel.doc, frame.ctx);
    paintPage(frame, panel);
  },
  // The first paint a node at a time (a formula or a paragraph: a section
  // whole can take a phone-class CPU 100 ms): what is outside the chapter's
  // sections (header, navigation, footer) and its first section (the
  // introduction) first, then the title and the reading time (which reads
  // the whole chapter's prose), then the sections below.
  paintSteps(frame, panel) {
    const { doc } = panel;
    const [first, ...below] = doc.querySelectorAll(SECTION);
    return [
      ...nodePainters(doc, frame.ctx, (node) => !node.closest(SECTION)),
      ...(first ? nodePainters(first, frame.ctx) : []),
      // The lab tables' figures, formatted once (the first grouped number
      // builds the page's Intl.NumberFormat: ~50 ms on a phone-class CPU)
      // before the reading time quotes them.
      () => claimParams(frame.ctx.lang),
      () => paintPage(frame, panel),
      ...below.flatMap((section) => nodePainters(section, frame.ctx)),
    ];
  },
};
