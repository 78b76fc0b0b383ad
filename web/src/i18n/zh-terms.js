// The Chinese page's term list: one word for each of these concepts on the
// page, in the lab, in the custom elements and in the SCORM metadata. On a
// term's first use in a section the English follows in parentheses
// (firstUse); after that the Chinese word stands alone. English outside those
// parentheses is allowed only in code, identifiers and math, never in the
// prose (tests/js/zh-wording.test.mjs checks both dictionaries).
//
//   english   the word the English page uses, and the one the Chinese must
//             not use bare (matched case-insensitively, as a whole word)
//   zh        the Chinese word
//   firstUse  how the first use in a section reads
export const ZH_TERMS = [
  { english: 'pre-norm', zh: '前置归一化', firstUse: '前置归一化（pre-norm）' },
  { english: 'post-norm', zh: '后置归一化', firstUse: '后置归一化（post-norm）' },
  { english: 'token', zh: '词元', firstUse: '词元（token）' },
  { english: 'warmup', zh: '预热', firstUse: '预热（warmup）' },
  { english: 'one-hot', zh: '独热', firstUse: '独热（one-hot）' },
];
