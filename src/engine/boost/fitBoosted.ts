import type { BoostFeatureParams, BoostParams } from '../params/boosted';
import { fitLinearTerms } from '../linear/linearTerms';
import type { FitPlan } from '../plan/plan';
import { sampleRows } from '../base/prng';
import type { PartitionModel, TransparentModel } from '../model/types';
import { assembleBoostedPartition } from './assemble';
import { binColumn, orderedBins, type BinnedFeature } from './binning';
import { boostBag, type BagResult, type BoostData } from './booster';
import { innerSplitKeys } from './splitKeys';
import { isDefaultObjective, linkOf, objectiveOf } from '../params/objective';

/** One bag of one partition: plain data that can be sent to a worker thread. */
export interface BagTask {
  part: number;
  data: BoostData;
  params: BoostParams;
  seed: number;
  /** The rows this bag boosts on (all of the partition's rows unless the data is large). */
  rows: Int32Array | null;
}

export interface BoostedPlan {
  plan: FitPlan;
  /** Per partition, the parameters resolved for its size. */
  params: BoostParams[];
  featureParams: BoostFeatureParams;
  binned: BinnedFeature[][];
  tasks: BagTask[];
}

/**
 * Above this many rows each bag boosts on its own random subset of this size (the bags together see more). Squared
 * loss boosts on pairwise histograms, whose cost hardly grows with the rows; logistic loss and the other objectives
 * (ObjectiveRows) pass over the rows.
 */
const BAG_ROW_LIMIT = { histograms: 100_000, rows: 30_000 };

/** The most rows a bag of the plan boosts on. */
function bagRowLimit(plan: FitPlan): number {
  return plan.modelType === 'regressor' && !customLoss(plan) ? BAG_ROW_LIMIT.histograms : BAG_ROW_LIMIT.rows;
}

/** The rows a bag of a partition of n rows boosts on: a random subset above `limit`, else all (null). */
function bagRows(n: number, limit: number, seed: number): Int32Array | null {
  return n > limit ? sampleRows(n, limit, seed) : null;
}

/** A plan whose bags boost a new objective or weighted rows (ObjectiveRows) rather than today's two losses. */
export function customLoss(plan: FitPlan): boolean {
  return !isDefaultObjective(plan.objective) || plan.weightColumn !== null;
}

/** Bins every partition's feature columns with that partition's `max_bins`. */
export type Binner = (plan: FitPlan, params: readonly BoostParams[]) => BinnedFeature[][];

export const binParts: Binner = (plan, params) =>
  plan.parts.map(({ frame }, part) => plan.features.map((name) => binColumn(frame.column(name), params[part].max_bins, plan.ordinal.includes(name))));

/**
 * A Binner that bins the first plan it is given and hands the same bins to every later one: for plans of the same
 * rows, partitions, features and row counts (the class models of one multiclass fit), whose bins are the same.
 */
export function binOnce(): Binner {
  let binned: BinnedFeature[][] | null = null;
  return (plan, params) => (binned ??= binParts(plan, params));
}

/**
 * Classifier partitions up to this many training rows start each bag from a logistic regression's terms (see
 * runBag); regressors gained nothing from it on the sample tasks. Measured on the
 * sample tasks: no task below the linear baseline by more than 0.005 AUC or 0.01 R² (a 570-row logistic task was
 * 0.012 AUC below it), the means unchanged; above about 1,000 rows, steps alone do as well.
 */
const LINEAR_START_ROWS = 1_000;

/** A linear model's terms on the partition's rows as steps per bin (each bin: the mean over its rows). */
function linearStart(plan: FitPlan, part: number, binned: BinnedFeature[]): { intercept: number; tables: Float64Array[] } {
  const { frame, y } = plan.parts[part];
  const terms = fitLinearTerms(frame, plan.features, y, plan.modelType);
  const contributions = terms.contributions(frame);
  const tables = binned.map((bf) => {
    const c = contributions.get(bf.name) as Float64Array;
    const sum = new Float64Array(bf.nBins);
    const count = new Float64Array(bf.nBins);
    for (let i = 0; i < c.length; i++) {
      sum[bf.codes[i]] += c[i];
      count[bf.codes[i]]++;
    }
    return sum.map((s, b) => (count[b] > 0 ? s / count[b] : 0));
  });
  return { intercept: terms.intercept, tables };
}

