import type { BoostParams } from '../params/boosted';
import { mulberry32, sampleRows } from '../base/prng';
import { featureImportances } from '../model/profile';
import type { FeatureModel, PairTerm, PartitionModel, TransparentModel } from '../model/types';
import { bagShare, centre, spread } from './assemble';
import type { BinnedFeature } from './binning';
import { customLoss, type BoostedPlan } from './fitBoosted';
import { coarseAxis, type CoarseAxis } from './pairAxes';
import { boostPairBag, type PairBagResult, type PairData } from './pairBooster';
import { cellSums, crossTreeGain } from './pairTree';
import { innerSplitKeys } from './splitKeys';
import { pairKey, type TermChoices } from '../params/terms';

/** Each bag boosts pairs on at most about this many rows: their few cells need fewer rows than the main effects. */
const PAIR_ROW_LIMIT = Number(process.env.PRL ?? 10_000);
/** Pair candidates are screened on at most this many of a partition's rows. */
const SCREEN_ROWS = 20_000;
/** Only pairs of the this many most important features are screened (all pairs of 50 features: 1,225). */
const SCREEN_FEATURES = 50;
/** Purification stops when no row or column mean moves a score by more than this share of the largest score. */
const PURIFY_TOLERANCE = 1e-12;
const PURIFY_ROUNDS = 200;
/**
 * Shuffles each screened pair must beat (see screenPairs). On the sample tasks 49 also turned away pairs that helped
 * (cars' test R² 0.009 lower over three splits); 19 keeps their scores within 0.006 of the one-shuffle screen.
 */
const NULL_SHUFFLES = 19;

/** One bag of one partition's pair boosting: plain data that can go to a worker thread. */
export interface PairTask {
  part: number;
  data: PairData;
  params: BoostParams;
  seed: number;
  rows: Int32Array | null;
}

interface PartPairs {
  /** The chosen pairs' features (indexes into the partition's features) and coarse axes. */
  pairs: [number, number][];
  axes: Map<number, CoarseAxis>;
  data: PairData;
}

export interface PairPlan {
  parts: (PartPairs | null)[];
  tasks: PairTask[];
}

/**
 * The pairs worth boosting in each partition, from its fitted main effects: every pair of (the most important)
 * features is screened on the residuals' two-dimensional histogram over coarse bins, and the `interactions` with the
 * best four-leaf tree are kept. Null when no partition asks for pairs.
 */
export function planPairs(bp: BoostedPlan, model: TransparentModel): PairPlan | null {
  const parts = bp.plan.parts.map((part, i): PartPairs | null => {
    const params = bp.params[i];
    const fitted = model.partitions.get(part.key) as PartitionModel;
    // Pairs are boosted on today's squared error and log loss, unweighted (see docs/models.md).
    if ((params.interactions === 0 && !bp.plan.terms.pairs) || fitted.features.length < 2 || customLoss(bp.plan)) return null;
    const pairs = partPairs(bp.binned[i], fitted, part.y, params, bp.plan.modelType === 'classifier', bp.plan.seed + 104729 * i, bp.plan.terms);
    return pairs && { ...pairs, data: { ...pairs.data, inner: innerSplitKeys(bp.plan, i), adaptivePatience: bp.plan.adaptivePatience } };
  });
  if (parts.every((p) => p === null)) return null;
  const tasks = parts.flatMap((p, part): PairTask[] => {
    if (!p) return [];
    const params = bp.params[part];
    return Array.from({ length: params.outer_bags }, (_, bag) => ({
      part,
      data: p.data,
      params,
      seed: (bp.plan.seed + 7919 * bag + 104729 * part) ^ 0x2545f491,
      rows: p.data.y.length > PAIR_ROW_LIMIT ? sampleRows(p.data.y.length, PAIR_ROW_LIMIT, bp.plan.seed + bag) : null,
    }));
  });
  return { parts, tasks };
}

