import * as z from 'zod';
import type { FitOptions } from '../engine/model';
import {
  CLASSIFICATION_OBJECTIVES,
  DEFAULT_FIT_METHOD,
  EngineError,
  FIT_METHODS,
  OBJECTIVE_DEFAULTS,
  OBJECTIVE_PARAMS,
  REGRESSION_OBJECTIVES,
  paramGroups,
  resolveObjective,
  type FitMethod,
  type ObjectiveName,
} from '../engine/params';
import { DatasetSourceSchema } from './datasets';
import {
  IdSchema,
  WireModelTypeSchema,
  NullableNumberSchema,
  RareClassesSchema,
  RequestModelTypeSchema,
  TimestampSchema,
  type WireModelType,
} from './common';
import { AppliedEditSchema, EditSchema } from './edits';
import { boostFeatureFields, boostFields, optionalTestSizeField, seedField, SplitFactsSchema, SplitSchema, testSizeField, treeFields } from './params';
import { ignoredFields } from './requestFields';
import { termFields, termOptions } from './terms';

export const AlgorithmSchema = z.enum(['XClassifier', 'XRegressor', 'PartitionedClassifier', 'PartitionedRegressor']);
export type Algorithm = z.infer<typeof AlgorithmSchema>;

/** The algorithm a model records: a classifier (binary or multiclass) or a regressor, partitioned or not. */
export function algorithmFor(type: WireModelType, partitionOn: string | null): Algorithm {
  if (type !== 'regression') return partitionOn ? 'PartitionedClassifier' : 'XClassifier';
  return partitionOn ? 'PartitionedRegressor' : 'XRegressor';
}

export const VersionSourceSchema = z.enum(['train', 'refit', 'upload', 'autotrain']);
export type VersionSource = z.infer<typeof VersionSourceSchema>;

/** The whole-data partition of every model. */
export const WHOLE_DATASET_PARTITION = '__dataset__';

// ---- metrics ----

export const ClassifierMetricsSchema = z.object({
  accuracy: NullableNumberSchema,
  roc_auc: NullableNumberSchema,
  f1: NullableNumberSchema,
  precision: NullableNumberSchema,
  recall: NullableNumberSchema,
  log_loss: NullableNumberSchema,
  brier: NullableNumberSchema,
  mcc: NullableNumberSchema,
  confusion_matrix: z.array(z.array(z.number())).describe('[[tn, fp], [fn, tp]]'),
});
export type ClassifierMetrics = z.infer<typeof ClassifierMetricsSchema>;

export const RegressorMetricsSchema = z.object({
  r2: NullableNumberSchema,
  rmse: NullableNumberSchema,
  mae: NullableNumberSchema,
  mape: NullableNumberSchema,
  explained_variance: NullableNumberSchema,
  poisson_deviance: NullableNumberSchema.optional().describe('objective "poisson": the mean Poisson deviance'),
  gamma_deviance: NullableNumberSchema.optional().describe('objective "gamma": the mean Gamma deviance'),
  tweedie_deviance: NullableNumberSchema.optional().describe('objective "tweedie": the mean Tweedie deviance at its tweedie_power'),
  pinball_loss: NullableNumberSchema.optional().describe('objective "quantile": the mean pinball loss at its quantile_alpha'),
  coverage: NullableNumberSchema.optional().describe('objective "quantile": the share of rows whose target is at or below the prediction'),
});
export type RegressorMetrics = z.infer<typeof RegressorMetricsSchema>;

export const MulticlassMetricsSchema = z.object({
  accuracy: NullableNumberSchema,
  roc_auc: NullableNumberSchema.describe('macro average of the one-vs-rest AUCs'),
  roc_auc_weighted: NullableNumberSchema.describe('one-vs-rest AUCs weighted by class support'),
  log_loss: NullableNumberSchema,
  f1: NullableNumberSchema.describe('macro'),
  precision: NullableNumberSchema.describe('macro'),
  recall: NullableNumberSchema.describe('macro'),
  mcc: NullableNumberSchema,
  confusion_matrix: z
    .object({ labels: z.array(z.string()), matrix: z.array(z.array(z.number())) })
    .describe('rows = actual class, columns = predicted class, both in `labels` order'),
});
export type MulticlassMetrics = z.infer<typeof MulticlassMetricsSchema>;

