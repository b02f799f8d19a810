import { isotonic } from '../boost/shape';
import type { StepEdit } from '../model/edits';

/** A half-open range of a feature's leaves: its non-missing bins are 0..m−1, the missing-value bin is m. */
export type LeafRange = [from: number, to: number];

/**
 * What one hand edit does to a feature's working steps over a range of its leaves: `original` holds the steps the
 * edits started from (for `reset`), `count` the leaves' training counts (the weights of `merge` and `monotone`; any
 * multiple of them, such as their frequencies, gives the same steps). `remove` leaves the steps as they are.
 */
export function applyStepEdit(
  edit: Pick<StepEdit, 'op' | 'value' | 'direction'>,
  steps: Float64Array,
  original: Float64Array,
  count: Float64Array,
  [from, to]: LeafRange,
): void {
  switch (edit.op) {
    case 'shift':
      for (let k = from; k < to; k++) steps[k] += edit.value as number;
      return;
    case 'set':
      steps.fill(edit.value as number, from, to);
      return;
    case 'interpolate': {
      const lo = steps[from];
      const hi = steps[to - 1];
      const span = to - 1 - from;
      for (let k = from + 1; k < to - 1; k++) steps[k] = lo + ((hi - lo) * (k - from)) / span;
      return;
    }
    case 'merge': {
      let total = 0;
      let weighted = 0;
      let plain = 0;
      for (let k = from; k < to; k++) {
        total += count[k];
        weighted += count[k] * steps[k];
        plain += steps[k];
      }
      steps.fill(total > 0 ? weighted / total : plain / (to - from), from, to);
      return;
    }
    case 'monotone':
      isotonic(steps, count, from, to, edit.direction as 1 | -1);
      return;
    case 'reset':
      steps.set(original.subarray(from, to), from);
      return;
    case 'remove':
      return;
  }
}
