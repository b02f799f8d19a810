/** SVG path geometry the panels and the report draw alike (pure). */
import type { StepPoint } from './profileSeries';

/** A coordinate to a tenth of a pixel: enough for any screen or printer, and short. */
export const px = (value: number): string => String(Math.round(value * 10) / 10);

type Scale = (value: number) => number;

/**
 * The steps after their first point: across each bin, then up or down to the next one's value (points are the bins'
 * lower edges, then the last upper edge with the last value).
 */
function stepsAfterFirst(points: readonly StepPoint[], x: Scale, y: Scale): string {
  let d = '';
  for (let i = 1; i < points.length; i++) d += `H${px(x(points[i].x))}${points[i].y === points[i - 1].y ? '' : `V${px(y(points[i].y))}`}`;
  return d;
}

/** A step line through `points`, as a path's `d`; empty without points. */
export function stepPath(points: readonly StepPoint[], x: Scale, y: Scale): string {
  return points.length ? `M${px(x(points[0].x))} ${px(y(points[0].y))}${stepsAfterFirst(points, x, y)}` : '';
}

/** The area between a step line through `points` and the zero line at `zero` (pixels), as a path's `d`. */
export function stepArea(points: readonly StepPoint[], x: Scale, y: Scale, zero: number): string {
  return points.length ? `M${px(x(points[0].x))} ${px(zero)}V${px(y(points[0].y))}${stepsAfterFirst(points, x, y)}V${px(zero)}Z` : '';
}

/**
 * The band between two step lines over the same x points (a series' `bandSteps`), as a closed path's `d`: along
 * `high` left to right, then back along `low`; empty without points.
 */
export function bandPath(low: readonly StepPoint[], high: readonly StepPoint[], x: Scale, y: Scale): string {
  if (!high.length) return '';
  let back = '';
  for (let i = low.length - 2; i >= 0; i--) back += `V${px(y(low[i].y))}H${px(x(low[i].x))}`;
  return `${stepPath(high, x, y)}${back}Z`;
}
