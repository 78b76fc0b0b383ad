// The demo panel's settings as one phrase, for every line that names them
// (the attention panel's, the walk's when a prediction was made for other
// settings): the norm, where it sits and the depth. With no norm there is
// nothing to place, so the placement is not named.
import { NORM_KINDS, PLACEMENTS } from './constants.js';

const PLACEMENT_KEY = { pre: 'model.placementPre', post: 'model.placementPost' };

// settings: { norm, placement, depth }; t: the page's dictionary lookup.
export function settingsText({ norm, placement, depth }, t) {
  if (!NORM_KINDS.includes(norm) || !PLACEMENTS.includes(placement) || !Number.isInteger(depth))
    throw new RangeError(`not demo settings: ${norm}, ${placement}, ${depth}`);
  if (norm === 'none') return t('model.settingsNoNorm', { depth });
  return t('model.settingsNorm', { norm: t(`model.short.${norm}`), placement: t(PLACEMENT_KEY[placement]), depth });
}
