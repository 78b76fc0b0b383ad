// Entry point of the page bundle (web/build.mjs turns it into the classic
// script dist/main.js). normlab.js, loaded just before, defines the global
// `normlab` whose loadNormlab() brings in the wasm kernels.
import { startPage } from './src/app.js'

startPage({ loadNormlab: globalThis.normlab?.loadNormlab })
