// Entry point of the page bundle (web/build.mjs turns it into the classic
// script dist/main.js). normlab.js, loaded just before, defines the global
// `normlab` whose loadNormlab() brings in the wasm kernels.
// With ?widget=NAME the page shows that one widget alone (iframe mode, see
// web/EMBEDDING.md); an unknown name shows the whole page with a note.
// Launched by a course platform (a SCORM API in a parent or opener window),
// the page reports to it and keeps the learner's state there (src/lms.js).
import { startPage } from './src/app.js';
import { frameWidget, startFrame } from './src/embed/frame.js';
import { connectLms } from './src/lms.js';

const loadNormlab = globalThis.normlab?.loadNormlab;
const widget = frameWidget(location.search);
// The page starts in a microtask, once the bundle's top level has returned:
// a script the start inserts (the dictionary, the kernels' glue) then has
// no stack frame of the whole bundle above it, whose source positions
// Chromium would otherwise collect again (the initiator it records for the
// request), reparsing all of main.js.
queueMicrotask(start);

function start() {
  if (widget?.name) {
    startFrame({ name: widget.name, loadNormlab });
    // Its one panel is built at once (the whole page builds over several
    // tasks and sets this when done).
    document.documentElement.dataset.built = '';
  } else {
    startPage({
      loadNormlab,
      lms: connectLms(window),
      extraNotices: widget?.rejected ? [{ key: 'notice.paramRejected', params: widget.rejected }] : [],
    });
  }
}
