// Extracts the trainer's default text from the page's own Chinese prose: every
// string value of web/src/i18n/zh-CN.js, in the dictionary's order, one per
// line, with the inline markup reduced to the text a reader sees.
//
//   node web/data/extract-training-text.mjs            writes the snapshot and its hash
//   node web/data/extract-training-text.mjs --check    compares with the committed snapshot
//
// Output: web/data/training-text.zh.txt (UTF-8, LF line ends) and
// web/data/training-text.zh.sha256 (its SHA-256 in `sha256sum` format, so
// `cd web/data && sha256sum -c training-text.zh.sha256` verifies it). The
// snapshot is committed: the trainer's results, the sweep table and the
// tests refer to this exact text, so later edits to the page's prose do not
// move them. Rerun this script only to take a new snapshot on purpose, then
// regenerate the sweep (./build.sh sweep).
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
const DICTIONARY = join(here, '..', 'src', 'i18n', 'zh-CN.js');
const TEXT_FILE = join(here, 'training-text.zh.txt');
const HASH_FILE = join(here, 'training-text.zh.sha256');

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

const { default: dictionary } = await import(pathToFileURL(DICTIONARY).href);
const lines = [...strings(dictionary)].map(plainText).filter((line) => line.length > 0);
const text = lines.join('\n') + '\n';
const bytes = Buffer.from(text, 'utf8');
const sha256 = createHash('sha256').update(bytes).digest('hex');

if (process.argv.includes('--check')) {
  const committed = readFileSync(TEXT_FILE);
  const same = committed.equals(bytes);
  console.log(same ? 'the committed snapshot matches zh-CN.js' : 'zh-CN.js has changed since the committed snapshot');
  process.exit(same ? 0 : 1);
}
writeFileSync(TEXT_FILE, bytes);
writeFileSync(HASH_FILE, `${sha256}  training-text.zh.txt\n`);
console.log(`wrote ${TEXT_FILE}: ${bytes.length} bytes, ${lines.length} lines, sha256 ${sha256}`);
