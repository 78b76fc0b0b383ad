// The lab's committed tables per page language, as sweep.js's sweepTable()
// and robustnessTable() give them, from web/build.mjs: the sweep the map and
// the learning-rate window draw, and the default contrast over its seeds.
export const SWEEPS = NORMLAB_TRAIN_SWEEP;
export const ROBUSTNESS = NORMLAB_LAB_ROBUSTNESS;
// The variants' sweep (variantSweepTable()), one text's, in every language.
export const VARIANT_SWEEP = NORMLAB_VARIANT_SWEEP;