export const MetricsSchema = z.union([ClassifierMetricsSchema, MulticlassMetricsSchema, RegressorMetricsSchema]);
export type Metrics = z.infer<typeof MetricsSchema>;

/** The yardsticks of a model's test score, on the same test rows, fitted on the same training rows. */
export const BaselineSchema = z.object({
  constant: MetricsSchema.describe('always predicting the training mean (regressor) or positive rate (classifier)'),
  linear: MetricsSchema.nullable().describe('ridge / L2 logistic regression on standardised numbers and one-hot categories'),
});
export type Baseline = z.infer<typeof BaselineSchema>;

export const FeatureImportanceSchema = z.object({ feature: z.string(), importance: z.number() });
export type FeatureImportance = z.infer<typeof FeatureImportanceSchema>;

// ---- models, versions, partitions ----

export const ModelInfoSchema = z.object({
  model_id: IdSchema,
  model_name: z.string(),
  model_description: z.string(),
  model_type: WireModelTypeSchema,
  target_name: z.string(),
  algorithm: AlgorithmSchema,
  partition_on: z.string().nullable(),
  classes: z.array(z.string()).optional().describe('multiclass: the classes of the latest version, sorted as text'),
  team_id: IdSchema,
  created: TimestampSchema,
  created_by: z.string(),
  number_of_versions: z.number().int().nonnegative(),
  latest_version_id: IdSchema.nullable(),
  archived: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const LinkedPreprocessorSchema = z.object({ preprocessor_id: IdSchema, version_id: IdSchema });
export type LinkedPreprocessor = z.infer<typeof LinkedPreprocessorSchema>;

/** How a train reads its rows: into the service (`in_memory`) or as SQL run by the source database (`pushdown`). */
export const ExecutionSchema = z.enum(['in_memory', 'pushdown']);
export type Execution = z.infer<typeof ExecutionSchema>;
export const ExecutionRequestSchema = z.enum(['auto', ...ExecutionSchema.options]);
export type ExecutionRequest = z.infer<typeof ExecutionRequestSchema>;

/** The version a copied version was made from, as it was on the service it was copied from. */
export const CopiedFromSchema = z.object({
  model_id: IdSchema,
  model_name: z.string(),
  version_id: IdSchema,
  version_number: z.number().int().positive(),
  created: TimestampSchema,
  created_by: z.string(),
});
export type CopiedFrom = z.infer<typeof CopiedFromSchema>;

export const ModelVersionSchema = z.object({
  version_id: IdSchema,
  model_id: IdSchema,
  version_number: z.number().int().positive(),
  created: TimestampSchema,
  created_by: z.string(),
  source: VersionSourceSchema,
  parent_version_id: IdSchema.nullable(),
  dataset_id: IdSchema.nullable(),
  parameters: z.record(z.string(), z.unknown()),
  partitions: z.number().int().nonnegative(),
  linked_preprocessor: LinkedPreprocessorSchema.nullable(),
  test_metrics: MetricsSchema.nullable(),
  execution: ExecutionSchema.nullable().optional().describe('how the fit ran; null for a version uploaded as payloads'),
  dataset_source: DatasetSourceSchema.nullable().optional().describe("the training dataset's source (named so because source is the version's origin)"),
  edits: z.array(AppliedEditSchema).optional().describe('the hand edits this version applied to its parent, in order (empty when it applied none)'),
  trained_preprocessor: LinkedPreprocessorSchema.nullable().optional().describe('the preprocessor version it was trained with, applied before every prediction'),
  copied_from: CopiedFromSchema.nullable().optional().describe('the version this one is a copy of, on the service it was copied from'),
});
export type ModelVersion = z.infer<typeof ModelVersionSchema>;

export const PartitionSchema = z.object({
  partition_id: IdSchema,
  partition: z.string().describe('"__dataset__" for the whole-data model, else the partition value as a string'),
  n_train: z.number().int().nonnegative(),
  n_test: z.number().int().nonnegative(),
  base_value: z.number(),
});
export type Partition = z.infer<typeof PartitionSchema>;

export const PartitionListSchema = z.object({ version_id: IdSchema, partitions: z.array(PartitionSchema) });
export type PartitionList = z.infer<typeof PartitionListSchema>;

/** A JSON object, or (as the hosted service sends it) the same object serialised as a JSON string. */
const JsonObjectOrString = z.union([z.string(), z.record(z.string(), z.unknown())]);

export const PartitionPayloadSchema = z.object({
  partition: z.string().min(1),
  columns: z.array(z.string()),
  id_columns: z.array(z.string()).default([]),
  feature_map: z.record(z.string(), z.unknown()).default({}),
  target_map: z.record(z.string(), z.unknown()).nullable().default(null),
  base_value: z.number(),
  parameters: z.record(z.string(), z.unknown()).default({}),
  profile: JsonObjectOrString,
  feature_importances: z.union([z.record(z.string(), z.number()), z.array(FeatureImportanceSchema)]),
  calibration_map: z.record(z.string(), z.unknown()).nullable().default(null),
  support_map: z.record(z.string(), z.unknown()).nullable().default(null),
  category_meta: z.record(z.string(), z.unknown()).nullable().default(null),
  evaluation: JsonObjectOrString.nullable().default(null),
  training_metadata: JsonObjectOrString.nullable().default(null),
  health_info: JsonObjectOrString.nullable().default(null),
  constructs: z.array(z.unknown()).optional(),
  class: z.string().optional().describe('multiclass: the class this partition\'s one-vs-rest model scores'),
  classes: z.array(z.string()).optional().describe('multiclass: every class of the model'),
});
export type PartitionPayload = z.input<typeof PartitionPayloadSchema>;

/** A version's fitted model as partition payloads (a local-service addition: feature `model_payload`); exports read it. */
export const ModelPayloadSchema = z.object({
  version_id: IdSchema,
  model_type: WireModelTypeSchema,
  target_name: z.string(),
  partition_on: z.string().nullable(),
  partitions: z.array(PartitionPayloadSchema).min(1),
});
export type ModelPayload = z.infer<typeof ModelPayloadSchema>;

export const CreateModelRequestSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  type: WireModelTypeSchema,
  target_name: z.string().min(1),
  algorithm: AlgorithmSchema,
  partition_on: z.string().nullable().optional(),
  ...ignoredFields('team_id', 'run_id', 'versions'),
  partitions: z.array(PartitionPayloadSchema).min(1),
});
export type CreateModelRequest = z.input<typeof CreateModelRequestSchema>;

