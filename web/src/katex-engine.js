// KaTeX, as the bundles that carry it import it. The page's main.js leaves it
// out (web/build.mjs): there this module is null, and math.js loads
// dist/katex.js the first time a formula the build did not typeset appears.
import katex from 'katex';

export default katex;