export function runPairBag(task: PairTask): PairBagResult {
  return boostPairBag(task.data, task.params, task.seed, task.rows ?? undefined);
}

function partPairs(
  binned: BinnedFeature[],
  part: PartitionModel,
  y: Float64Array,
  params: BoostParams,
  classifier: boolean,
  seed: number,
  terms: TermChoices,
): PartPairs | null {
  const offset = mainScores(binned, part);
  const index = new Map(part.features.map((f, j) => [f.name, j]));
  const pairs = terms.pairs
    ? terms.pairs.flatMap(([a, b]): [number, number][] => {
        const [j, k] = [index.get(a), index.get(b)];
        return j === undefined || k === undefined ? [] : [[Math.min(j, k), Math.max(j, k)]];
      })
    : screenPairs(binned, part, index, y, offset, params, classifier, seed, terms.excluded);
  if (!pairs.length) return null;
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const used = new Map([...new Set(pairs.flat())].map((j) => [j, coarseAxis(binned[j], params.interaction_bins)]));
  const data: PairData = {
    classifier,
    y,
    offset,
    cells: pairs.map(([j, k]) => cellCodes(used.get(j) as CoarseAxis, used.get(k) as CoarseAxis)),
    shapes: pairs.map(([j, k]) => [(used.get(j) as CoarseAxis).size, (used.get(k) as CoarseAxis).size]),
    ordered: pairs.map(([j, k]) => [binned[j].type === 'numeric', binned[k].type === 'numeric']),
  };
  return { pairs, axes: used, data };
}

/**
 * The pairs worth fitting: every pair of the most important features (but the excluded ones) is screened on the
 * residuals' two-dimensional histogram over coarse bins, and the `interactions` with the best four-leaf tree are kept
 * among those that pass two tests against what the same screen finds with one feature's rows shuffled (which breaks
 * any pair effect): the pair's gain beats the best gain of every pair shuffled once, and it beats each of
 * NULL_SHUFFLES shuffles of its own. The first alone is a noisy bar that pairs of noise pass about half the time;
 * with the second, one passes about once in NULL_SHUFFLES + 1. Additive data (any size) yields none.
 */
function screenPairs(
  binned: BinnedFeature[],
  part: PartitionModel,
  index: Map<string, number>,
  y: Float64Array,
  offset: Float64Array,
  params: BoostParams,
  classifier: boolean,
  seed: number,
  excluded: ReadonlySet<string>,
): [number, number][] {
  const ranked = featureImportances(part)
    .slice(0, SCREEN_FEATURES)
    .map((f) => index.get(f.feature) as number)
    .sort((a, b) => a - b);
  const axes = new Map(ranked.map((j) => [j, coarseAxis(binned[j], params.interaction_bins)]));
  const rows = sampleRows(y.length, SCREEN_ROWS, seed);
  const g = new Float64Array(rows.length);
  const h = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    if (classifier) {
      const p = 1 / (1 + Math.exp(-offset[r]));
      g[i] = y[r] - p;
      h[i] = p * (1 - p);
    } else {
      g[i] = y[r] - offset[r];
      h[i] = 1;
    }
  });
  const shuffles = [shuffledRows(rows.length, seed)];
  const screened = new Map(ranked.map((j) => [j, gatherCodes((axes.get(j) as CoarseAxis).codes, rows)]));
  const gainOf = (j: number, k: number, shuffle: Int32Array | null): number => {
    const [a, b] = [axes.get(j) as CoarseAxis, axes.get(k) as CoarseAxis];
    const ordered: [boolean, boolean] = [a.axis.type === 'numeric', b.axis.type === 'numeric'];
    return screenGain(screened.get(j) as Uint16Array, a.size, screened.get(k) as Uint16Array, b.size, shuffle, g, h, ordered, params.min_samples_leaf);
  };
  const candidates: { pair: [number, number]; gain: number }[] = [];
  let noise = 0;
  for (let x = 0; x < ranked.length; x++) {
    for (let z = x + 1; z < ranked.length; z++) {
      const [j, k] = [ranked[x], ranked[z]];
      const gain = gainOf(j, k, null);
      noise = Math.max(noise, gainOf(j, k, shuffles[0]));
      if (gain > 0 && !excluded.has(pairKey(part.features[j].name, part.features[k].name))) candidates.push({ pair: [j, k], gain });
    }
  }
  // Each candidate meets its own shuffles, strongest candidates first, until enough pass; a pair of noise usually
  // meets a shuffle that beats it within the first few.
  const shuffle = (s: number): Int32Array => (shuffles[s] ??= shuffledRows(rows.length, seed + 31 * s));
  const kept: [number, number][] = [];
  for (const c of candidates.filter((c) => c.gain > noise).sort((p, q) => q.gain - p.gain)) {
    if (kept.length >= params.interactions) break;
    let beaten = false;
    for (let s = 1; s <= NULL_SHUFFLES && !beaten; s++) beaten = gainOf(c.pair[0], c.pair[1], shuffle(s)) >= c.gain;
    if (!beaten) kept.push(c.pair);
  }
  return kept;
}

