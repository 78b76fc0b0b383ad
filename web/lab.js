// Entry point of dist/lab.js, the training lab's classic script (web/build.mjs
// builds it beside main.js). The page injects it on demand (src/lab/loader.js)
// and then calls normlabLab.mount() on the lab's section.
import { mountLab } from './src/lab/lab-widget.js';

globalThis.normlabLab = Object.freeze({ mount: mountLab });
