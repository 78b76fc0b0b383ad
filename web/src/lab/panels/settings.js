// The lab's introduction and the reader's settings: depth, learning rate,
// norm, warmup and seed; which runs make the contrast (ticked one by one, or
// set in one press to the chapter's contrast or to what current models do:
// runs.js CONTRAST_PRESETS); the committed text in
// the page's language or the reader's own. They change only between
// contrasts (editable).
import { decimals, integer } from '../../format.js';
import { el, labelledControl, setAttr, setDisabled, setHidden, setOptions, setText } from '../../widgets/dom.js';
import { choiceBoxes } from '../choice-boxes.js';
import { RUN_LABEL } from '../labels.js';
import {
  CONTRAST_PRESETS,
  LAB_DEPTHS,
  LAB_LRS,
  LAB_MIN_TEXT_BYTES,
  LAB_SEED_MAX,
  LAB_SHAPE,
  LAB_WARMUP_MAX,
  RUN_CHOICES,
  VARIANT_RUNS,
  utf8Bytes,
} from '../runs.js';
import { runNames } from '../sentences.js';
import { LAB_TEXTS } from '../texts.js';

// The committed text's size per language.
const textBytes = {};
const languageTextBytes = (lang) => (textBytes[lang] ??= utf8Bytes(LAB_TEXTS[lang]));

// A whole number typed in [lo, hi], else the previous value.
function wholeIn(typed, lo, hi, previous) {
  const value = Number(typed);
  return Number.isInteger(value) && value >= lo && value <= hi ? value : previous;
}

