// The training text of each page language: a committed snapshot of the
// page's own prose in that language (web/data/extract-training-text.mjs),
// what a reader's runs train on unless they paste their own. The robustness
// table and the sweep (web/data) were trained on these exact bytes.
import EN from '../../data/training-text.en.txt';
import ZH from '../../data/training-text.zh.txt';

export const LAB_TEXTS = Object.freeze({ 'zh-CN': ZH, en: EN });
