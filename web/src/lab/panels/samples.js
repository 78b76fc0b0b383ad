// What each model writes after the sample's prompt, and the characters it
// expects next there, before the first step and after the last. A byte
// that is no whole character shows as its value in a box, and a character
// the runs' text does not use as its code point in a box (the page's fonts
// need not have a glyph for it).
import { decimals, integer, significant } from '../../format.js';
import { el, setText } from '../../widgets/dom.js';
import { RUN_LABEL } from '../labels.js';
import { LAB_SAMPLE, samplePrompt } from '../runs.js';
import { LAB_TEXTS } from '../texts.js';
import { utf8Parts } from '../utf8.js';

// Control bytes other than line breaks as a middle dot, so a sample's
// length on screen matches what the model wrote.
function visibleSample(sample) {
  return sample.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '·');
}

// A next character as the reader can see it: a space, a line break or a
// tab by name.
function visibleChar(text, c) {
  const { t } = text;
  if (c === ' ') return t('charSpace');
  if (c === '\n') return t('charNewline');
  if (c === '\t') return t('charTab');
  return visibleSample(c);
}

function percent(p) {
  return p >= 0.1 ? `${decimals(p * 100, 0)}%` : p >= 0.001 ? `${significant(p * 100, 2)}%` : '<0.1%';
}

function codePointBox(text, c) {
  const code = `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return el('span', { className: 'lab-byte', textContent: code, title: text.t('charTitle', { code }) });
}

function byteBoxes(text, bytes) {
  return bytes.map((b) =>
    el('span', {
      className: 'lab-byte',
      textContent: b.toString(16).toUpperCase().padStart(2, '0'),
      title: text.t('byteTitle', { hex: b.toString(16).toUpperCase().padStart(2, '0') }),
    }),
  );
}

// The characters of the text the runs learned from (the reader's own, else
// the committed one in the samples' language), kept per text.
function learnedChars(part, text, state) {
  const { settings: contrast, sample } = state;
  const source = contrast?.text ?? LAB_TEXTS[sample?.lang ?? text.lang];
  if (part.charSet.source !== source) part.charSet = { source, chars: new Set(source) };
  return part.charSet.chars;
}

// A sample's bytes: whole characters as text (control bytes as ·), each
// byte that is no whole character as its value in a box.
function sampleNodes(part, text, state, bytes) {
  const known = learnedChars(part, text, state);
  return utf8Parts(Uint8Array.from(bytes)).flatMap((piece) => {
    if (piece.text === undefined) return byteBoxes(text, [piece.byte]);
    // Runs of characters the text uses as text, any other on its own.
    const nodes = [];
    let run = '';
    for (const c of piece.text) {
      if (known.has(c) || /[\u0000-\u007f]/.test(c)) run += c;
      else {
        if (run) nodes.push(part.doc.createTextNode(visibleSample(run)));
        run = '';
        nodes.push(codePointBox(text, c));
      }
    }
    if (run) nodes.push(part.doc.createTextNode(visibleSample(run)));
    return nodes;
  });
}

export const samplesPanel = {
  name: 'samples',
  reads: ['text', 'state', 'settings'],

  create({ doc }) {
    const box = el('section', { className: 'lab-samples' });
    const title = el('h4');
    const intro = el('p');
    const list = el('dl');
    const nextTitle = el('h4');
    const nextIntro = el('p');
    const nextList = el('dl', { className: 'lab-next' });
    box.append(title, intro, list, nextTitle, nextIntro, nextList);
    return {
      nodes: [box],
      doc,
      title,
      intro,
      list,
      nextTitle,
      nextIntro,
      nextList,
      charSet: { source: null, chars: new Set() },
    };
  },

  paint(part, { text, state, settings }) {
    const { t } = text;
    const sampled = state.runs.filter((run) => run.sample !== null);
    setText(part.title, t('samplesTitle'));
    const { prompt, bytes, temperature } = state.sample ?? {
      ...LAB_SAMPLE,
      prompt: samplePrompt(settings, text.lang),
    };
    setText(
      part.intro,
      sampled.length
        ? t('samplesIntro', { prompt, bytes: integer(bytes), temperature: decimals(temperature, 2) })
        : t('samplesPending'),
    );
    const read = state.runs.filter((run) => run.nextChars.before);
    setText(part.nextTitle, t('nextTitle'));
    setText(part.nextIntro, read.length ? t('nextIntro', { prompt }) : t('nextPending'));
    const signature = `${text.lang}|${sampled.map((run) => run.id).join(',')}|${read
      .map((run) => `${run.id}${run.nextChars.after ? '+' : ''}`)
      .join(',')}`;
    if (part.list.dataset.signature === signature) return;
    part.list.dataset.signature = signature;
    // The language the models learned, for the browser's choice of glyphs.
    const lang = state.sample?.lang ?? null;
    part.list.replaceChildren(
      ...sampled.flatMap((run) => {
        // The prompt in bold, then what the model wrote.
        const dd = el('dd', { className: 'lab-sample' });
        dd.append(el('strong', { textContent: prompt }), ...sampleNodes(part, text, state, run.sampleBytes));
        if (lang) dd.lang = lang;
        dd.dataset.run = run.id;
        return [el('dt', { textContent: t(RUN_LABEL[run.id]) }), dd];
      }),
    );
    part.nextList.replaceChildren(
      ...read.flatMap((run) => {
        const rows = [['before', run.nextChars.before]];
        if (run.nextChars.after) rows.push(['after', run.nextChars.after]);
        return [
          el('dt', { textContent: t(RUN_LABEL[run.id]) }),
          ...rows.map(([when, chars]) => {
            const dd = el('dd', { className: 'lab-next-chars' });
            dd.dataset.run = run.id;
            dd.dataset.when = when;
            dd.append(
              el('span', {
                className: 'lab-next-when',
                textContent: t(when === 'before' ? 'nextBefore' : 'nextAfter'),
              }),
              ...chars.map((c) => {
                const item = el('span', { className: 'lab-next-char' });
                const known =
                  c.broken || learnedChars(part, text, state).has(c.text) || /^[\u0000-\u007f]$/.test(c.text);
                const glyph = c.broken
                  ? byteBoxes(text, c.bytes)
                  : known
                    ? [el('span', { className: 'lab-next-glyph', textContent: visibleChar(text, c.text) })]
                    : [codePointBox(text, c.text)];
                if (lang && !c.broken) glyph[0].lang = lang;
                item.append(...glyph, el('span', { className: 'lab-next-p', textContent: percent(c.p) }));
                return item;
              }),
            );
            return dd;
          }),
        ];
      }),
    );
  },
};
