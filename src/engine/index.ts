/**
 * Transparent-model engine: CSV → typed data frame, additive per-feature models (classifier and regressor,
 * optionally partitioned), prediction with explanations, refit without data, metrics, model JSON,
 * data-health scan and preprocessor steps. Pure computation without file or network I/O; only
 * `fitModelParallel` starts worker threads (the bundled `fit.worker.js`).
 */
export * from './model/types';
export { EngineError, CsvError } from './base/errors';
export { mulberry32 } from './base/prng';
export { DataFrame, MAX_COLUMN_NAME, MAX_COLUMNS, binaryLabels, numberColumn, categoryColumn, inferColumn, takeColumn } from './data/frame';
export type { Column, NumberColumn, CategoryColumn } from './data/frame';
export { parseCsv, CsvFrameBuilder } from './data/csv';
export { ColumnValuesBuilder, columnFromValues, type CellValue } from './data/values';
export { CSV_DELIMITERS, CSV_EXTENSIONS, CsvTextDecoder, decodeCsvBytes, detectDelimiter, detectEncoding, type CsvDelimiter, type CsvEncoding } from './data/csvDialect';
export { parseJsonWithNonFinite } from './model/json';
export { DEFAULT_PARAMS, PARAM_NAMES, PARAM_RANGES, validateParams } from './params/xplainable';
export { describeRange, rangeProblem, type ParamRange } from './params/range';
export * from './params/boosted';
export { objectiveOf, resolveObjective, OBJECTIVE_PARAMS, type Link, type Objective, type ObjectiveName } from './params/objective';
export { objectiveParameters } from './model/payload';
export * from './params/table';
export { paramGroups, perFeatureParams, type ParamGroups } from './params/groups';
export type { FeaturePair, FeatureTypeSpec, InteractionsSpec } from './params/terms';
export { leftOutColumns, type LeftOutColumn } from './plan/plan';
export { resolveBoostParams, SMALL_DATA_ROWS, LARGE_DATA_ROWS } from './plan/sizeDefaults';
export { fitLinearBaseline } from './evaluate/linearBaseline';
export type { LinearBaseline } from './evaluate/linearBaseline';
export { evaluateBaselines, fittedSubject, plannedSubject } from './evaluate/baseline';
export type { BaselineEvaluation, BaselineSubject } from './evaluate/baseline';
export { fitModel } from './fit/fit';
export { DATASET_PARTITION } from './model/partitions';
export { fitModelParallel } from './fit/parallel';
export type { ParallelOptions } from './fit/parallel';
export { modelLink, predict } from './model/predict';
export { partitionFrames, singlePartitionModel } from './model/partitions';
export { refit } from './fit/refit';
export { applyEdits, editModel, type EditedPart, type EditsResult } from './fit/edits';
export { EDIT_OPS, MISSING_BIN, type EditOp, type StepEdit } from './model/edits';
export { editMulticlass } from './multiclass/edits';
export { axisBins, featureBins, featureImportances, modelProfile } from './model/profile';
export { pairName, partitionPairs } from './model/pairs';
export { axisIndices, axisSize } from './model/lookup';
export { classifierCurves, CURVE_POINTS, evaluateClassifier, evaluateRegressor, evaluateModel, RESIDUAL_BINS } from './evaluate/metrics';
export { histogramBins } from './data/histogram';
export type { ClassifierEvaluationOptions, ClassifierHistograms } from './evaluate/metrics';
export { SPLIT_RANGES, splitRows, trainTestSplit, type RowsSplit } from './evaluate/split';
export { DEFAULT_SPLIT, splitColumn, splitSentence, type SplitFacts, type SplitSpec } from './params/split';
export { toPayloads, fromPayloads } from './model/payload';
export type { PartitionPayload, ConstructPayload, FromPayloadOptions } from './model/payload';
export { scanHealth, sortedPresent } from './data/health';
export type { ColumnHealth, Distribution, HealthInfo, HealthType } from './data/health';
export { fitPreprocessor, applyPreprocessor, OTHER_CATEGORY } from './data/preprocess';
export type { PreprocessorStep, FittedPreprocessor, FittedStep, DatePart } from './data/preprocess';
export {
  targetClassCounts,
  isMulticlassTarget,
  fitMulticlass,
  fitMulticlassParallel,
  predictMulticlass,
  refitMulticlass,
  multiclassProfile,
  multiclassImportances,
  evaluateMulticlass,
  multiclassMetricsOfCounts,
  singlePartitionMulticlass,
  evaluateMulticlassModel,
  evaluateMulticlassBaselines,
  fittedMulticlassSubject,
  plannedMulticlassSubject,
} from './multiclass/multiclass';
export { rareClasses, withoutClasses, type RareClass } from './multiclass/rareClasses';
export { multiclassToPayloads, multiclassFromPayloads, isMulticlassPayload } from './multiclass/payload';
export type { ClassPartitionPayload } from './multiclass/payload';
export type { MulticlassModel } from './multiclass/model';
export type {
  MulticlassPrediction,
  MulticlassProfile,
  MulticlassProfilePartition,
  ClassProfile,
  MulticlassMetrics,
  MulticlassEvaluation,
  MulticlassClassMetrics,
  MulticlassBaselineSubject,
  ClassCount,
} from './multiclass/multiclass';
export { MAX_CLASSES, MIN_CLASS_ROWS } from './model/limits';