export const CreateModelResponseSchema = z.object({ model_id: IdSchema, version_id: IdSchema });
export type CreateModelResponse = z.infer<typeof CreateModelResponseSchema>;

export const AddVersionRequestSchema = z.strictObject({
  model_id: IdSchema,
  partition_on: z.string().nullable().optional(),
  ...ignoredFields('team_id', 'versions'),
  partitions: z.array(PartitionPayloadSchema).min(1),
});
export type AddVersionRequest = z.input<typeof AddVersionRequestSchema>;

export const AddVersionResponseSchema = z.object({ version_id: IdSchema });
export type AddVersionResponse = z.infer<typeof AddVersionResponseSchema>;

// ---- training ----

export const DroppedClassSchema = z.object({ class: z.string(), rows: z.number().int().positive().describe('its training and test rows') });
export type DroppedClass = z.infer<typeof DroppedClassSchema>;

export const FitMethodSchema = z.enum(FIT_METHODS).describe(
  'boosted: the per-feature steps fitted jointly (cyclic gradient boosting); xplainable: the reference algorithm',
);

export const FeatureParamsSchema = z.strictObject({ ...boostFeatureFields, ...treeFields });
export type FeatureParams = z.infer<typeof FeatureParamsSchema>;

/** Data sources of which a train request names exactly one. */
export const TRAIN_SOURCES = ['dataset_id', 'dataset_name', 'csv_content'] as const;

export const ObjectiveSchema = z
  .enum([...REGRESSION_OBJECTIVES, ...CLASSIFICATION_OBJECTIVES])
  .describe('the loss fitted (boosted method): regressors squared_error (default), poisson, tweedie, gamma (log link), huber, quantile; classifiers log_loss');

/** A train's objective, its parameter, and the columns that weigh and expose the rows (kept by a refit). */
export const objectiveFields = {
  objective: ObjectiveSchema.optional(),
  tweedie_power: z.number().optional().describe(`objective "tweedie": the variance power, 1 < p < 2 (default ${OBJECTIVE_DEFAULTS.tweediePower})`),
  huber_delta: z.number().optional().describe(`objective "huber": residuals beyond ±huber_delta count linearly (> 0, default ${OBJECTIVE_DEFAULTS.huberDelta})`),
  quantile_alpha: z.number().optional().describe(`objective "quantile": the quantile predicted, 0 < α < 1 (default ${OBJECTIVE_DEFAULTS.quantileAlpha})`),
  weight_column: z.string().min(1).nullable().optional().describe('a numeric column of positive row weights, used in every fit step and every metric; never a feature'),
  exposure_column: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe('log-link objectives: a column of positive exposures; prediction = exposure × exp(base_value + Σ contributions); never a feature'),
};

