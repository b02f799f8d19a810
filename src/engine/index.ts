/**
 * Transparent-model engine: CSV → typed data frame, additive per-feature models (classifier and regressor,
 * optionally partitioned), prediction with explanations, refit without data, metrics, model JSON,
 * data-health scan and preprocessor steps. Pure computation without file or network I/O; only
 * `fitModelParallel` starts worker threads (the bundled `fit.worker.js`).
 */
export * from './types';
export { EngineError, CsvError } from './errors';
export { mulberry32 } from './prng';
export { DataFrame, binaryLabels, numberColumn, categoryColumn, inferColumn, takeColumn } from './frame';
export type { Column, NumberColumn, CategoryColumn } from './frame';
export { parseCsv, CsvFrameBuilder } from './csv';
export { CSV_DELIMITERS, CSV_EXTENSIONS, CsvTextDecoder, decodeCsvBytes, detectDelimiter, detectEncoding, type CsvDelimiter, type CsvEncoding } from './csvDialect';
export { parseJsonWithNonFinite } from './json';
export { DEFAULT_PARAMS, PARAM_NAMES, PARAM_RANGES, validateParams } from './params';
export * from './boostParams';
export { fitLinearBaseline } from './linearBaseline';
export type { LinearBaseline } from './linearBaseline';
export { evaluateBaselines, fittedSubject, plannedSubject } from './baseline';
export type { BaselineEvaluation, BaselineSubject } from './baseline';
export { fitModel, DATASET_PARTITION } from './fit';
export { fitModelParallel } from './parallel';
export type { ParallelOptions } from './parallel';
export { predict } from './predict';
export { partitionFrames, singlePartitionModel } from './partitions';
export { refit } from './refit';
export { featureImportances, modelProfile } from './profile';
export { evaluateClassifier, evaluateRegressor, evaluateModel } from './metrics';
export type { ClassifierEvaluationOptions } from './metrics';
export { SPLIT_RANGES, trainTestSplit } from './split';
export { toPayloads, fromPayloads } from './payload';
export type { PartitionPayload, ConstructPayload, FromPayloadOptions } from './payload';
export { scanHealth, sortedPresent } from './health';
export { fitPreprocessor, applyPreprocessor, OTHER_CATEGORY } from './preprocess';
export type { PreprocessorStep, FittedPreprocessor, FittedStep, DatePart } from './preprocess';
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
  singlePartitionMulticlass,
  evaluateMulticlassModel,
  evaluateMulticlassBaselines,
} from './multiclass';
export { multiclassToPayloads, multiclassFromPayloads, isMulticlassPayload } from './multiclassPayload';
export type { ClassPartitionPayload } from './multiclassPayload';
export type {
  MulticlassModel,
  MulticlassPrediction,
  MulticlassProfile,
  MulticlassProfilePartition,
  ClassProfile,
  MulticlassMetrics,
  MulticlassEvaluation,
  MulticlassClassMetrics,
  ClassCount,
} from './multiclass';
export { MAX_CLASSES, MIN_CLASS_ROWS } from './limits';
