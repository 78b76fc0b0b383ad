// Extracts the training lab's text for a language from the page's own prose
// in that language: every string value of web/src/i18n/<lang>.js, in the
// dictionary's order, one per line, with the inline markup reduced to the
// text a reader sees. Chinese readers train on the Chinese snapshot (also
// the trainer's default text), English readers on the English one.
//
//   node web/data/extract-training-text.mjs --lang en       writes that snapshot and its hash
//   node web/data/extract-training-text.mjs --check         compares both with the committed snapshots
//
// Output per language: web/data/training-text.<zh|en>.txt (UTF-8, LF line
// ends) and .sha256 (its SHA-256 in `sha256sum` format, so `cd web/data &&
// sha256sum -c training-text.en.sha256` verifies it). The snapshots are
// committed: the trainer's results, the sweep and robustness tables and the
// tests refer to these exact texts, so later edits to the page's prose do
// not move them. Rerun this script only to take a new snapshot on purpose,
// then regenerate the tables (./build.sh sweep).
//
// Markup (web/src/rich-text.js) becomes plain text:
//   [[key|text]] -> text    **text**, *text*, `text` -> text
//   $tex$        -> the formula in plain characters (\sqrt{d} -> √d, 10^{-6} -> 10^-6)
//   {name}       -> removed: a number the page fills in, not prose
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Page language -> the snapshot's file suffix.
const LANGUAGES = { 'zh-CN': 'zh', en: 'en' };

// The TeX the dictionary uses, in plain characters; anything else keeps its
// letters and loses its braces and backslashes.
function plainMath(tex) {
  return tex
    .replace(/\\sqrt\{([^}]*)\}/g, '√$1')
    .replace(/\\operatorname\{([^}]*)\}/g, '$1')
    .replace(/\\varepsilon/g, 'ε')
    .replace(/\\sum/g, '∑')
    .replace(/\^\{([^}]*)\}/g, '^$1')
    .replace(/[{}\\]/g, '');
}

function plainText(s) {
  return s
    .replace(/\[\[[a-z0-9]+\|([^\]]+)\]\]/g, '$1')
    .replace(/\$([^$]+)\$/g, (whole, tex) => plainMath(tex))
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\{[a-zA-Z][a-zA-Z0-9]*\}/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n+/g, '\n')
    .trim();
}

// Depth first, in the object's own key order (the order of the source file).
function* strings(node) {
  if (typeof node === 'string') {
    yield node;
  } else if (Array.isArray(node)) {
    for (const item of node) yield* strings(item);
  } else if (node && typeof node === 'object') {
    for (const value of Object.values(node)) yield* strings(value);
  }
}

async function snapshot(lang) {
  const dictionary = join(here, '..', 'src', 'i18n', `${lang}.js`);
  const { default: strings_ } = await import(pathToFileURL(dictionary).href);
  const lines = [...strings(strings_)].map(plainText).filter((line) => line.length > 0);
  return { bytes: Buffer.from(lines.join('\n') + '\n', 'utf8'), lines: lines.length };
}

const args = process.argv.slice(2);
const asked = args.flatMap((a, i) => (args[i - 1] === '--lang' ? [a] : []));
for (const lang of asked) {
  if (!(lang in LANGUAGES)) throw new Error(`--lang must be one of ${Object.keys(LANGUAGES).join(', ')}, not ${lang}`);
}
const check = args.includes('--check');
if (!check && !asked.length) throw new Error('say which snapshot to take (--lang zh-CN or --lang en), or --check');

let same = true;
for (const lang of asked.length ? asked : Object.keys(LANGUAGES)) {
  const name = `training-text.${LANGUAGES[lang]}.txt`;
  const { bytes, lines } = await snapshot(lang);
  if (check) {
    const ok = readFileSync(join(here, name)).equals(bytes);
    console.log(ok ? `${name}: matches ${lang}.js` : `${name}: ${lang}.js has changed since the snapshot`);
    same &&= ok;
  } else {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(here, name), bytes);
    writeFileSync(join(here, `training-text.${LANGUAGES[lang]}.sha256`), `${sha256}  ${name}\n`);
    console.log(`wrote web/data/${name}: ${bytes.length} bytes, ${lines} lines, sha256 ${sha256}`);
  }
}
if (check) process.exit(same ? 0 : 1);