/** The objective fits the model type and takes only its own parameter, in range (the engine's rule, as a 422 on the field). */
function checkObjective(
  body: { model_type: 'classifier' | 'regressor'; objective?: ObjectiveName; tweedie_power?: number; huber_delta?: number; quantile_alpha?: number },
  ctx: z.RefinementCtx,
): void {
  const given = Object.fromEntries(Object.entries(OBJECTIVE_PARAMS).map(([key, spec]) => [key, body[spec.wire]]));
  const name = body.objective ?? Object.values(OBJECTIVE_PARAMS).find((spec) => body[spec.wire] !== undefined)?.objective;
  try {
    resolveObjective(name ? { name, ...given } : null, body.model_type);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    ctx.addIssue({ code: 'custom', path: [error.field ?? 'objective'], message: error.message });
  }
}

export const TrainRequestSchema = z.strictObject({
  target_column: z.string().min(1),
  model_name: z.string().min(1).optional(),
  model_description: z.string().default(''),
  dataset_id: IdSchema.optional(),
  dataset_name: z.string().min(1).optional(),
  csv_content: z.string().min(1).optional(),
  model_type: RequestModelTypeSchema.default('classifier'),
  partition_on: z.string().min(1).nullable().optional(),
  preprocessor_version_id: IdSchema.nullable().optional(),
  drop_columns: z.array(z.string()).optional(),
  test_size: testSizeField,
  split: SplitSchema.default('random'),
  method: FitMethodSchema.optional().describe(
    `default ${DEFAULT_FIT_METHOD}; xplainable when only xplainable parameters (max_depth … tail_sensitivity) are given`,
  ),
  ...boostFields,
  ...boostFeatureFields,
  ...treeFields,
  ...termFields,
  seed: seedField,
  test_dataset_id: IdSchema.nullable().optional(),
  model_id: IdSchema.nullable().optional(),
  execution: ExecutionRequestSchema.default('auto').describe(
    'in_memory: the rows are read into the service; pushdown: the fit runs as SQL in the source database; auto: pushdown only when a source dataset is over the in-memory budget',
  ),
  rare_classes: RareClassesSchema.default('error'),
  ...objectiveFields,
  ...ignoredFields('team_id'),
}).superRefine(checkObjective);
export type TrainRequest = z.input<typeof TrainRequestSchema>;
export type TrainRequestParsed = z.output<typeof TrainRequestSchema>;

/** The engine's options of a train request: what the service's worker hands the engine unchanged. */
export type TrainFitOptions = FitOptions & Required<Pick<FitOptions, 'dropColumns' | 'method' | 'seed'>> & { partitionOn: string | null };

/**
 * A checked train request's fit options, fitted with `method` (the service infers it from the parameters given): the
 * one place where the wire's names become the engine's. A training parameter of TRAINING_PARAMS needs no line here.
 */
export function trainFitOptions(body: TrainRequestParsed, method: FitMethod): TrainFitOptions {
  return {
    target: body.target_column,
    modelType: body.model_type,
    partitionOn: body.partition_on ?? null,
    dropColumns: body.drop_columns ?? [],
    method,
    ...paramGroups(body),
    seed: body.seed,
    split: body.split,
    ...termOptions(body),
    ...objectiveOptions(body),
  };
}

/** The objective, its parameter and the weight and exposure columns of a train request, as the engine takes them. */
function objectiveOptions(body: TrainRequestParsed): Pick<FitOptions, 'objective' | 'weightColumn' | 'exposureColumn'> {
  const params = { tweediePower: body.tweedie_power, huberDelta: body.huber_delta, quantileAlpha: body.quantile_alpha };
  const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
  const objective = body.objective ?? (Object.keys(given).length ? (body.model_type === 'classifier' ? 'log_loss' : 'squared_error') : undefined);
  return {
    ...(objective ? { objective: { name: objective, ...given } } : {}),
    weightColumn: body.weight_column ?? null,
    exposureColumn: body.exposure_column ?? null,
  };
}

