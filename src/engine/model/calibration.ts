/** Calibrated probability of an additive score: the map at key trunc(score × 100), clamped to 0..100. */
export function calibrate(calibration: Float64Array, score: number): number {
  const key = Math.trunc(score * 100);
  return calibration[key < 0 ? 0 : key > 100 ? 100 : key];
}
