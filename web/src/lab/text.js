// The training lab's strings in the page's languages: plain text with {name}
// parameters, filled as the page fills its own (i18n/index.js, which this
// does not import: it would bring the page's dictionaries into lab.js).
import en from './en.js';
import zhCN from './zh-CN.js';

export const LAB_DICTIONARIES = { en, 'zh-CN': zhCN };

// t(key, params) for one language; an unknown key throws, naming it.
export function labText(lang) {
  const dictionary = LAB_DICTIONARIES[lang] ?? en;
  const t = (key, params) => {
    const text = dictionary[key];
    if (typeof text !== 'string') throw new Error(`missing lab string "${key}" for ${lang}`);
    return text.replace(/\{([a-zA-Z][a-zA-Z0-9]*)\}/g, (whole, name) =>
      params && name in params ? String(params[name]) : whole,
    );
  };
  // A list of names as the language writes one: "a, b and c", "a、b和c"
  // (one formatter per language context: they are slow to make). Chinese
  // puts a space between a Chinese word and a number or a Latin word beside
  // it, which Intl's "和" does not: "6、12 和 24", "前置归一化和 6 层的…".
  let listFormat = null;
  const list = (items) => {
    const joined = (listFormat ??= new Intl.ListFormat(lang, { type: 'conjunction' })).format(items);
    return lang === 'zh-CN' ? joined.replace(/(?<=[0-9A-Za-z])和|和(?=[0-9A-Za-z])/g, spacedAnd) : joined;
  };
  return { lang, t, list };
}

// "和" with a space on each side that touches a number or a Latin letter.
function spacedAnd(and, offset, whole) {
  const before = /[0-9A-Za-z]/.test(whole[offset - 1] ?? '') ? ' ' : '';
  const after = /[0-9A-Za-z]/.test(whole[offset + 1] ?? '') ? ' ' : '';
  return `${before}${and}${after}`;
}