export const TrainResultSchema = z.object({
  model_id: IdSchema,
  version_id: IdSchema,
  dataset_id: IdSchema.nullable(),
  model_type: WireModelTypeSchema,
  target_column: z.string(),
  classes: z.array(z.string()).optional().describe('multiclass: the classes, sorted as text'),
  train_metrics: MetricsSchema,
  test_metrics: MetricsSchema,
  feature_importances: z.array(FeatureImportanceSchema),
  n_train: z.number().int().nonnegative(),
  n_test: z.number().int().nonnegative(),
  partitions: z.array(PartitionSchema),
  duration_ms: z.number().nonnegative(),
  baseline: BaselineSchema.nullable().optional(),
  warnings: z.array(z.string()).optional().describe('plain-word warnings: a test score below a baseline, or overfitting'),
  execution: ExecutionSchema.optional(),
  source: DatasetSourceSchema.nullable().optional().describe("the training dataset's source; null for uploaded or inline data"),
  dropped_classes: z.array(DroppedClassSchema).optional().describe('rare_classes "drop": the classes whose rows were left out; absent when none were'),
});
export type TrainResult = z.infer<typeof TrainResultSchema>;

/** Which rows a refit, or a preview of hand edits, computes its metrics on: the same fields in both requests. */
export const RefitDataSchema = z.strictObject({
  dataset_id: IdSchema.describe('the rows the metrics are computed on: a dataset with the columns the version was trained on'),
  target_column: z.string().min(1).describe("the version's target (a 422 names any other)"),
  test_size: optionalTestSizeField.describe("default the version's own split"),
});
export type RefitData = z.input<typeof RefitDataSchema>;
export type RefitDataParsed = z.output<typeof RefitDataSchema>;

export const RefitRequestSchema = z.strictObject({
  ...RefitDataSchema.shape,
  features: z.array(z.string()).optional(),
  feature_params: z.record(z.string(), FeatureParamsSchema).optional(),
  drop_columns: z.array(z.string()).optional(),
  remove_features: z.array(z.string()).optional().describe('boosted versions: features taken out of the model (with their pair terms)'),
  remove_interactions: z
    .array(z.tuple([z.string(), z.string()]))
    .optional()
    .describe("pair terms taken out of the model, each as its two features in the profile's order"),
  edits: z
    .array(EditSchema)
    .min(1)
    .optional()
    .describe('hand edits of the steps, applied in order; a refit with edits changes no parameter (a 422 names any given)'),
  ...boostFeatureFields,
  ...treeFields,
  ...ignoredFields('team_id'),
});
export type RefitRequest = z.input<typeof RefitRequestSchema>;
export type RefitRequestParsed = z.output<typeof RefitRequestSchema>;

export const ParameterChangeSchema = z.object({ from: z.unknown(), to: z.unknown() });
export type ParameterChange = z.infer<typeof ParameterChangeSchema>;

export const RefitResultSchema = z.object({
  model_id: IdSchema,
  version_id: IdSchema,
  parent_version_id: IdSchema,
  train_metrics: MetricsSchema,
  test_metrics: MetricsSchema,
  feature_importances: z.array(FeatureImportanceSchema),
  parameters_changed: z.record(z.string(), z.record(z.string(), ParameterChangeSchema)),
  duration_ms: z.number().nonnegative(),
  baseline: BaselineSchema.nullable().optional(),
  warnings: z.array(z.string()).optional(),
});
export type RefitResult = z.infer<typeof RefitResultSchema>;

// ---- profile, evaluation, feature info ----

export const NumericBinSchema = z.object({
  lower: z.number().nullable().optional().describe('null for −∞; absent on the missing-value bin'),
  upper: z.number().nullable().optional().describe('null for +∞; absent on the missing-value bin'),
  score: z.number(),
  score_std: z.number().optional().describe("the standard deviation of the bin's score across the bags; 0 for a model fitted without bags"),
  factor: z.number().optional().describe('log link: exp(score), the factor this bin multiplies the prediction by'),
  mean: NullableNumberSchema,
  freq: z.number(),
  missing: z.boolean().optional(),
});
export type NumericBin = z.infer<typeof NumericBinSchema>;

