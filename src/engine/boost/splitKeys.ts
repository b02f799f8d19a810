import { textValue } from '../data/frame';
import { splitColumn } from '../params/split';
import type { FitPlan } from '../plan/plan';
import { mulberry32 } from '../base/prng';

/**
 * What chooses a bag's early-stopping rows under a time or group split, per row of a partition: its time (the
 * validation rows are the latest) or its group's code (validation rows come in whole groups), so the inner split
 * judges the steps the way the test rows will.
 */
export type InnerSplitBy = { time: Float64Array } | { group: Int32Array };

/** The partition's rows' times or group codes (−1: none) under the plan's split; null for the random split. */
export function innerSplitKeys(plan: FitPlan, part: number): InnerSplitBy | null {
  const by = splitColumn(plan.split);
  if (!by) return null;
  const column = plan.parts[part].frame.column(by.column);
  if (by.kind === 'time' && column.storage === 'number') return { time: column.values };
  const codes = new Map<string, number>();
  const n = plan.parts[part].y.length;
  const group = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const key = textValue(column, r);
    if (key === null) {
      group[r] = -1;
      continue;
    }
    let code = codes.get(key);
    if (code === undefined) codes.set(key, (code = codes.size));
    group[r] = code;
  }
  return { group };
}

/**
 * About `nValid` of `rows` as validation rows, the rest as training rows (each ascending): by time, the nValid latest
 * (ties broken by row order; rows without a time always train); by group, whole groups in a seeded order until there
 * are nValid rows, at least one group left to train (rows without a group always train). Null when the rows hold
 * fewer than 2 groups.
 */
export function innerSplitBy(by: InnerSplitBy, rows: Int32Array, nValid: number, seed: number): { train: Int32Array; valid: Int32Array } | null {
  const valid = new Uint8Array(rows.length);
  if ('time' in by) {
    const timed = Array.from(rows.keys()).filter((i) => by.time[rows[i]] === by.time[rows[i]]);
    timed.sort((a, b) => by.time[rows[a]] - by.time[rows[b]] || a - b);
    for (const i of timed.slice(Math.max(0, timed.length - nValid))) valid[i] = 1;
  } else {
    const members = new Map<number, number[]>();
    rows.forEach((r, i) => {
      if (by.group[r] < 0) return;
      const g = members.get(by.group[r]);
      if (g) g.push(i);
      else members.set(by.group[r], [i]);
    });
    if (members.size < 2) return null;
    const order = [...members.keys()].sort((a, b) => a - b);
    const random = mulberry32(seed);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let taken = 0;
    for (const g of order.slice(0, -1)) {
      if (taken >= nValid) break;
      for (const i of members.get(g) as number[]) valid[i] = 1;
      taken += (members.get(g) as number[]).length;
    }
  }
  return { train: rows.filter((_, i) => !valid[i]), valid: rows.filter((_, i) => valid[i] === 1) };
}
