/** Public data types of the engine. Wire-facing objects use the contract's snake_case names. */
import type { BoostFeatureParams, BoostParams } from '../params/boosted';
import type { ParamGroups } from '../params/groups';
import type { SplitSpec } from '../params/split';
import type { FitMethod } from '../params/table';
import type { FeaturePair, FeatureTypeSpec, InteractionsSpec } from '../params/terms';
import type { ModelParams, ParamName } from '../params/xplainable';
import type { Link, Objective } from '../params/objective';

export type { ModelParams, ParamName };

/** What a model predicts, as the engine and train requests name it. */
export type ModelType = 'classifier' | 'regressor';
/** What a model predicts, as the service answers name it (the contract's WireModelType). */
export type WireModelType = 'binary_classification' | 'multiclass_classification' | 'regression';
export type ColumnType = 'numeric' | 'categorical' | 'boolean' | 'date' | 'id';
export type FeatureType = 'numeric' | 'categorical';
export type Label = string | number;


export interface FitOptions extends Partial<ParamGroups> {
  target: string;
  modelType: ModelType;
  /** Column whose values each get their own model; `__dataset__` (all rows) is always fitted too. */
  partitionOn?: string | null;
  /** Feature columns in order; default: every column except the target, id columns and dropColumns. */
  features?: string[];
  dropColumns?: string[];
  /** Candidate-split density, [0,1); default 0.1. */
  alpha?: number;
  /** Classifier: build the score → probability map on the training rows (default true; `xplainable` only). */
  mapCalibration?: boolean;
  /** How the step functions are fitted (default DEFAULT_FIT_METHOD). */
  method?: FitMethod;
  /** Seed of the `boosted` method's bags and inner splits (default 42). */
  seed?: number;
  /** How the caller split the rows; a time or group split also chooses each bag's early-stopping rows (default random). */
  split?: SplitSpec;
  /** Columns read as another type than the reader inferred (an ordinal feature is binned in its categories' order). */
  featureTypes?: Record<string, FeatureTypeSpec>;
  /** Columns kept as features even when they look like identifiers (which are otherwise left out). */
  keepColumns?: string[];
  /** Pairs never fitted as pair terms. */
  excludeInteractions?: FeaturePair[];
  /** `boosted` only: how many pairs the screen keeps (as boost.interactions), or exactly which pairs are fitted. */
  interactions?: InteractionsSpec;
  /** The loss minimised (default squared error for a regressor, log loss for a classifier); `boosted` only. */
  objective?: Objective;
  /** A numeric column of positive row weights (never a feature). */
  weightColumn?: string | null;
  /** Log-link objectives: a column of positive exposures; log(exposure) is each row's offset (never a feature). */
  exposureColumn?: string | null;
}

/** Refit cache of one feature (§13 step 4): enough to rebuild its leaves without the data. */
export interface NumericStats {
  /** Candidate split values, ascending. */
  splits: Float64Array;
  /** Non-missing rows with x ≤ splits[c], and the sum of their targets. */
  leftCounts: Float64Array;
  leftSums: Float64Array;
  totalCount: number;
  totalSum: number;
}
export interface CategoryStats {
  /** Training categories in code order (ascending mean target, then key). */
  categories: string[];
  counts: Float64Array;
  sums: Float64Array;
}

/** The leaves of one feature; the last entry is always the missing-value bin. */
export interface Leaves {
  /** numeric: interval bounds (lower, upper]; categorical: NaN. The missing bin has NaN bounds. */
  lower: Float64Array;
  upper: Float64Array;
  mean: Float64Array;
  count: Float64Array;
  freq: Float64Array;
  raw: Float64Array;
  /** Normalised contribution (classifier) or raw × Ridge coefficient (regressor). */
  score: Float64Array;
  /** `boosted` only: the standard deviation of each leaf's score across the bags (absent: 0, as for `xplainable`). */
  std?: Float64Array | null;
}

export interface FeatureModel {
  name: string;
  type: FeatureType;
  /** This feature's own parameters (a copy of the model defaults unless refit changed them). */
  params: ModelParams;
  nSamples: number;
  baseValue: number;
  missingCount: number;
  missingSum: number;
  numeric: NumericStats | null;
  categorical: CategoryStats | null;
  leaves: Leaves;
  /** Regressor only: the Ridge coefficient of every leaf (score = raw × coef). */
  coef: Float64Array | null;
  /**
   * `boosted` only: the bag-averaged steps before this feature's smoothing and monotone constraint (one per leaf),
   * so a refit can change those without data. `leaves.score` holds the steps after them, re-centred.
   */
  boost?: { params: BoostFeatureParams; steps: Float64Array } | null;
  /**
   * `xplainable` only: `leaves.score` was set by hand edits, so it no longer follows from `leaves.raw`. A refit keeps
   * it as it is, unless the refit changes this feature's parameters and so rebuilds its leaves.
   */
  edited?: boolean;
  /** Categorical: its categories are in their given order and were binned as ordered values (an ordinal feature). */
  ordinal?: true;
}

