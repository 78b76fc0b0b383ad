// Entry point of dist/normlab-embed.mjs (built by web/build.mjs), what the
// npm package's `import 'normlab/embed'` runs: the <normlab-*> custom
// elements with the ES module wasm loader (dist/normlab.mjs's), whose
// backends are imported from beside this module, or bundled along with it
// by a bundler. The elements link normlab-embed.css from beside this module;
// where a bundler has merged the module into a script that cannot say where
// it is (an IIFE bundle), from beside the page.
import { loadNormlab } from '../wasm/entry.esm.js';
import { defineElements } from './src/embed/elements.js';

const base = import.meta.url || document.baseURI;

defineElements({ loadNormlab, stylesheetUrl: new URL('normlab-embed.css', base).href });