export const settingsPanel = {
  name: 'settings',
  reads: ['text', 'settings', 'editable'],

  create({ doc, settings, change }) {
    const intro = el('p', { className: 'lab-intro' });
    const box = el('fieldset', { className: 'lab-settings' });
    const legend = el('legend');
    const row = el('div', { className: 'control-row' });
    const depth = labelledControl('lab-depth', 'select');
    const lr = labelledControl('lab-lr', 'select');
    const norm = labelledControl('lab-norm', 'select');
    const warmup = labelledControl('lab-warmup', 'input', {
      type: 'number',
      min: 0,
      max: LAB_WARMUP_MAX,
      step: 1,
      inputmode: 'numeric',
    });
    const seed = labelledControl('lab-seed', 'input', {
      type: 'number',
      min: 0,
      max: LAB_SEED_MAX,
      step: 1,
      inputmode: 'numeric',
    });
    row.append(depth.wrap, lr.wrap, norm.wrap, warmup.wrap, seed.wrap);
    const runsBox = el('fieldset', { className: 'lab-choices' });
    const runsLegend = el('legend');
    // The presets: a button each, pressed while the ticked runs are its runs.
    const presetRow = el('div', { className: 'button-row lab-presets' });
    const presetLabel = el('span', { id: 'lab-presets-label', className: 'lab-presets-label' });
    presetRow.setAttribute('role', 'group');
    presetRow.setAttribute('aria-labelledby', presetLabel.id);
    presetRow.append(presetLabel);
    const presets = {};
    for (const id of Object.keys(CONTRAST_PRESETS)) {
      presets[id] = el('button', { type: 'button', className: 'button-quiet lab-preset' });
      presets[id].dataset.preset = id;
      presets[id].addEventListener('click', () => change({ runs: [...CONTRAST_PRESETS[id]] }));
      presetRow.append(presets[id]);
    }
    const presetsNote = el('p', { className: 'lab-line-note', id: 'lab-presets-note' });
    const missingNote = el('p', { className: 'lab-line-note' });
    presetRow.setAttribute('aria-describedby', presetsNote.id);
    runsBox.append(presetRow);
    const runChecks = choiceBoxes(runsBox, 'lab-run', 'checkbox', RUN_CHOICES);
    runsBox.prepend(runsLegend);
    runsBox.append(presetsNote, missingNote);
    const textBox = el('fieldset', { className: 'lab-choices' });
    const textLegend = el('legend');
    const textChoices = choiceBoxes(textBox, 'lab-text', 'radio', ['default', 'own']);
    textBox.prepend(textLegend);
    const own = labelledControl('lab-own-text', 'textarea', { rows: 4, spellcheck: 'false' });
    own.wrap.classList.add('lab-own-text');
    textBox.append(own.wrap);
    box.append(legend, row, runsBox, textBox);

    // The reader's own text, kept while the committed one is chosen.
    let ownText = '';
    depth.input.addEventListener('change', () => change({ layers: Number(depth.input.value) }));
    lr.input.addEventListener('change', () => change({ lr: Number(lr.input.value) }));
    norm.input.addEventListener('change', () => change({ norm: norm.input.value }));
    warmup.input.addEventListener('change', () =>
      change({ warmup: wholeIn(warmup.input.value, 0, LAB_WARMUP_MAX, settings.warmup) }),
    );
    seed.input.addEventListener('change', () =>
      change({ seed: wholeIn(seed.input.value, 0, LAB_SEED_MAX, settings.seed) }),
    );
    for (const [id, check] of Object.entries(runChecks)) {
      check.addEventListener('change', () =>
        change({ runs: RUN_CHOICES.filter((r) => (r === id ? check.checked : settings.runs.includes(r))) }),
      );
    }
    for (const [id, choice] of Object.entries(textChoices))
      choice.addEventListener('change', () => choice.checked && change({ text: id === 'own' ? ownText : null }));
    own.input.addEventListener('input', () => {
      ownText = own.input.value;
      if (settings.text !== null) change({ text: ownText });
    });

    return {
      nodes: [intro, box],
      doc,
      intro,
      legend,
      depth,
      lr,
      norm,
      warmup,
      seed,
      runsLegend,
      presetLabel,
      presets,
      presetsNote,
      missingNote,
      runChecks,
      textLegend,
      textChoices,
      own,
    };
  },

  paint(part, { text, settings, editable }) {
    const { t } = text;
    const { depth, lr, norm, warmup, seed, runChecks, textChoices, own } = part;
    setText(part.intro, t('intro', { ...LAB_SHAPE }));
    setText(part.legend, t('settings'));
    setText(depth.label, t('depth'));
    setOptions(
      depth.input,
      LAB_DEPTHS.map((d) => [d, String(d)]),
      settings.layers,
    );
    setText(lr.label, t('lr'));
    setOptions(
      lr.input,
      LAB_LRS.map((v) => [v, decimals(v, 4)]),
      settings.lr,
    );
    setText(norm.label, t('norm'));
    setOptions(
      norm.input,
      [
        ['rmsnorm', t('normRms')],
        ['layernorm', t('normLayer')],
      ],
      settings.norm,
    );
    setText(warmup.label, t('warmup'));
    setText(seed.label, t('seed'));
    // A number being typed stays as typed.
    if (part.doc.activeElement !== warmup.input) warmup.input.value = String(settings.warmup);
    if (part.doc.activeElement !== seed.input) seed.input.value = String(settings.seed);
    setText(part.runsLegend, t('runs'));
    for (const id of RUN_CHOICES) {
      runChecks[id].checked = settings.runs.includes(id);
      setText(runChecks[id].labels[0], t(RUN_LABEL[id]));
    }
    setText(part.presetLabel, t('presets'));
    for (const [id, button] of Object.entries(part.presets)) {
      setText(button, t(id === 'chapter' ? 'presetChapter' : 'presetCurrent'));
      const runs = CONTRAST_PRESETS[id];
      const pressed = runs.length === settings.runs.length && runs.every((r, i) => settings.runs[i] === r);
      setAttr(button, 'aria-pressed', String(pressed));
    }
    setText(part.presetsNote, t('presetsNote'));
    const missing = VARIANT_RUNS.filter((id) => !RUN_CHOICES.includes(id));
    setText(part.missingNote, missing.length ? t('presetsMissing', { runs: runNames(missing, text) }) : '');
    setHidden(part.missingNote, !missing.length);
    setText(part.textLegend, t('text'));
    setText(textChoices.default.labels[0], t('textDefault', { bytes: integer(languageTextBytes(text.lang)) }));
    setText(textChoices.own.labels[0], t('textOwn'));
    textChoices.default.checked = settings.text === null;
    textChoices.own.checked = settings.text !== null;
    setHidden(own.wrap, settings.text === null);
    setText(own.label, t('textOwnLabel', { min: integer(LAB_MIN_TEXT_BYTES) }));
    for (const control of [
      depth.input,
      lr.input,
      norm.input,
      warmup.input,
      seed.input,
      own.input,
      ...Object.values(runChecks),
      ...Object.values(part.presets),
      ...Object.values(textChoices),
    ])
      setDisabled(control, !editable);
  },
};