/**
 * One axis of a pair term: the feature's values in a few coarse bins, then the missing-value bin (last). Numeric bins
 * are intervals (upper[b−1], upper[b]] whose bounds are bounds of the feature's own leaves; categorical bins are
 * groups of its categories. Unseen categories and an absent column count as missing, as for the feature itself.
 */
export interface PairAxis {
  feature: string;
  type: FeatureType;
  /** Numeric: the value bins' upper bounds, ascending, the last +Infinity. */
  upper: Float64Array | null;
  /** Categorical: each value bin's categories. */
  categories: string[][] | null;
}

/** A pairwise interaction term: one score per cell of its two axes' bins, purified (its row and column means are 0). */
export interface PairTerm {
  axes: [PairAxis, PairAxis];
  /** score[a · n₂ + b] for bin a of the first axis and bin b of the second (each axis' missing bin last). */
  score: Float64Array;
  /** Training rows per cell, laid out as score. */
  count: Float64Array;
  /** The standard deviation of each cell's score across the bags, laid out as score (absent: 0). */
  std?: Float64Array | null;
}

export interface PartitionModel {
  key: string;
  nTrain: number;
  baseValue: number;
  params: ModelParams;
  alpha: number;
  features: FeatureModel[];
  idColumns: string[];
  /** Classifier: calibrated probability for trunc(score × 100), keys 0..100. */
  calibration: Float64Array | null;
  support: Float64Array | null;
  /** Regressor: predictions are clipped to this range. */
  predictionRange: [number, number];
  /** `boosted` only: its training parameters and the rounds each bag ran before early stopping. */
  boost?: { params: BoostParams; rounds: number[] } | null;
  /** Pairwise interaction terms, scored after the features (absent or empty: none). */
  pairs?: PairTerm[];
}

export interface TransparentModel {
  modelType: ModelType;
  /** How the steps were fitted. `boosted` classifiers score in log-odds: probability = 1 / (1 + e^−score). */
  method: FitMethod;
  target: string;
  partitionOn: string | null;
  /** Classifier: the labels for codes 0 and 1 (the second sorted label is the positive class). */
  targetLabels: [Label, Label] | null;
  /** Always holds `__dataset__`; partitioned models add one entry per partition value. */
  partitions: Map<string, PartitionModel>;
  /** The objective when not today's default (squared error, log loss); absent: the default. */
  objective?: Objective;
  /** The column of row weights the model was fitted with; absent: none. */
  weightColumn?: string;
  /** Log link: the column of exposures; a prediction is exposure × exp(score). Absent: none. */
  exposureColumn?: string;
}

export interface PredictOptions {
  threshold?: number;
  explain?: boolean;
}

export interface PredictionResult {
  n: number;
  /** The `__dataset__` model's base value. */
  baseValue: number;
  /** Each row's base value (the base of the partition model that scored it). */
  baseValues: Float64Array;
  /** Classifier: original target labels; regressor: the clipped predicted value. */
  predictions: Label[];
  /** Additive score: base value + sum of contributions. */
  scores: Float64Array;
  /** Classifier only: calibrated probability of the positive label. */
  probabilities: Float64Array | null;
  /** Only with `explain`: per feature (every model feature), one contribution per row. */
  contributions: Record<string, Float64Array> | null;
  /** Only with `explain` and pair terms: per pair (named by pairName), one contribution per row. */
  pairContributions: Record<string, Float64Array> | null;
  warnings: string[];
}

/** A refit's parameters: the `xplainable` method's tree parameters, or a `boosted` model's smoothing and monotone. */
export type RefitParams = Partial<ModelParams> & Partial<Record<keyof BoostFeatureParams, number>>;

export interface RefitOptions {
  /** Features whose parameters change (default all); ignored when featureParams is given. */
  features?: string[];
  params?: RefitParams;
  /** Per-feature parameters; when given, only the features it names change. */
  featureParams?: Record<string, RefitParams>;
  /** `boosted` models: features to take out of the model (their centred contributions simply go, with their pairs). */
  removeFeatures?: string[];
  /** Pair terms to take out of the model, each as its two features in the model's order. */
  removePairs?: [string, string][];
}