/** Each row's cell of a pair. */
function cellCodes(a: CoarseAxis, b: CoarseAxis): Uint16Array {
  const out = new Uint16Array(a.codes.length);
  for (let r = 0; r < out.length; r++) out[r] = a.codes[r] * b.size + b.codes[r];
  return out;
}

/** The gain of the best four-leaf tree over a pair's cells (the screened rows' codes), the second feature's codes read in `shuffle`'s order when given. */
function screenGain(
  a: Uint16Array,
  height: number,
  b: Uint16Array,
  width: number,
  shuffle: Int32Array | null,
  g: Float64Array,
  h: Float64Array,
  ordered: [boolean, boolean],
  minLeaf: number,
): number {
  const s = cellSums(height, width);
  for (let i = 0; i < a.length; i++) {
    const k = a[i] * width + b[shuffle ? shuffle[i] : i];
    s.g[k] += g[i];
    s.h[k] += h[i];
    s.c[k]++;
  }
  return crossTreeGain(s, ordered, minLeaf);
}

function gatherCodes(codes: Uint16Array, rows: Int32Array): Uint16Array {
  const out = new Uint16Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = codes[rows[i]];
  return out;
}

/** A random permutation of 0..n−1. */
function shuffledRows(n: number, seed: number): Int32Array {
  const out = Int32Array.from({ length: n }, (_, i) => i);
  const random = mulberry32(seed ^ 0x68e31da4);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The leaf of each row of a feature: its bin (numeric) or its category (categorical), missing last. */
function leafOfRows(bf: BinnedFeature): Uint16Array | Int32Array {
  return bf.categoryOfRow ?? bf.codes;
}

/** Each row's score under the partition's main effects. */
function mainScores(binned: BinnedFeature[], part: PartitionModel): Float64Array {
  const f = new Float64Array(binned[0].codes.length).fill(part.baseValue);
  part.features.forEach((feature, j) => {
    const leaf = leafOfRows(binned[j]);
    const score = feature.leaves.score;
    for (let r = 0; r < f.length; r++) f[r] += score[leaf[r]];
  });
  return f;
}

/** The model with each partition's pair terms: the bags' tables averaged, then purified into the main effects. */
export function assemblePairs(bp: BoostedPlan, pp: PairPlan, model: TransparentModel, results: PairBagResult[]): TransparentModel {
  const partitions = new Map(model.partitions);
  bp.plan.parts.forEach((planned, i) => {
    const p = pp.parts[i];
    if (!p) return;
    const bags = results.filter((_, t) => pp.tasks[t].part === i);
    let part = { ...(partitions.get(planned.key) as PartitionModel) };
    part.features = part.features.map((f) => ({ ...f, leaves: { ...f.leaves, score: f.leaves.score.slice() }, boost: f.boost && { ...f.boost, steps: f.boost.steps.slice() } }));
    const pairs: PairTerm[] = [];
    p.pairs.forEach(([j, k], q) => {
      const [a, b] = [p.axes.get(j) as CoarseAxis, p.axes.get(k) as CoarseAxis];
      const score = new Float64Array(a.size * b.size);
      for (const bag of bags) for (let c = 0; c < score.length; c++) score[c] += bag.tables[q][c] / bags.length;
      const count = new Float64Array(score.length);
      for (const c of p.data.cells[q]) count[c]++;
      const { rows, columns } = purify(score, count, a.size, b.size);
      const n = p.data.y.length;
      const share = bagShare(Math.min(n, PAIR_ROW_LIMIT), n, bp.params[i].validation_size);
      const std = spread(
        bags.map((bag) => {
          const table = bag.tables[q].slice();
          purify(table, count, a.size, b.size);
          return table;
        }),
        share,
      );
      addToFeature(part.features[j], bp.binned[i][j], a, rows);
      addToFeature(part.features[k], bp.binned[i][k], b, columns);
      if (score.some((v) => v !== 0)) pairs.push({ axes: [a.axis, b.axis], score, count, std });
    });
    let baseValue = part.baseValue;
    for (const f of part.features) {
      baseValue += centre(f.leaves.score, f.leaves.count);
      if (f.boost) centre(f.boost.steps, f.leaves.count);
    }
    part = { ...part, baseValue, ...(pairs.length ? { pairs } : {}) };
    partitions.set(planned.key, part);
  });
  return { ...model, partitions };
}

/**
 * Moves a pair table's count-weighted row and column means out (in place) until both are 0, and returns what was
 * moved: the table then holds only what the two features do together, the means go to their main effects. Cells
 * without rows take part in the sums with no weight, so table + row + column values are unchanged in every cell.
 */
export function purify(score: Float64Array, count: Float64Array, height: number, width: number): { rows: Float64Array; columns: Float64Array } {
  const rows = new Float64Array(height);
  const columns = new Float64Array(width);
  let scale = 0;
  for (const v of score) scale = Math.max(scale, Math.abs(v));
  for (let round = 0; round < PURIFY_ROUNDS && scale > 0; round++) {
    const moved = Math.max(moveMeans(score, count, height, width, width, 1, rows), moveMeans(score, count, width, height, 1, width, columns));
    if (moved <= PURIFY_TOLERANCE * scale) break;
  }
  return { rows, columns };
}

/**
 * For each of `lines` lines of the table (cell = line·lineStride + k·cellStride, k < length), subtracts its
 * count-weighted mean from its cells and adds it to `into`; returns the largest mean moved.
 */
function moveMeans(score: Float64Array, count: Float64Array, lines: number, length: number, lineStride: number, cellStride: number, into: Float64Array): number {
  let moved = 0;
  for (let line = 0; line < lines; line++) {
    let w = 0;
    let s = 0;
    for (let k = 0; k < length; k++) {
      const c = line * lineStride + k * cellStride;
      w += count[c];
      s += count[c] * score[c];
    }
    const mean = w > 0 ? s / w : 0;
    for (let k = 0; k < length; k++) score[line * lineStride + k * cellStride] -= mean;
    into[line] += mean;
    moved = Math.max(moved, Math.abs(mean));
  }
  return moved;
}

/** Adds an axis' per-bin values to the leaves of its feature that lie in each bin (steps and scores alike). */
function addToFeature(f: FeatureModel, bf: BinnedFeature, axis: CoarseAxis, values: Float64Array): void {
  const last = f.leaves.score.length - 1;
  for (let l = 0; l <= last; l++) {
    const bin = l === last ? bf.nBins - 1 : bf.categoryBin ? bf.categoryBin[l] : l;
    const v = values[axis.binOf[bin]];
    f.leaves.score[l] += v;
    if (f.boost) f.boost.steps[l] += v;
  }
}
