// The demo panel's settings as the page names them (web/src/settings-text.js):
// every norm and placement, in both languages, as a phrase of its own and
// inside the two lines that hold it (the attention panel's settings, the
// walk's note on a prediction made for other settings). With no norm the
// placement is not named: there is nothing to place. And the prediction's
// settings key (web/src/predictions.js), which treats both placements
// without a norm as the one model they are, and reads a key naming no
// settings as no prediction.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { NORM_KINDS, PLACEMENTS } from '../../web/src/constants.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { readPredictions, settingsFromKey, settingsKey, writePrediction } from '../../web/src/predictions.js';
import { createMemoryLearnerStore } from '../../web/src/learner.js';
import { settingsText } from '../../web/src/settings-text.js';

const translator = (lang) => (key, params) => plain(lookup(lang, key), params);

// What each combination must read, built from the control labels the
// settings selects show (so the phrase names what the reader picked).
const EXPECTED = {
  en: ({ norm, placement, depth }, t) =>
    norm === 'none'
      ? `no norm, ${depth} layers`
      : `${t(`model.norm${norm === 'rmsnorm' ? 'Rmsnorm' : 'Layernorm'}`)}, ${t(`model.placement${placement === 'pre' ? 'Pre' : 'Post'}`)}, ${depth} layers`,
  'zh-CN': ({ norm, placement, depth }, t) =>
    norm === 'none'
      ? `不做归一化、${depth} 层`
      : `${t(`model.norm${norm === 'rmsnorm' ? 'Rmsnorm' : 'Layernorm'}`)}、${t(`model.placement${placement === 'pre' ? 'Pre' : 'Post'}`)}、${depth} 层`,
};

for (const lang of ['en', 'zh-CN']) {
  const t = translator(lang);
  const placementWords = PLACEMENTS.map((p) => t(`model.placement${p === 'pre' ? 'Pre' : 'Post'}`));
  describe(`settings text (${lang})`, () => {
    for (const norm of NORM_KINDS) {
      for (const placement of PLACEMENTS) {
        for (const depth of [1, 6, 24]) {
          const settings = { norm, placement, depth };
          test(`${norm}, ${placement}, ${depth} layers`, () => {
            const phrase = settingsText(settings, t);
            assert.equal(phrase, EXPECTED[lang](settings, t));
            if (norm === 'none') {
              for (const word of placementWords) assert.ok(!phrase.includes(word), `"${phrase}" names ${word}`);
              assert.ok(!/RMSNorm|LayerNorm/.test(phrase));
            }
            const attention = t('attention.settings', { settings: phrase, tokens: 30 });
            const other = t('autorun.predict.otherSettings', { settings: phrase });
            for (const line of [attention, other]) {
              assert.ok(line.includes(phrase), line);
              assert.ok(!/[{}]/.test(line), `a parameter left unfilled: ${line}`);
            }
            assert.equal(attention, lang === 'en' ? `Settings: ${phrase}, 30 tokens.` : `设置：${phrase}，30 个词元。`);
          });
        }
      }
    }
    test('the bug the issue found is gone: no norm never reads as "norm, post-norm"', () => {
      const line = t('attention.settings', {
        settings: settingsText({ norm: 'none', placement: 'post', depth: 24 }, t),
        tokens: 30,
      });
      assert.equal(
        line,
        lang === 'en' ? 'Settings: no norm, 24 layers, 30 tokens.' : '设置：不做归一化、24 层，30 个词元。',
      );
    });
  });
}

describe('the settings a prediction was made for', () => {
  test('every norm and placement survives the key; without a norm the two placements are one model', () => {
    for (const norm of NORM_KINDS)
      for (const placement of PLACEMENTS) {
        const back = settingsFromKey(settingsKey({ norm, placement, depth: 24 }));
        assert.deepEqual(back, { norm, placement: norm === 'none' ? 'pre' : placement, depth: 24 });
      }
    assert.equal(settingsKey({ norm: 'none', placement: 'post', depth: 12 }), 'none.pre.12');
    // A key stored before, with the placement it was made under, still matches.
    assert.equal(
      settingsKey(settingsFromKey('none.post.12')),
      settingsKey({ norm: 'none', placement: 'pre', depth: 12 }),
    );
    assert.notEqual(
      settingsKey({ norm: 'rmsnorm', placement: 'post', depth: 12 }),
      settingsKey({ norm: 'rmsnorm', placement: 'pre', depth: 12 }),
    );
  });

  test('a key that names no settings is no key, and its record reads as absent', () => {
    for (const key of [
      '',
      'rmsnorm',
      'rmsnorm.pre',
      'bogus.pre.24',
      'rmsnorm.side.24',
      'rmsnorm.pre.0',
      'rmsnorm.pre.65',
      'rmsnorm.pre.2x',
      'rmsnorm.pre.24.1',
      'rmsnorm.pre.1e1',
    ]) {
      assert.equal(settingsFromKey(key), null, key);
      const store = createMemoryLearnerStore();
      store.write('predictions', { d: { r: 100, n: 32, k: key } });
      assert.equal(readPredictions(store).d, undefined, key);
      assert.throws(() => writePrediction(store, 'd', { r: 100, n: 32, k: key }), RangeError);
    }
    const store = createMemoryLearnerStore();
    writePrediction(store, 'd', { r: 100, n: 32, k: 'layernorm.post.6' });
    assert.deepEqual(readPredictions(store).d, { r: 100, n: 32, k: 'layernorm.post.6' });
  });
});
