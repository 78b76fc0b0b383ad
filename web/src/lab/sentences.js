// A reading's sentences ({ key, params } with raw numbers, from
// conclusions.js and sweep.js) as paragraphs. A panel carries a format per
// parameter name it shows, (value, text) -> string; a name it gives none
// shows two decimals.
import { decimals, integer, significant } from '../format.js';
import { el } from '../widgets/dom.js';
import { RUN_LABEL } from './labels.js';

export const whole = (value) => integer(value);
export const hundredths = (value) => decimals(value, 2);
// A learning rate, and a loss compared with the committed tables'.
export const fourDecimals = (value) => decimals(value, 4);
// A ratio of gradients or updates, which spans decades.
export const twoFigures = (value) => significant(value, 2);
export const runName = (id, text) => text.t(RUN_LABEL[id]);
export const runNames = (ids, text) => (ids.length ? text.list(ids.map((id) => runName(id, text))) : text.t('none'));
export const depthList = (layers, text) => (layers.length ? text.list(layers.map(String)) : text.t('none'));

// A sentence's parameters as it shows them, each by its name's format.
export function formatParams(params, formats, text) {
  const shown = {};
  for (const [name, value] of Object.entries(params)) shown[name] = (formats[name] ?? hundredths)(value, text);
  return shown;
}

// One <p data-reading="key"> per sentence, in the order given.
export function sentenceParagraphs(sentences, formats, text) {
  return sentences.map(({ key, params }) => {
    const p = el('p', { textContent: text.t(key, formatParams(params, formats, text)) });
    p.dataset.reading = key;
    return p;
  });
}