export const CategoricalBinSchema = z.object({
  category: z.string().nullable(),
  score: z.number(),
  score_std: z.number().optional().describe("the standard deviation of the bin's score across the bags; 0 for a model fitted without bags"),
  factor: z.number().optional().describe('log link: exp(score), the factor this bin multiplies the prediction by'),
  mean: NullableNumberSchema,
  freq: z.number(),
  missing: z.boolean().optional(),
});
export type CategoricalBin = z.infer<typeof CategoricalBinSchema>;

export const AxisBinSchema = z.union([
  z.object({ lower: z.number().nullable().describe('null for −∞'), upper: z.number().nullable().describe('null for +∞') }),
  z.object({ categories: z.array(z.string()) }),
  z.object({ missing: z.literal(true) }),
]);
export type AxisBin = z.infer<typeof AxisBinSchema>;

export const InteractionSchema = z.object({
  features: z.tuple([z.string(), z.string()]).describe("the pair's two features, in the model's feature order"),
  importance: z.number().describe('on the scale of feature_importances: the features and the pairs of a profile together sum to 1'),
  bins: z
    .tuple([z.array(AxisBinSchema), z.array(AxisBinSchema)])
    .describe("each feature's coarse bins: intervals (lower, upper] or groups of categories, the missing-value bin last"),
  scores: z.array(z.array(z.number())).describe('scores[a][b]: the contribution of a row in bin a of the first feature and bin b of the second'),
  scores_std: z.array(z.array(z.number())).optional().describe("scores_std[a][b]: the standard deviation of that cell's score across the bags"),
  freq: z.array(z.array(z.number())).describe("the share of training rows in each cell"),
});
export type Interaction = z.infer<typeof InteractionSchema>;

export const PartitionProfileSchema = z.object({
  partition: z.string(),
  base_value: z.number(),
  base_rate: z.number().optional().describe('log link: exp(base_value), the rate every factor multiplies'),
  feature_importances: z.array(FeatureImportanceSchema),
  numeric: z.record(z.string(), z.array(NumericBinSchema)),
  categorical: z.record(z.string(), z.array(CategoricalBinSchema)),
  interactions: z
    .array(InteractionSchema)
    .optional()
    .describe('pair terms, most important first; absent when the model has none. Their row and column means (weighted by freq) are 0'),
  ordinal: z.array(z.string()).optional().describe('ordinal features (feature_types): their categorical bins are listed in the given order; absent when none'),
});
export type PartitionProfile = z.infer<typeof PartitionProfileSchema>;

export const ClassProfileSchema = PartitionProfileSchema.omit({ partition: true }).extend({ class: z.string() });
export type ClassProfile = z.infer<typeof ClassProfileSchema>;

export const MulticlassPartitionProfileSchema = z.object({
  partition: z.string(),
  classes: z.array(z.string()),
  per_class: z.array(ClassProfileSchema).describe("each class's one-vs-rest model"),
  feature_importances: z.array(FeatureImportanceSchema).describe('mean over classes of the per-class importances'),
});
export type MulticlassPartitionProfile = z.infer<typeof MulticlassPartitionProfileSchema>;

export const ProfileSchema = z.object({
  version_id: IdSchema,
  model_type: z.enum(['binary_classification', 'regression']),
  link: z.enum(['identity', 'log', 'logit']).optional().describe('how the additive score maps to the prediction: as it is, exp, or the logistic'),
  target_name: z.string(),
  partitions: z.array(PartitionProfileSchema),
});
export const MulticlassProfileSchema = z.object({
  version_id: IdSchema,
  model_type: z.literal('multiclass_classification'),
  target_name: z.string(),
  classes: z.array(z.string()),
  partitions: z.array(MulticlassPartitionProfileSchema),
});
export type MulticlassProfile = z.infer<typeof MulticlassProfileSchema>;

export type Profile = z.infer<typeof ProfileSchema>;

/** What GET /v1/models/profile answers: a binary or regression profile, or a multiclass one. */
export const ModelProfileSchema = z.discriminatedUnion('model_type', [ProfileSchema, MulticlassProfileSchema]);
export type ModelProfile = z.infer<typeof ModelProfileSchema>;

// ---- hand edits ----

export const PreviewEditsRequestSchema = z.strictObject({
  edits: z.array(EditSchema).describe('applied in order to the version as it is'),
  ...RefitDataSchema.shape,
  ...ignoredFields('team_id'),
});
export type PreviewEditsRequest = z.input<typeof PreviewEditsRequestSchema>;
export type PreviewEditsRequestParsed = z.output<typeof PreviewEditsRequestSchema>;

