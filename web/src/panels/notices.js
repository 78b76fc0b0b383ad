// The page's notices: what the reader should know about this view (a
// parameter of the link that was rejected, kernels that did not load, a
// course platform that does not save), each with its dismiss button.
import { el } from '../widgets/dom.js';

export default {
  name: 'notices',
  // env.notices: the list, { key, params } each, which the page adds to.
  create({ doc, notices, render }) {
    return { root: doc.getElementById('notices'), list: notices, render };
  },
  inputs: ({ state }, { list }) => [state.lang, list],
  paint({ ctx }, { root, list, render }) {
    root.replaceChildren(
      ...list.map((notice, index) => {
        const box = el('div', { className: 'notice', role: 'status' });
        const text = el('p', { textContent: ctx.t(notice.key, notice.params) });
        const dismiss = el('button', {
          type: 'button',
          className: 'button-quiet',
          textContent: ctx.t('notice.dismiss'),
        });
        dismiss.addEventListener('click', () => {
          list.splice(index, 1);
          render();
        });
        box.append(text, dismiss);
        return box;
      }),
    );
  },
};
