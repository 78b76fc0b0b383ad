// Entry point of dist/normlab-embed.js (built by web/build.mjs): one classic
// script that defines the <normlab-*> custom elements. It carries the same
// wasm loader as dist/normlab.js, which adds normlab_simd.js (or
// normlab_scalar.js) from the folder this script was loaded from, so a course
// page anywhere can include it by its URL. The stylesheet comes from there too.
import { loadNormlab } from '../wasm/entry.classic.js';
import { defineElements } from './src/embed/elements.js';

const scriptUrl = document.currentScript?.src || document.baseURI;

defineElements({ loadNormlab, stylesheetUrl: new URL('normlab-embed.css', scriptUrl).href });
