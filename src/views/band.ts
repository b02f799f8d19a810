/**
 * The band around a step: ±2 standard errors of its score across the bags (`score_std`, `scores_std`), the one rule
 * the profile, the report, the comparison and the hand edits draw and judge by (pure).
 */
import { formatNumber } from './format';

/** How many standard errors the band reaches on each side of a step. */
const BAND_ERRORS = 2;

/** What the band is, for legends, captions and screen readers. */
export const BAND_TEXT = '±2 standard errors across the bags';

/** What a ± beside a step or a cell is. */
export const PLUS_MINUS_TEXT = `± is ${BAND_ERRORS} standard errors across the bags`;

/** The legend under a chart with a band. */
export const BAND_LEGEND = `The shaded band behind the steps: ${BAND_TEXT}, where the data could have put each step.`;

/** A step's band: [score − 2·std, score + 2·std]. */
export function bandRange(score: number, std: number): [number, number] {
  return [score - BAND_ERRORS * std, score + BAND_ERRORS * std];
}

/** Whether `value` lies inside the band of a step (a step without spread has no band: only its own score is inside). */
export function insideBand(value: number, score: number, std: number): boolean {
  return Math.abs(value - score) <= BAND_ERRORS * std;
}

/** The band's half width as a cell or a bin reads it: "±0.052"; empty without spread. */
export function plusMinus(std: number): string {
  return std > 0 ? `±${formatNumber(BAND_ERRORS * std)}` : '';
}