export interface ParamChange {
  from: number | boolean;
  to: number | boolean;
}

export interface RefitResult {
  model: TransparentModel;
  /** Parameters that changed, per feature (changes in any partition are merged). */
  parametersChanged: Record<string, Record<string, ParamChange>>;
}

export interface FeatureImportance {
  feature: string;
  importance: number;
}

export interface ProfileNumericBin {
  lower?: number | null;
  upper?: number | null;
  score: number;
  /** The standard deviation of the score across the bags (0 without bags). */
  score_std?: number;
  /** Log link only: exp(score), the factor this bin multiplies the prediction by. */
  factor?: number;
  mean: number;
  freq: number;
  missing?: true;
}
export interface ProfileCategoryBin {
  category: string | null;
  score: number;
  score_std?: number;
  /** Log link only: exp(score), the factor this bin multiplies the prediction by. */
  factor?: number;
  mean: number;
  freq: number;
  missing?: true;
}
/** A bin of a pair term's axis: an interval of a numeric feature, a group of categories, or the missing values. */
export type ProfileAxisBin = { lower: number | null; upper: number | null } | { categories: string[] } | { missing: true };

export interface ProfileInteraction {
  /** The two features, in the model's feature order. */
  features: [string, string];
  /** On the scale of feature_importances (features and pairs together sum to 1). */
  importance: number;
  bins: [ProfileAxisBin[], ProfileAxisBin[]];
  /** scores[a][b]: the contribution of a row in bin a of the first feature and bin b of the second. */
  scores: number[][];
  /** scores_std[a][b]: the standard deviation of that cell's score across the bags (0 without bags). */
  scores_std?: number[][];
  /** The share of training rows in each cell. */
  freq: number[][];
}

export interface ProfilePartition {
  partition: string;
  base_value: number;
  /** Log link only: exp(base_value), the base rate every factor multiplies. */
  base_rate?: number;
  feature_importances: FeatureImportance[];
  numeric: Record<string, ProfileNumericBin[]>;
  categorical: Record<string, ProfileCategoryBin[]>;
  /** Pair terms, most important first; absent when the model has none. */
  interactions?: ProfileInteraction[];
  /** Ordinal features, whose categorical bins are listed in their given order; absent when none. */
  ordinal?: string[];
}
export interface Profile {
  model_type: Exclude<WireModelType, 'multiclass_classification'>;
  /** How the additive score maps to a prediction (absent in profiles of models saved before it was recorded). */
  link?: Link;
  target_name: string;
  partitions: ProfilePartition[];
}

export type ConfusionMatrix = [[number, number], [number, number]];

export interface ClassifierMetrics {
  accuracy: number;
  roc_auc: number | null;
  f1: number;
  precision: number;
  recall: number;
  log_loss: number | null;
  brier: number;
  mcc: number | null;
  confusion_matrix: ConfusionMatrix;
}
export interface ThresholdScore {
  threshold: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number;
  recall: number;
  specificity: number;
  accuracy: number;
  f1: number;
}
export interface ClassifierEvaluation extends ClassifierMetrics {
  scores: ThresholdScore[];
  roc: { fpr: number[]; tpr: number[] };
  precision_recall_curve: { precision: number[]; recall: number[] };
  auc_pr: number | null;
  probability_bins: { class: string; values: number[] }[];
}
export interface RegressorMetrics {
  r2: number | null;
  rmse: number;
  mae: number;
  /** null when any actual value is 0 (undefined there). */
  mape: number | null;
  explained_variance: number | null;
  /** Mean deviance of the objective's family, for models fitted with that objective. */
  poisson_deviance?: number | null;
  gamma_deviance?: number | null;
  tweedie_deviance?: number | null;
  /** Quantile models: the mean pinball loss at their α and the share of rows at or below the prediction. */
  pinball_loss?: number | null;
  coverage?: number | null;
}
export interface RegressorEvaluation extends RegressorMetrics {
  charts: { true: number[]; prediction: number[] };
  /** Histogram of residuals (y − ŷ): `counts[i]` counts values in [edges[i], edges[i+1]), the last bin closed. */
  residual_bins: { edges: number[]; counts: number[] };
}

export interface TrainTestSplit {
  train: Int32Array;
  test: Int32Array;
}
