// Loads the training lab on demand: its code and text (dist/lab.js,
// dist/lab.css) are not part of the page's first download. They are injected
// as a classic script and a stylesheet (both allowed from 'self' under the
// page's CSP, and from file://) when the lab's section comes within
// LOAD_MARGIN of the viewport; the lab then mounts itself in `root` and takes
// the page's language and module from update(), and tells onTrained(runs)
// of the runs it finished (lab-widget.js).
import { loadScript, whenNear } from '../page/on-demand.js';

const LOAD_MARGIN = '600px 0px';

export function createLabLoader({ win, doc, root, store, onTrained = null }) {
  let lab = null;
  let latest = null;
  const load = () => {
    const css = doc.createElement('link');
    css.rel = 'stylesheet';
    css.href = 'lab.css';
    doc.head.append(css);
    loadScript(doc, 'lab.js').then(
      () => {
        lab = win.normlabLab.mount(root, { win, doc, store, onTrained });
        if (latest) lab.update(latest);
      },
      () => console.error('normlab: the training lab (lab.js) did not load'),
    );
  };
  whenNear(win, root, LOAD_MARGIN, load);
  return {
    // view: { lang, nl }
    update(view) {
      latest = view;
      lab?.update(view);
    },
  };
}
