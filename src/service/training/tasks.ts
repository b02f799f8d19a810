import type { Column } from '../../engine';
import type { MessagePort } from 'node:worker_threads';
import type { Baseline, DroppedClass, EvaluationMetrics, FeatureImportance, FeatureInfoEntry, Metrics, PreprocessorStep, PreviewPart, RareClasses, SplitMetrics, TrainFitOptions } from '../../contract';
import type { ModelType, RefitParams, SplitSpec, StepEdit } from '../../engine';
import type { RowRuleRequest } from '../../autotrain';
import type { IngestOutcome } from '../datasetFiles/frameFile';

export type { IngestOutcome };

/** Where a task reads its CSV: a file the worker reads itself, or text sent with the task. */
export type CsvSource = { path: string; label: string } | { text: string; label: string };

export interface TrainTask {
  kind: 'train';
  source: CsvSource;
  /** A separate test set: the whole source trains and this one tests. */
  testSource: CsvSource | null;
  /** The fit options the contract made of the request (`trainFitOptions`), handed to the engine unchanged. */
  fit: TrainFitOptions;
  testSize: number;
  /** Fitted preprocessor state applied to every frame before training. */
  preprocessor: unknown;
  rareClasses: RareClasses;
  /** The most threads the fit may start: the pool's size, so a fit in one of its workers never starts more. */
  threads: number;
}

/** The rows a refit or a preview of edits computes metrics on. */
export interface RefitRows {
  source: CsvSource;
  /** A separate test set (the version was trained with one): the whole source is the training rows. */
  testSource: CsvSource | null;
  target: string;
  /** Without a testSource: the source is split by testSize and seed. */
  testSize: number;
  seed: number;
  /** The version's split (absent: at random). */
  split?: SplitSpec;
  preprocessor: unknown;
}

export interface RefitTask extends RefitRows {
  kind: 'refit';
  modelJson: string;
  dropColumns: string[];
  /** Hand edits of the steps, applied instead of new parameters. */
  edits: StepEdit[] | null;
  features: string[] | null;
  params: RefitParams;
  featureParams: Record<string, RefitParams> | null;
  removeFeatures: string[];
  removePairs: [string, string][];
  /**
   * The parent version's baselines by partition, when it was trained on the same dataset and split: a refit keeping
   * its features reuses them (they depend on the rows and features only) instead of fitting them again.
   */
  parentBaselines: Record<string, Baseline | null> | null;
}

/** The steps and the metrics of a version before and after hand edits, nothing stored. */
export interface PreviewEditsTask extends RefitRows {
  kind: 'preview-edits';
  modelJson: string;
  edits: StepEdit[];
}

export interface PredictTask {
  kind: 'predict';
  /** The version predicting, named in the answer. */
  versionId: string;
  modelJson: string;
  source: CsvSource;
  preprocessor: unknown;
  threshold: number | undefined;
  explain: boolean;
  /** What the request held that was ignored: the first of the answer's warnings. */
  requestWarnings: string[];
  /** The rows this task predicts: part `index` of `count` consecutive ranges of near-equal size. */
  part: { index: number; count: number };
}

export interface FitPreprocessorTask {
  kind: 'fit-preprocessor';
  source: CsvSource;
  steps: PreprocessorStep[];
}

export interface SearchTask {
  kind: 'search';
  source: CsvSource;
  target: string;
  modelType: ModelType;
  dropColumns: string[];
  preprocessor: unknown;
  seed: number;
  /** The final model's test split (`seed`, `testSize`) is held out of the search, so its metrics stay honest. */
  testSize: number;
  /** The final train's choice, so the search leaves out the same rows. */
  rareClasses: RareClasses;
  /** Receives `{progress: 0..1}` messages while the search runs. */
  port: MessagePort;
}

/** Parses an uploaded CSV once and stores its frame, health scan and summary rules beside it. */
export interface IngestTask {
  kind: 'ingest';
  path: string;
  /** The dataset path whose frame it stores, when not `path` itself (a local file read where it lies). */
  datasetPath?: string;
}

/**
 * Stores a dataset's frame, built from its rows as read from a database (as an upload's frame is built from its CSV),
 * with its health scan and summary rules.
 */
export interface StoreFrameTask {
  kind: 'store-frame';
  path: string;
  rows: number;
  columns: Column[];
}

/** Reads the header and counts the rows of a CSV that is not stored as a dataset (a bundled sample). */
export interface InspectCsvTask {
  kind: 'inspect-csv';
  path: string;
}

/** The rules part of a stored dataset's summary, computed from its rows and cached (for a dataset stored before summaries were). */
export interface SummarizeTask {
  kind: 'summarize';
  path: string;
}

/** The data-health scan of a stored dataset's every column, computed from its frame and cached beside it. */
export interface ScanHealthTask {
  kind: 'scan-health';
  path: string;
}

/** An autotrain rule over a stored dataset's rows (goals, labels, charts, insights), answered from its frame. */
export interface RowRulesTask {
  kind: 'row-rules';
  path: string;
  request: RowRuleRequest;
}

export type TrainingTask =
  | ScanHealthTask
  | TrainTask
  | RefitTask
  | PreviewEditsTask
  | PredictTask
  | FitPreprocessorTask
  | SearchTask
  | IngestTask
  | StoreFrameTask
  | SummarizeTask
  | RowRulesTask
  | InspectCsvTask;

export interface PartitionOutcome {
  key: string;
  nTrain: number;
  nTest: number;
  baseValue: number;
  evaluation: { train: EvaluationMetrics; test: EvaluationMetrics; baseline: Baseline | null; warnings: string[] };
}

/** A fitted model with everything the service stores about it. */
export interface FitOutcome {
  modelJson: string;
  features: string[];
  /** Multiclass: the classes, sorted as text; null for binary and regression models. */
  classes?: string[] | null;
  trainMetrics: Metrics;
  testMetrics: Metrics;
  featureImportances: FeatureImportance[];
  nTrain: number;
  nTest: number;
  partitions: PartitionOutcome[];
  featureInfo: FeatureInfoEntry[];
  /** The method and the parameters the model was fitted with. */
  parameters: Record<string, unknown>;
  /** The whole-data model's test yardsticks and the warnings they raise. */
  baseline: Baseline | null;
  warnings: string[];
  /** Classes whose rows were left out of training and testing (`rare_classes: "drop"`); absent when none. */
  droppedClasses?: DroppedClass[];
  /** A time split: the earliest time of the test rows (see RowsSplit). */
  testFrom?: number | string | null;
}

export interface RefitOutcome extends FitOutcome {
  parametersChanged: Record<string, Record<string, { from: unknown; to: unknown }>>;
}

export interface PreviewEditsOutcome {
  parts: PreviewPart[];
  before: SplitMetrics;
  after: SplitMetrics;
}

/**
 * A part's `Predictions` body as UTF-8 JSON pieces (`jsonPieces`), written on the worker and handed over without a
 * copy: a body of hundreds of thousands of rows is neither cloned nor serialized on the request thread.
 */
export type PredictOutcome = Uint8Array<ArrayBuffer>[];

export interface SearchOutcome {
  /** Boosted-method parameters by their wire names; empty when the defaults won. */
  params: Record<string, number>;
  metric: string;
  /** The chosen parameters' validation score (higher is better). */
  score: number | null;
  improved: boolean;
  trials: number;
}

/** Bad input found in the worker (an unreadable CSV, an unknown column, a one-valued target). */
export interface TaskInputError {
  message: string;
  field: string | null;
}

export type TaskReply<T> = { ok: true; value: T } | { ok: false; error: TaskInputError };
