import {
  axisSize,
  fromPayloads,
  modelLink,
  multiclassFromPayloads,
  pairName,
  partitionPairs,
  type FitMethod,
  type Label,
  type MulticlassModel,
  type PairAxis,
  type PairTerm,
  type PartitionModel,
  type TransparentModel,
} from '../engine';
import type { ModelPayload } from '../contract/models';

export const DATASET_KEY = '__dataset__';

/** A numeric feature: bin i covers (uppers[i-1], uppers[i]]; a value above every bound, or missing, scores `missing`. */
export interface NumericTable {
  name: string;
  kind: 'numeric';
  uppers: number[];
  scores: number[];
  missing: number;
  /** Each score's standard deviation across the bags, then the missing-value score's (all 0 without bags). */
  stds: number[];
  missingStd: number;
}

/** A categorical feature: one score per training category; a missing or unseen value scores `missing`. */
export interface CategoricalTable {
  name: string;
  kind: 'categorical';
  categories: string[];
  scores: number[];
  missing: number;
  stds: number[];
  missingStd: number;
}

export type FeatureTable = NumericTable | CategoricalTable;

/**
 * One axis of a pair term: a feature's coarse bins, numbered from 0, then its missing-value bin (numbered the count of
 * value bins), which missing values, unseen categories and text that is not a number fall in. A numeric value bin b
 * covers (uppers[b-1], uppers[b]], the last upper being +Infinity; a categorical one is a group of categories.
 */
export type AxisTable = { feature: string; kind: 'numeric'; uppers: number[] } | { feature: string; kind: 'categorical'; groups: string[][] };

/** A pairwise interaction term: a row in bin a of its first axis and bin b of its second contributes cells[a][b]. */
export interface PairTable {
  /** As the service names it: `first × second`. */
  name: string;
  axes: [AxisTable, AxisTable];
  cells: number[][];
  /** Each cell's standard deviation across the bags, laid out as cells (null: none kept). */
  cellsStd: number[][] | null;
}

/**
 * How a score becomes the output: `logistic` (a `boosted` classifier's log-odds), `calibration` (an `xplainable`
 * classifier's map at trunc(score × 100)), `clip01` (an `xplainable` classifier without a map) or `range` (a
 * regressor's prediction clipped to its training range) or `exp` (a log-link regressor: exposure × exp(score)).
 */
export type Link = 'logistic' | 'calibration' | 'clip01' | 'range' | 'exp';

/**
 * One additive scorer: base value + Σ feature contributions + Σ pair contributions, then the link. A multiclass model
 * holds one per class.
 */
export interface Scorer {
  baseValue: number;
  features: FeatureTable[];
  /** Summed after the features, in this order. */
  pairs: PairTable[];
  /** `calibration` link: 101 probabilities, keys 0..100. */
  calibration: number[] | null;
  /** `range` link: the finite bounds only (null where unbounded). */
  range: [number | null, number | null];
}

export interface PartitionTables {
  /** `__dataset__` (the fallback for unseen partition values) or the partition value as text. */
  key: string;
  scorer: Scorer;
}

