// The checks' sentences (challenge-machine.js) as text: a parameter that is
// a sentence is filled in turn, a vector is printed as the calculator prints
// it, a number by what it is. A figure that falls short of a bound it is
// compared with (a length short of √d, a mean square short of 1, a share of
// eps just past the 0.01% the checks allow) gets the decimals that tell it
// from the bound.
import { EPS_NEGLIGIBLE } from './eps-share.js';
import { decimals, decimalsApart, percentPast, powerOfTen, rootValue, significant, vectorText } from './format.js';

const NUMBERS = {
  d: String,
  by: String,
  eps: powerOfTen,
  rms: rootValue,
  std: rootValue,
  rmsSquare: (v) => significant(v, 3),
  lnChange: (v) => significant(v, 2),
  rmsChange: (v) => significant(v, 2),
};

// Per sentence, the figures printed against a bound.
const LIMIT_PERCENT = 100 * EPS_NEGLIGIBLE;
const BOUNDED = {
  'challenges.epsShare': ({ share }) => ({ share: percentPast(share, LIMIT_PERCENT) }),
  'challenges.unit.small': ({ l2, sqrtD, meanSquare }) => {
    const k = decimalsApart(l2, sqrtD);
    return {
      l2: decimals(l2, k),
      sqrtD: decimals(sqrtD, k),
      meanSquare: decimals(meanSquare, decimalsApart(meanSquare, 1)),
    };
  },
  'challenges.size.small': ({ after, sqrtD }) => {
    const k = decimalsApart(after, sqrtD);
    return { after: decimals(after, k), sqrtD: decimals(sqrtD, k) };
  },
  'challenges.flat.small': ({ rmsY }) => {
    const k = decimalsApart(Math.abs(rmsY[0]), 1, 2);
    return { rmsY: vectorText(rmsY, (v) => decimals(v, k)) };
  },
};

const isSentence = (value) => typeof value === 'object' && value !== null && typeof value.key === 'string';

// t: the page's string lookup, t(key, params).
export function sentenceText(sentence, t) {
  const bounded = BOUNDED[sentence.key]?.(sentence.params) ?? {};
  const params = {};
  for (const [name, value] of Object.entries(sentence.params)) {
    if (name in bounded) params[name] = bounded[name];
    else if (isSentence(value)) params[name] = sentenceText(value, t);
    else if (typeof value === 'number') params[name] = (NUMBERS[name] ?? ((v) => decimals(v, 3)))(value);
    else params[name] = vectorText(value);
  }
  return t(sentence.key, params);
}
