// How much of a norm's divisor is eps. RMSNorm divides by
// √(mean(x²) + eps) and LayerNorm by √(variance + eps): eps's share of what
// is under the root says whether the output shows the vector or eps.
//
// The page calls eps negligible at a share of at most 10⁻⁴ (0.01%), that is
// a divisor of at least 100·√eps (0.1 at eps = 10⁻⁶). RMSNorm's y then has a
// mean square of 1 to within 10⁻⁴ and a length of √d to within 0.005%, as
// printed to three decimals; above it, eps shows in the results.
export const EPS_NEGLIGIBLE = 1e-4;

// under: mean(x²) or the variance, as the kernels computed it.
export const epsShare = (under, eps) => eps / (under + eps);

// The smallest RMS (or std) at which eps is negligible: 100·√eps.
export const clearRoot = (eps) => Math.sqrt(eps) * Math.sqrt(1 / EPS_NEGLIGIBLE);

// result: a calculator result (compute.js calculatorSteps).
// 'zero': every entry is 0, so the RMS is √eps and y is all zeros;
// 'eps': eps is not negligible next to mean(x²); 'clear': it is.
export function rmsRegime(result) {
  if (result.x.every((v) => v === 0)) return 'zero';
  return epsShare(result.rms.meanSquare, result.eps) <= EPS_NEGLIGIBLE ? 'clear' : 'eps';
}

// LayerNorm's side: 'flat' when the variance is 0 (every entry equals the
// mean, so y is all zeros), else as rmsRegime with the variance.
export function lnRegime(result) {
  if (result.ln.variance === 0) return 'flat';
  return epsShare(result.ln.variance, result.eps) <= EPS_NEGLIGIBLE ? 'clear' : 'eps';
}