/** Everything an exported scoring function needs: plain lookup tables, no engine types. */
export interface ScoringTables {
  title: string;
  modelType: 'classifier' | 'regressor';
  method: FitMethod;
  link: Link;
  target: string;
  partitionOn: string | null;
  /** `exp` link: the column of each row's exposure (null: none, every row per unit of exposure). */
  exposure: string | null;
  /** Classifier: [negative, positive] labels. */
  labels: [Label, Label] | null;
  /** Every feature of any partition, in the order the service sums them. */
  features: string[];
  /** The name of every pair term of any partition, `__dataset__`'s first (none: the model has no pair terms). */
  pairs: string[];
  /** `__dataset__` first. */
  partitions: PartitionTables[];
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

function featureTable(f: PartitionModel['features'][number]): FeatureTable {
  const missingLeaf = f.leaves.score.length - 1;
  const scores = Array.from(f.leaves.score.subarray(0, missingLeaf));
  const missing = f.leaves.score[missingLeaf];
  const std = f.leaves.std ?? new Float64Array(missingLeaf + 1);
  const spread = { stds: Array.from(std.subarray(0, missingLeaf)), missingStd: std[missingLeaf] };
  if (f.type === 'numeric') return { name: f.name, kind: 'numeric', uppers: Array.from(f.leaves.upper.subarray(0, missingLeaf)), scores, missing, ...spread };
  const categories = (f.categorical?.categories ?? []).slice(0, missingLeaf);
  return { name: f.name, kind: 'categorical', categories, scores: scores.slice(0, categories.length), missing, ...spread, stds: spread.stds.slice(0, categories.length) };
}

function axisTable(axis: PairAxis): AxisTable {
  if (axis.upper) return { feature: axis.feature, kind: 'numeric', uppers: Array.from(axis.upper) };
  return { feature: axis.feature, kind: 'categorical', groups: (axis.categories ?? []).map((group) => [...group]) };
}

const tableRows = (cells: Float64Array, rows: number, width: number): number[][] =>
  Array.from({ length: rows }, (_, a) => Array.from(cells.subarray(a * width, (a + 1) * width)));

function pairTable(pair: PairTerm): PairTable {
  const [rows, width] = pair.axes.map(axisSize);
  return {
    name: pairName(pair),
    axes: [axisTable(pair.axes[0]), axisTable(pair.axes[1])],
    cells: tableRows(pair.score, rows, width),
    cellsStd: pair.std ? tableRows(pair.std, rows, width) : null,
  };
}

function linkOf(model: TransparentModel): Link {
  if (model.modelType === 'regressor') return modelLink(model) === 'log' ? 'exp' : 'range';
  if (model.method === 'boosted') return 'logistic';
  return [...model.partitions.values()].every((p) => p.calibration) ? 'calibration' : 'clip01';
}

/** The lookup tables of a fitted model, `__dataset__` first, features in the order prediction sums them. */
export function scoringTables(model: TransparentModel, title: string): ScoringTables {
  const link = linkOf(model);
  const dataset = model.partitions.get(DATASET_KEY);
  const ordered = [...(dataset ? [dataset] : []), ...[...model.partitions.values()].filter((p) => p !== dataset)];
  const features = [...new Set(ordered.flatMap((p) => p.features.map((f) => f.name)))];
  const pairs = [...new Set(ordered.flatMap((p) => partitionPairs(p).map(pairName)))];
  return {
    title,
    modelType: model.modelType,
    method: model.method,
    link,
    target: model.target,
    partitionOn: model.partitionOn,
    exposure: model.exposureColumn ?? null,
    labels: model.targetLabels,
    features,
    pairs,
    partitions: ordered.map((p) => ({
      key: p.key,
      scorer: {
        baseValue: p.baseValue,
        features: p.features.map(featureTable),
        pairs: partitionPairs(p).map(pairTable),
        calibration: link === 'calibration' && p.calibration ? Array.from(p.calibration) : null,
        range: [finiteOrNull(p.predictionRange[0]), finiteOrNull(p.predictionRange[1])],
      },
    })),
  };
}

/**
 * A one-vs-rest multiclass model: one binary classifier's tables per class (same partitions). A row's class
 * probabilities are the class tables' probabilities normalised to sum to 1 (uniform when all are 0); the prediction
 * is the most probable class, the first in `classes` order on a tie.
 */
export interface MulticlassScoringTables {
  title: string;
  modelType: 'multiclass';
  method: FitMethod;
  target: string;
  partitionOn: string | null;
  /** The classes as text, in the model's order. */
  classes: string[];
  /** Every feature of any class model, in the order the first sums them. */
  features: string[];
  /** One binary classifier's tables per class, in `classes` order. */
  classTables: ScoringTables[];
}

export type ExportTables = ScoringTables | MulticlassScoringTables;

function multiclassScoringTables(model: MulticlassModel, title: string): MulticlassScoringTables {
  const classTables = model.classModels.map((m) => scoringTables(m, title));
  return {
    title,
    modelType: 'multiclass',
    method: classTables[0].method,
    target: model.target,
    partitionOn: model.partitionOn,
    classes: model.classes,
    features: [...new Set(classTables.flatMap((t) => t.features))],
    classTables,
  };
}

/** The tables of a fitted model, binary, regression or multiclass. */
export function exportTables(model: TransparentModel | MulticlassModel, title: string): ExportTables {
  return model.modelType === 'multiclass' ? multiclassScoringTables(model, title) : scoringTables(model, title);
}

/** The tables of a version's model as the service sends it (`GET …/versions/{id}/payload`). */
export function scoringTablesFromPayload(payload: ModelPayload, title: string): ExportTables {
  const options = { target: payload.target_name, partitionOn: payload.partition_on };
  if (payload.model_type === 'multiclass_classification') return exportTables(multiclassFromPayloads(payload.partitions, options), title);
  return exportTables(fromPayloads(payload.partitions, payload.model_type, options), title);
}