/** A feature's bins as the profile lists them (none for a removed feature). */
// Categorical first: a categorical bin would also pass as a numeric one, without its category.
export const FeatureBinsSchema = z.union([z.array(CategoricalBinSchema), z.array(NumericBinSchema)]);
export type FeatureBins = z.infer<typeof FeatureBinsSchema>;

export const PreviewPartSchema = z.object({
  partition: z.string(),
  class: z.string().optional().describe('multiclass: the class model'),
  base_value: z.number().describe('after re-centring'),
  features: z.record(z.string(), FeatureBinsSchema).describe('every feature the edits named here'),
});
export type PreviewPart = z.infer<typeof PreviewPartSchema>;

export const SplitMetricsSchema = z.object({ train_metrics: MetricsSchema, test_metrics: MetricsSchema });
export type SplitMetrics = z.infer<typeof SplitMetricsSchema>;

export const PreviewEditsResultSchema = z.object({
  version_id: IdSchema,
  features: z.record(z.string(), FeatureBinsSchema).describe("the edited features' steps in the first of parts: all of them when the edits name one partition and class"),
  parts: z.array(PreviewPartSchema).describe('every partition (and class) the edits changed, in the order of the profile'),
  before: SplitMetricsSchema,
  after: SplitMetricsSchema,
});
export type PreviewEditsResult = z.infer<typeof PreviewEditsResultSchema>;

export const ThresholdScoreSchema = z.object({
  threshold: z.number(),
  tp: z.number(),
  fp: z.number(),
  tn: z.number(),
  fn: z.number(),
  precision: NullableNumberSchema,
  recall: NullableNumberSchema,
  specificity: NullableNumberSchema,
  accuracy: NullableNumberSchema,
  f1: NullableNumberSchema,
});
export type ThresholdScore = z.infer<typeof ThresholdScoreSchema>;

export const ClassifierEvaluationMetricsSchema = ClassifierMetricsSchema.extend({
  scores: z.array(ThresholdScoreSchema),
  roc: z.object({ fpr: z.array(z.number()), tpr: z.array(z.number()) }),
  precision_recall_curve: z.object({ precision: z.array(z.number()), recall: z.array(z.number()) }),
  auc_pr: NullableNumberSchema,
  probability_bins: z.array(z.object({ class: z.string(), values: z.array(z.number()) })),
});
export type ClassifierEvaluationMetrics = z.infer<typeof ClassifierEvaluationMetricsSchema>;

export const RegressorEvaluationMetricsSchema = RegressorMetricsSchema.extend({
  charts: z.object({ true: z.array(z.number()), prediction: z.array(z.number()) }),
  residual_bins: z.object({ edges: z.array(z.number()), counts: z.array(z.number()) }),
});
export type RegressorEvaluationMetrics = z.infer<typeof RegressorEvaluationMetricsSchema>;

export const MulticlassClassMetricsSchema = z.object({
  class: z.string(),
  support: z.number(),
  precision: NullableNumberSchema,
  recall: NullableNumberSchema,
  f1: NullableNumberSchema,
  roc_auc: NullableNumberSchema,
  roc: z.object({ fpr: z.array(z.number()), tpr: z.array(z.number()) }),
});
export type MulticlassClassMetrics = z.infer<typeof MulticlassClassMetricsSchema>;

export const MulticlassEvaluationMetricsSchema = MulticlassMetricsSchema.extend({
  per_class: z.array(MulticlassClassMetricsSchema).describe('one-vs-rest metrics and ROC curve of every class'),
});
export type MulticlassEvaluationMetrics = z.infer<typeof MulticlassEvaluationMetricsSchema>;

export const EvaluationMetricsSchema = z.union([ClassifierEvaluationMetricsSchema, MulticlassEvaluationMetricsSchema, RegressorEvaluationMetricsSchema]);
export type EvaluationMetrics = z.infer<typeof EvaluationMetricsSchema>;

