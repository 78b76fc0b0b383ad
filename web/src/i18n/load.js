// Brings in a page language's dictionary where the bundle left it out
// (index.js says when): dist/i18n.<lang>.js, a classic script (allowed from
// 'self' under the page's CSP, and from file://) that leaves the dictionary
// in globalThis.normlabDictionaries. Resolves at once where it is here
// already; a second call while it loads gets the same promise.
import { loadScript } from '../page/on-demand.js';
import { addDictionary, hasDictionary } from './index.js';

const loading = new Map();

export function loadDictionary(lang, doc = document) {
  if (hasDictionary(lang)) return Promise.resolve();
  if (!loading.has(lang)) {
    const promise = loadScript(doc, `i18n.${lang}.js`).then(
      () => {
        const dictionary = globalThis.normlabDictionaries?.[lang];
        if (!dictionary) throw new Error(`i18n.${lang}.js did not define the ${lang} dictionary`);
        addDictionary(lang, dictionary);
      },
      () => {
        throw new Error(`the ${lang} dictionary (i18n.${lang}.js) did not load`);
      },
    );
    // A failed load may be tried again (the next language switch).
    promise.catch(() => loading.delete(lang));
    loading.set(lang, promise);
  }
  return loading.get(lang);
}
