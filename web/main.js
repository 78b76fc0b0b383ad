// Entry point of the page bundle (web/build.mjs turns it into the classic
// script dist/main.js). normlab.js, loaded just before, defines the global
// `normlab` whose loadNormlab() brings in the wasm kernels.
// With ?widget=NAME the page shows that one widget alone (iframe mode, see
// web/EMBEDDING.md); an unknown name shows the whole page with a note.
import { startPage } from './src/app.js'
import { frameWidget, startFrame } from './src/embed/frame.js'

const loadNormlab = globalThis.normlab?.loadNormlab
const widget = frameWidget(location.search)
if (widget?.name) startFrame({ name: widget.name, loadNormlab })
else startPage({ loadNormlab, extraNotices: widget?.rejected ? [{ key: 'notice.paramRejected', params: widget.rejected }] : [] })