export const EvaluationSchema = z.object({
  partition_id: IdSchema,
  partition: z.string(),
  model_type: WireModelTypeSchema,
  train: EvaluationMetricsSchema,
  test: EvaluationMetricsSchema,
  baseline: BaselineSchema.nullable().optional(),
  warnings: z.array(z.string()).optional(),
  split: SplitFactsSchema.nullable().optional().describe("how the version's test rows were chosen; null when tested on a test dataset"),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;
export { SplitFactsSchema, SplitSchema };
export type SplitRecord = z.infer<typeof SplitFactsSchema>;
/** The sentence a panel or report says of a version's split ("tested on the latest 20% by `date`, from 2024-03-02 …"). */
export { splitSentence } from '../engine/params/split';

export const FeatureKindSchema = z.enum(['numeric', 'categorical', 'date', 'text', 'id', 'empty']);
export type FeatureKind = z.infer<typeof FeatureKindSchema>;

export const HealthInfoSchema = z.looseObject({
  missing_pct: z.number(),
  min: NullableNumberSchema.optional(),
  max: NullableNumberSchema.optional(),
  mean: NullableNumberSchema.optional(),
  median: NullableNumberSchema.optional(),
  std: NullableNumberSchema.optional(),
  skewness: NullableNumberSchema.optional(),
  kurtosis: NullableNumberSchema.optional(),
  nunique: z.number().optional(),
  mode: z.union([z.string(), z.number()]).nullable().optional(),
  cardinality: z.number().optional(),
  mixed_case: z.number().optional(),
  mixed_type: z.number().optional(),
  category_imbalance: NullableNumberSchema.optional(),
});
export type HealthInfo = z.infer<typeof HealthInfoSchema>;

export const DistributionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('histogram'), edges: z.array(z.number()), counts: z.array(z.number()) }),
  z.object({
    kind: z.literal('categories'),
    values: z.array(z.object({ value: z.string(), count: z.number() })),
  }),
]);
export type Distribution = z.infer<typeof DistributionSchema>;

export const FeatureInfoEntrySchema = z.object({
  feature: z.string(),
  type: FeatureKindSchema,
  health_info: HealthInfoSchema,
  distribution: DistributionSchema,
  importance: z.number(),
});
export type FeatureInfoEntry = z.infer<typeof FeatureInfoEntrySchema>;

export const FeatureInfoSchema = z.object({ version_id: IdSchema, features: z.array(FeatureInfoEntrySchema) });
export type FeatureInfo = z.infer<typeof FeatureInfoSchema>;

// ---- prediction ----

export const PredictRequestSchema = z.strictObject({
  dataset_id: IdSchema.optional(),
  csv_content: z.string().min(1).optional(),
  explain: z.boolean().default(false),
  threshold: z.number().min(0).max(1).optional().describe('binary classifiers only (default 0.5); a 422 for a multiclass model'),
  output_table: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/, 'a table name, optionally schema.name, of letters, digits and underscores')
    .optional()
    .describe("a dataset of a connection only: the predictions are written by the source's engine into this new table, not returned"),
  replace: z.boolean().default(false).describe('with output_table: replace the table when it exists (else 409)'),
  ...ignoredFields('team_id'),
});
export type PredictRequest = z.input<typeof PredictRequestSchema>;

/** What a prediction written into a table of the source answers: no rows, the table and its columns. */
export const PredictionsTableSchema = z.object({
  version_id: IdSchema,
  n: z.number().int().nonnegative(),
  output_table: z.string(),
  columns: z.array(z.string()),
});
export type PredictionsTable = z.infer<typeof PredictionsTableSchema>;

export const PredictionsSchema = z.object({
  version_id: IdSchema,
  n: z.number().int().nonnegative(),
  base_value: z.number(),
  base_values: z.array(z.number()).optional(),
  predictions: z.array(z.union([z.string(), z.number(), z.null()])),
  scores: z.array(z.number()).optional(),
  probabilities: z.array(z.number()).optional(),
  contributions: z.record(z.string(), z.array(z.number())).optional(),
  interaction_contributions: z
    .record(z.string(), z.array(z.number()))
    .optional()
    .describe('with explain, a model with pair terms: per pair, named "first × second", each row; base value + contributions + these = score'),
  class_probabilities: z.record(z.string(), z.array(z.number())).optional().describe('multiclass: per class, each row; every row sums to 1'),
  class_contributions: z
    .record(z.string(), z.record(z.string(), z.array(z.number())))
    .optional()
    .describe("multiclass with explain: per class, per feature, each row (the class's one-vs-rest model)"),
  class_interaction_contributions: z
    .record(z.string(), z.record(z.string(), z.array(z.number())))
    .optional()
    .describe('multiclass with explain, class models with pair terms: per class, per pair, each row'),
  warnings: z.array(z.string()),
});
export type Predictions = z.infer<typeof PredictionsSchema>;
