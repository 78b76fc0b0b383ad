// The toolbar: the language and theme switches, and which backend runs the
// kernels (frame.badge: 'loading' until the views computed with them are
// painted).
import { LANGUAGE_CODES, LANGUAGE_NAMES } from '../i18n/index.js';
import { setOptions } from '../widgets/dom.js';

export default {
  name: 'toolbar',
  create({ doc, set }) {
    const langSelect = doc.getElementById('lang-select');
    const themeSelect = doc.getElementById('theme-select');
    langSelect.addEventListener('change', () => set({ lang: langSelect.value }));
    themeSelect.addEventListener('change', () => set({ theme: themeSelect.value }));
    return { langSelect, themeSelect, backendOut: doc.getElementById('backend') };
  },
  inputs: ({ state, badge }) => [state.lang, state.theme, badge],
  paint({ state, badge: backend, ctx }, { langSelect, themeSelect, backendOut }) {
    setOptions(
      langSelect,
      LANGUAGE_CODES.map((code) => [code, LANGUAGE_NAMES[code]]),
      state.lang,
    );
    for (const option of langSelect.options) option.lang = option.value;
    setOptions(
      themeSelect,
      [
        ['auto', ctx.t('toolbar.themeAuto')],
        ['light', ctx.t('toolbar.themeLight')],
        ['dark', ctx.t('toolbar.themeDark')],
      ],
      state.theme,
    );
    backendOut.dataset.backend = backend;
    backendOut.textContent =
      backend === 'loading'
        ? ctx.t('toolbar.backendLoading')
        : backend === 'failed'
          ? ctx.t('toolbar.backendFailed')
          : backend;
  },
};