export function planBoosted(plan: FitPlan, bin: Binner = binParts): BoostedPlan {
  const classifier = plan.modelType === 'classifier';
  const params = plan.parts.map((part) => part.boost);
  const binned = bin(plan, params);
  const custom = customLoss(plan);
  const limit = bagRowLimit(plan);
  const tasks = plan.parts.flatMap(({ y, w, offset }, part): BagTask[] => {
    const data: BoostData = {
      classifier,
      y,
      codes: binned[part].map((b) => b.codes),
      nBins: binned[part].map((b) => b.nBins),
      ordered: binned[part].map(orderedBins),
      ...(binned[part].some((b) => b.rare) ? { smoothed: binned[part].map((b) => b.rare === true) } : {}),
      start: classifier && y.length <= LINEAR_START_ROWS ? linearStart(plan, part, binned[part]) : null,
      inner: innerSplitKeys(plan, part),
      ...(custom ? { objective: plan.objective, weights: w ?? null, offset: offset ?? null } : {}),
      adaptivePatience: plan.adaptivePatience,
    };
    return Array.from({ length: params[part].outer_bags }, (_, bag) => ({
      part,
      data,
      params: params[part],
      seed: plan.seed + 7919 * bag + 104729 * part,
      rows: bagRows(y.length, limit, plan.seed + bag),
    }));
  });
  return { plan, params, featureParams: plan.boostFeature, binned, tasks };
}

/**
 * One bag's boosting. With a linear start, the bag is boosted both from it and from nothing, and keeps whichever
 * its validation rows prefer: a linear shape where the effects are nearly linear, steps where they are not.
 */
export function runBag(task: BagTask): BagResult {
  const fromNothing = boostBag({ ...task.data, start: null }, task.params, task.seed, task.rows ?? undefined);
  if (!task.data.start) return fromNothing;
  const fromLinear = boostBag(task.data, task.params, task.seed, task.rows ?? undefined);
  return fromLinear.loss < fromNothing.loss ? fromLinear : fromNothing;
}

/** The model from every bag's result (`results` in task order). */
export function assembleBoosted(bp: BoostedPlan, results: BagResult[]): TransparentModel {
  const { plan } = bp;
  const partitions = new Map<string, PartitionModel>();
  plan.parts.forEach((part, i) => {
    const bags = results.filter((_, t) => bp.tasks[t].part === i);
    partitions.set(
      part.key,
      assembleBoostedPartition({
        key: part.key,
        y: part.y,
        binned: bp.binned[i],
        bags,
        params: bp.params[i],
        featureParams: bp.featureParams,
        classifier: plan.modelType === 'classifier',
        idColumns: plan.idColumns,
        bagRows: Math.min(part.y.length, bagRowLimit(plan)),
        link: linkOf(plan.objective.name),
      }),
    );
  });
  return { modelType: plan.modelType, method: 'boosted', target: plan.target, partitionOn: plan.partitionOn, targetLabels: plan.labels, partitions, ...modelObjective(plan) };
}

/** What a model records of its plan's objective, weights and exposure: nothing for today's defaults. */
function modelObjective(plan: FitPlan): Pick<TransparentModel, 'objective' | 'weightColumn' | 'exposureColumn'> {
  return {
    ...(isDefaultObjective(plan.objective) ? {} : { objective: objectiveOf(plan.objective) }),
    ...(plan.weightColumn === null ? {} : { weightColumn: plan.weightColumn }),
    ...(plan.exposureColumn === null ? {} : { exposureColumn: plan.exposureColumn }),
  };
}
