// Language selection and string lookup. The dictionaries are plain objects
// (also imported by the parity test under Node), keyed by dotted paths.
//
// The page's own bundle (dist/main.js) carries neither: web/build.mjs makes
// each a script of its own (dist/i18n.en.js, dist/i18n.zh-CN.js), and the
// page loads the one it shows (load.js loadDictionary), and the other only
// when the reader switches to it. Everywhere else (Node, the custom
// elements' bundle) both are here from the start.
import en from './en.js';
import zhCN from './zh-CN.js';

export const DICTIONARIES = { en, 'zh-CN': zhCN };
export const LANGUAGE_CODES = ['en', 'zh-CN'];
export const FALLBACK_LANGUAGE = 'en';
// Each language's name in itself, for the language switches (the same as
// its dictionary's meta.langName, which may not be loaded yet).
export const LANGUAGE_NAMES = Object.freeze({ en: 'English', 'zh-CN': '简体中文' });

export const hasDictionary = (lang) => DICTIONARIES[lang] != null;
export function addDictionary(lang, dictionary) {
  DICTIONARIES[lang] = dictionary;
}

// The page language that serves a language tag (BCP 47, any case), or null:
// every Chinese tag gets zh-CN, the only Chinese the page has (zh, zh-Hans,
// zh-cn, and also zh-TW: simplified characters read better than a page in
// English), every English tag gets en.
export function pageLanguage(tag) {
  const lower = String(tag).toLowerCase();
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(lower)) return null;
  const primary = lower.split('-')[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return null;
}

// The first of the browser's preferred languages that the page speaks.
export function detectLanguage(preferred) {
  for (const tag of preferred ?? []) {
    const lang = pageLanguage(tag);
    if (lang) return lang;
  }
  return FALLBACK_LANGUAGE;
}

export function lookup(lang, key) {
  let node = DICTIONARIES[lang];
  for (const part of key.split('.')) node = node?.[part];
  if (typeof node !== 'string') throw new Error(`missing string "${key}" for ${lang}`);
  return node;
}

// Replaces {name} placeholders with params[name]; unknown names stay visible
// so a missing parameter shows up on the page rather than silently vanishing.
export function fill(text, params = {}) {
  return text.replace(/\{([a-zA-Z][a-zA-Z0-9]*)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// Plain text for attributes (aria-label, title, document.title): inline
// markup is reduced to its visible text.
export function plain(text, params) {
  return fill(text, params)
    .replace(/\[\[[a-z0-9]+\|([^\]]+)\]\]/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1');
}
