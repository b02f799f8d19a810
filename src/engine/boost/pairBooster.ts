import type { BoostParams } from '../params/boosted';
import { BestRound, binCounts, gather, gradientState, innerSplit, MIN_HESSIAN, MIN_LEAF_HESSIAN } from './booster';
import { crossTree, type CellSums } from './pairTree';
import type { InnerSplitBy } from './splitKeys';

/** What one bag of pair boosting needs, for every row of a partition: plain data that can go to a worker thread. */
export interface PairData {
  classifier: boolean;
  y: Float64Array;
  /** Each row's score under the partition's main effects (log-odds for a classifier). */
  offset: Float64Array;
  /** Per pair, each row's cell (a · width + b). */
  cells: Uint16Array[];
  /** Per pair, its axes' bin counts. */
  shapes: [number, number][];
  /** Per pair, whether each axis' bins are ordered (numeric). */
  ordered: [boolean, boolean][];
  /** A time or group split's keys for the early-stopping rows (absent: rows at random). */
  inner?: InnerSplitBy | null;
  /** Stop early as BestRound's `adaptive` does (absent: after `early_stopping_rounds` rounds without progress). */
  adaptivePatience?: boolean;
}

export interface PairBagResult {
  /** Per pair, one additive step per cell, at the round with the best validation loss. */
  tables: Float64Array[];
  rounds: number;
}

/**
 * Cyclic boosting of the pair terms of one bag on top of the main effects (held fixed in `offset`), as the main
 * effects are boosted but with each pair's cells as its bins: each round adds to every pair in turn a shrunken
 * four-leaf tree over its cells (crossTree) fitted by Newton steps to what the model leaves unexplained; the inner
 * validation rows decide when to stop, so pairs that do not help stay at 0.
 */
export function boostPairBag(data: PairData, params: BoostParams, seed: number, rows?: Int32Array): PairBagResult {
  const { train, valid } = innerSplit(rows ?? Int32Array.from({ length: data.y.length }, (_, i) => i), params.validation_size, seed, data.inner);
  const tables = data.shapes.map(([a, b]) => new Float64Array(a * b));
  if (valid.length === 0 || tables.length === 0) return { tables, rounds: 0 };
  const order = new Int32Array(train.length + valid.length);
  order.set(train);
  order.set(valid, train.length);
  const nT = train.length;
  const cells = data.cells.map((c) => gather(c, order));
  const sizes = tables.map((t) => t.length);
  const counts = cells.map((c, p) => binCounts(c, 0, nT, sizes[p]));
  const state = gradientState(data.classifier, gatherNumbers(data.y, order), cells, sizes, nT, gatherNumbers(data.offset, order), counts);
  const maxCells = sizes.reduce((m, s) => Math.max(m, s), 0);
  const g = new Float64Array(maxCells);
  const h = new Float64Array(maxCells);
  const step = new Float64Array(maxCells);
  const best = new BestRound(state.validationLoss(), tables, params.early_stopping_rounds, data.adaptivePatience);
  state.histogram(0, g, h);
  for (let round = 1; round <= params.max_rounds; round++) {
    for (let p = 0; p < tables.length; p++) {
      const [height, width] = data.shapes[p];
      const n = height * width;
      pairStep({ g: g.subarray(0, n), h: h.subarray(0, n), c: counts[p], height, width }, data.ordered[p], params, step);
      const t = tables[p];
      for (let k = 0; k < n; k++) t[k] += step[k];
      state.apply(p, step, p + 1 < tables.length ? p + 1 : 0, g, h);
    }
    if (best.stop(round, state.validationLoss(), tables)) break;
  }
  return { tables: best.tables, rounds: best.round };
}

function gatherNumbers(values: Float64Array, order: Int32Array): Float64Array {
  const out = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = values[order[i]];
  return out;
}

/** Writes into `step` the shrunken Newton step of the pair's best tree, per cell (0 everywhere when none helps). */
function pairStep(s: CellSums, ordered: readonly [boolean, boolean], params: BoostParams, step: Float64Array): void {
  step.fill(0);
  const tree = crossTree(s, ordered, params.min_samples_leaf);
  if (!(tree.gain > 0)) return;
  const g = new Float64Array(4);
  const h = new Float64Array(4);
  const c = new Float64Array(4);
  tree.leafOf.forEach((leaf, k) => {
    g[leaf] += s.g[k];
    h[leaf] += s.h[k];
    c[leaf] += s.c[k];
  });
  const value = Float64Array.from(g, (gl, leaf) => (h[leaf] >= MIN_LEAF_HESSIAN ? (params.learning_rate * gl) / Math.max(h[leaf], MIN_HESSIAN * c[leaf]) : 0));
  tree.leafOf.forEach((leaf, k) => (step[k] = value[leaf]));
}
