import { randomUUID } from 'node:crypto';
import type {
  AppliedEdit,
  Dataset,
  DatasetSource,
  EvaluationMetrics,
  RefitDataParsed,
  RefitRequestParsed,
  RefitResult,
  RequestModelType,
  TrainRequestParsed,
  TrainResult,
  VersionSource,
  WireModelType,
} from '../../contract';
import { RefitDataSchema, SplitSchema, TRAIN_SOURCES, algorithmFor, termParameters, trainFitOptions } from '../../contract';
import { DEFAULT_FIT_METHOD, TRAINING_PARAMS, methodOf, paramNames, perFeatureParams, type FitMethod, type SplitSpec } from '../../engine';
import type { ServiceContext, Session } from '../http/context';
import { requireDataset } from '../datasets/register';
import { pushdownFitFor, type PushdownFit, type TestInSource, type TrainProgress } from '../pushdown/train';
import { deserializeModel } from '../training/modelJson';
import { ApiError, invalid, notFound } from '../base/errors';
import type { Queryable } from '../store/sql';
import { findModel, findVersion, insertModel, insertVersion, latestVersion, partitionBaselines, type NewPartition, type VersionRecord } from '../store/models';
import { findPreprocessorVersion } from '../store/preprocessors';
import type { CsvSource, FitOutcome, PartitionOutcome, RefitRows } from '../training/tasks';

const WIRE_TYPE: Record<RequestModelType, WireModelType> = { classifier: 'binary_classification', regressor: 'regression' };
const REQUEST_TYPE: Record<WireModelType, RequestModelType> = {
  binary_classification: 'classifier',
  multiclass_classification: 'classifier',
  regression: 'regressor',
};

/** The CSV a train request names (exactly one of dataset_id, dataset_name, csv_content). */
export async function resolveTrainSource(
  ctx: ServiceContext,
  teamId: string,
  body: Pick<TrainRequestParsed, 'dataset_id' | 'dataset_name' | 'csv_content'>,
): Promise<{ source: CsvSource; datasetId: string | null; datasetSource: DatasetSource | null }> {
  const given = TRAIN_SOURCES.filter((k) => body[k] !== undefined && body[k] !== null);
  if (given.length !== 1) {
    throw invalid(
      given.length ? given.join(', ') : 'dataset_id',
      given.length === 0
        ? 'No training data: give exactly one of dataset_id, dataset_name or csv_content.'
        : `Give exactly one data source, not ${given.join(' and ')}.`,
    );
  }
  if (body.dataset_id) {
    const dataset = await requireDataset(ctx, teamId, body.dataset_id);
    return {
      source: { path: dataset.path, label: `Dataset ${dataset.name} (${dataset.dataset_id})` },
      datasetId: dataset.dataset_id,
      datasetSource: dataset.source ?? null,
    };
  }
  if (body.dataset_name) {
    const found = await ctx.publicDatasets.find(body.dataset_name);
    if (!found) {
      const names = (await ctx.publicDatasets.list()).map((d) => d.name).join(', ');
      throw new ApiError(404, 'NOT_FOUND', `There is no public dataset named ${body.dataset_name}; available: ${names}.`, 'Use a name from GET /v1/datasets/public.', [
        { path: 'dataset_name', message: 'unknown public dataset' },
      ]);
    }
    return { source: { path: found.path, label: `Public dataset ${found.name}` }, datasetId: null, datasetSource: null };
  }
  return { source: { text: body.csv_content as string, label: 'csv_content' }, datasetId: null, datasetSource: null };
}

export async function requireVersion(ctx: ServiceContext, teamId: string, versionId: string): Promise<VersionRecord> {
  const version = await findVersion(ctx.store, teamId, versionId);
  if (!version) throw notFound('Model version', versionId);
  return version;
}

async function fittedPreprocessor(ctx: ServiceContext, teamId: string, preprocessorVersionId: string | null | undefined, field: string) {
  if (!preprocessorVersionId) return null;
  const pre = await findPreprocessorVersion(ctx.store, teamId, preprocessorVersionId);
  if (!pre) throw notFound('Preprocessor version', preprocessorVersionId).withField(field);
  return pre;
}

/** The preprocessor a version applies before predicting: the one it was trained with, else the one linked later. */
export async function versionPreprocessor(ctx: ServiceContext, version: VersionRecord): Promise<unknown> {
  const id = version.trained_preprocessor_version_id ?? version.linked_preprocessor?.version_id ?? null;
  return id ? ((await findPreprocessorVersion(ctx.store, version.team_id, id))?.fitted ?? null) : null;
}

/** The partitions of a fitted model, with fresh ids, as the store writes them. */
function newPartitions(fit: FitOutcome): NewPartition[] {
  return fit.partitions.map((p) => ({
    partition_id: randomUUID(),
    partition: p.key,
    n_train: p.nTrain,
    n_test: p.nTest,
    base_value: p.baseValue,
    evaluation: p.evaluation,
  }));
}

/**
 * A pushdown fit's partitions with what their evaluations were drawn from. The whole-data partition of an
 * unpartitioned model gets the test evaluation and rows of every test row in the source instead of the sample's,
 * but for a regressor's predicted-against-actual points (the first of the sample's), which a warning says; a
 * partitioned model's partitions keep their sample's evaluations, and a warning says so.
 */
function withTestInSource(fit: FitOutcome, partitionOn: string | null, inSource: TestInSource | null): FitOutcome {
  if (!inSource) return fit;
  const warn = (p: PartitionOutcome, warning: string): PartitionOutcome => ({ ...p, evaluation: { ...p.evaluation, warnings: [...p.evaluation.warnings, warning] } });
  if (partitionOn !== null || fit.partitions.length !== 1) {
    const sampled = (p: PartitionOutcome) =>
      `The test metrics and charts of this partition are from a sample of ${p.nTest.toLocaleString('en-US')} test rows read from the source; the model's test metrics cover all ${inSource.nTest.toLocaleString('en-US')} test rows.`;
    return { ...fit, partitions: fit.partitions.map((p) => warn(p, sampled(p))) };
  }
  const [whole] = fit.partitions;
  const test = { ...whole.evaluation.test, ...inSource.evaluation } as EvaluationMetrics;
  const withRows = { ...whole, nTest: inSource.nTest, evaluation: { ...whole.evaluation, test } };
  const scatter = 'residual_bins' in inSource.evaluation
    ? warn(withRows, `The predicted-against-actual points are a sample of the test rows (at most ${whole.nTest.toLocaleString('en-US')}); the metrics and the residual histogram cover all ${inSource.nTest.toLocaleString('en-US')} test rows.`)
    : withRows;
  return { ...fit, partitions: [scatter] };
}

const methodParams = (method: FitMethod) => paramNames((entry) => methodOf(entry) === method);
const XPLAINABLE_PARAMS = methodParams('xplainable');
const BOOSTED_PARAMS = methodParams('boosted');

/**
 * The method a train request fits with: the one it names; else `xplainable` when it gives only that method's
 * parameters (what a client of the reference service means by them), else the default. A parameter of the other
 * method is a 422 naming it, never silently ignored.
 */
export function trainMethod(body: TrainRequestParsed): FitMethod {
  const tree = XPLAINABLE_PARAMS.filter((key) => body[key] !== undefined);
  const boosted = BOOSTED_PARAMS.filter((key) => body[key] !== undefined);
  if (!body.method && tree.length && boosted.length) {
    throw invalid(
      tree[0],
      `${tree[0]} is a parameter of the xplainable method and ${boosted[0]} one of the boosted method; a model is fitted by one method.`,
      'Set "method" and leave out the other method\'s parameters.',
    );
  }
  const method: FitMethod = body.method ?? (tree.length ? 'xplainable' : DEFAULT_FIT_METHOD);
  const misfit = method === 'boosted' ? tree[0] : boosted[0];
  if (misfit) {
    const other = method === 'boosted' ? 'xplainable' : 'boosted';
    throw invalid(misfit, `${misfit} is a parameter of the ${other} method, but this request trains with the ${method} method.`, `Leave ${misfit} out, or set "method": "${other}".`);
  }
  return method;
}

export interface TrainOptions {
  source?: VersionSource;
  signal?: AbortSignal;
  /** Writes the model inside the caller's commit step (jobs), which runs `write` in its transaction; default: write at once. */
  commit?: (write: (tx: Queryable) => Promise<{ model_id: string; version_id: string }>) => Promise<void>;
  /** Parameters searched by autotrain, recorded on the version. */
  extraParameters?: Record<string, unknown>;
  /** A preprocessor fitted by the caller and stored by its commit step (instead of preprocessor_version_id). */
  preprocessor?: { version_id: string; fitted: unknown };
  /** Told the progress of the train (0–100) and its step: the scans of a pushdown fit report the rows read. */
  progress?: TrainProgress;
}

/**
 * The model a train request adds a version to (null for a new model), checked against the request: 404 for an
 * unknown `model_id`, 422 for another target or model type, or a new model without a name.
 */
export async function checkTrainTarget(ctx: ServiceContext, teamId: string, body: TrainRequestParsed): Promise<Awaited<ReturnType<typeof findModel>>> {
  const existing = body.model_id ? await findModel(ctx.store, teamId, body.model_id) : null;
  if (body.model_id && !existing) throw notFound('Model', body.model_id).withField('model_id');
  if (existing) {
    if (existing.target_name !== body.target_column) {
      throw invalid('target_column', `Model ${existing.model_id} predicts ${existing.target_name}, not ${body.target_column}; a new version must keep the target column.`);
    }
    if (REQUEST_TYPE[existing.model_type] !== body.model_type) {
      throw invalid('model_type', `Model ${existing.model_id} is a ${REQUEST_TYPE[existing.model_type]}, not a ${body.model_type}.`);
    }
  } else if (!body.model_name) {
    throw invalid('model_name', 'model_name is required to train a new model.', 'Name the model, or give model_id to add a version.');
  }
  return existing;
}

/** Trains on a worker and stores the model (or a new version of `model_id`) in one transaction. */
export async function trainModel(ctx: ServiceContext, session: Session, body: TrainRequestParsed, options: TrainOptions = {}): Promise<TrainResult> {
  const teamId = session.teamId;
  const existing = await checkTrainTarget(ctx, teamId, body);
  const pushdown = await pushdownFitFor(ctx, teamId, body, options.signal, options.progress);
  try {
    return await fitAndStore(ctx, session, body, options, existing, pushdown);
  } finally {
    await pushdown?.discard();
  }
}

async function fitAndStore(
  ctx: ServiceContext,
  session: Session,
  body: TrainRequestParsed,
  options: TrainOptions,
  existing: Awaited<ReturnType<typeof findModel>>,
  pushdown: PushdownFit | null,
): Promise<TrainResult> {
  const teamId = session.teamId;
  const { source, datasetId, datasetSource } = pushdown
    ? { source: pushdown.train, datasetId: body.dataset_id ?? null, datasetSource: pushdown.datasetSource }
    : await resolveTrainSource(ctx, teamId, body);
  const testDataset = body.test_dataset_id ? await requireDataset(ctx, teamId, body.test_dataset_id, 'test_dataset_id') : null;
  if (testDataset && body.split !== 'random') {
    throw invalid('split', `split ${JSON.stringify(body.split)} cannot be given with test_dataset_id: the test rows are that dataset's.`, 'Leave one of them out.');
  }
  const pre = options.preprocessor ?? (await fittedPreprocessor(ctx, teamId, body.preprocessor_version_id, 'preprocessor_version_id'));
  const partitionOn = body.partition_on ?? null;
  const started = Date.now();
  options.progress?.(pushdown ? 55 : 10, 'fitting the model');
  const fit = await ctx.trainer.train(
    {
      source,
      testSource: pushdown ? pushdown.test : testDataset ? { path: testDataset.path, label: `Test dataset ${testDataset.name} (${testDataset.dataset_id})` } : null,
      fit: trainFitOptions(body, trainMethod(body)),
      testSize: body.test_size,
      preprocessor: pre?.fitted ?? null,
      rareClasses: body.rare_classes,
    },
    options.signal,
  );
  // A pushdown fit's test metrics come from every test row in the source, not from the sample the charts use.
  if (pushdown) options.progress?.(85, 'scoring every test row where it lives');
  const inSource = pushdown ? await pushdown.testMetrics(deserializeModel(fit.modelJson), options.signal) : null;
  const testMetrics = inSource?.metrics ?? fit.testMetrics;
  const execution = pushdown ? 'pushdown' : 'in_memory';
  const wireType: WireModelType = fit.classes ? 'multiclass_classification' : WIRE_TYPE[body.model_type];
  if (existing && existing.model_type !== wireType) {
    const what = (type: WireModelType) => (type === 'multiclass_classification' ? 'multiclass' : 'binary');
    throw invalid(
      'target_column',
      `Model ${existing.model_id} is a ${what(existing.model_type)} classifier, but ${body.target_column} in this data makes a ${what(wireType)} one${fit.classes ? ` (classes: ${fit.classes.join(', ')})` : ''}.`,
      'Train a new model for this data.',
    );
  }
  const modelId = existing?.model_id ?? randomUUID();
  const versionId = randomUUID();
  const parent = existing ? await latestVersion(ctx.store, teamId, existing.model_id) : null;
  const parameters = {
    ...fit.parameters,
    test_size: testDataset ? null : body.test_size,
    ...(testDataset ? {} : splitParameters(body.split, inSource?.nTest ?? fit.nTest, pushdown?.testFrom ?? fit.testFrom)),
    seed: body.seed,
    partition_on: partitionOn,
    drop_columns: body.drop_columns ?? [],
    features: fit.features,
    ...(testDataset ? { test_dataset_id: testDataset.dataset_id } : {}),
    ...(body.rare_classes === 'drop' ? { rare_classes: body.rare_classes, dropped_classes: fit.droppedClasses ?? [] } : {}),
    ...termParameters(body),
    ...options.extraParameters,
  };
  const partitions = newPartitions(withTestInSource(fit, partitionOn, inSource));
  const write = (db: Queryable) =>
    db.transaction(async (tx) => {
      if (!existing) {
        await insertModel(tx, teamId, {
          model_id: modelId,
          name: body.model_name as string,
          description: body.model_description,
          model_type: wireType,
          target_name: body.target_column,
          algorithm: algorithmFor(wireType, partitionOn),
          partition_on: partitionOn,
          created_by: session.identity.username,
        });
      }
      await insertVersion(tx, {
        version_id: versionId,
        model_id: modelId,
        created_by: session.identity.username,
        source: options.source ?? 'train',
        parent_version_id: parent?.version_id ?? null,
        dataset_id: datasetId,
        parameters,
        partition_on: partitionOn,
        trained_preprocessor_version_id: pre?.version_id ?? null,
        test_metrics: testMetrics,
        feature_info: fit.featureInfo,
        model_json: fit.modelJson,
        partitions,
        execution,
        dataset_source: datasetSource,
      });
      return { model_id: modelId, version_id: versionId };
    });
  if (options.commit) await options.commit(write);
  else await write(ctx.store);
  return {
    model_id: modelId,
    version_id: versionId,
    dataset_id: datasetId,
    model_type: wireType,
    target_column: body.target_column,
    ...(fit.classes ? { classes: fit.classes } : {}),
    train_metrics: fit.trainMetrics,
    test_metrics: testMetrics,
    feature_importances: fit.featureImportances,
    n_train: fit.nTrain,
    n_test: inSource?.nTest ?? fit.nTest,
    partitions: partitions.map(({ evaluation: _evaluation, ...p }) => p),
    duration_ms: Date.now() - started,
    baseline: fit.baseline,
    warnings: fit.warnings,
    execution,
    source: datasetSource,
    ...(fit.droppedClasses ? { dropped_classes: fit.droppedClasses } : {}),
  };
}

/** What a version records of its split: the split as asked, its test rows, and a time split's earliest test time. */
function splitParameters(split: SplitSpec, nTest: number, testFrom: number | string | null | undefined): Record<string, unknown> {
  return { split, n_test: nTest, ...(testFrom === null || testFrom === undefined ? {} : { test_from: testFrom }) };
}

/** What a refit or a preview of edits reads, with the dataset it reads it from. */
export interface VersionRows {
  dataset: Dataset & { path: string };
  rows: RefitRows;
  /** Set when the rows are tested on a dataset of their own (the version was trained with one). */
  testDatasetId: string | null;
  /** The version's own rows and split: its baselines hold for a model with its features. */
  sameSplit: boolean;
}

/**
 * The rows a refit or a preview of edits computes metrics on: the dataset given, split as the version was (its seed,
 * and its test_size or test dataset) unless `test_size` is given; the target given must be the version's.
 */
export async function versionRows(ctx: ServiceContext, teamId: string, version: VersionRecord, data: RefitDataParsed): Promise<VersionRows> {
  if (version.target_name !== data.target_column) {
    throw invalid('target_column', `Version ${version.version_id} predicts ${version.target_name}, not ${data.target_column}.`);
  }
  const { test_size: testSize } = data;
  const dataset = await requireDataset(ctx, teamId, data.dataset_id);
  const own = dataset.dataset_id === version.dataset_id;
  const { parameters } = version;
  const testDatasetId = own && testSize === undefined && typeof parameters.test_dataset_id === 'string' ? parameters.test_dataset_id : null;
  const testDataset = testDatasetId ? await requireDataset(ctx, teamId, testDatasetId, 'dataset_id') : null;
  const size = testSize ?? (typeof parameters.test_size === 'number' ? parameters.test_size : TRAINING_PARAMS.test_size.default);
  const pre = version.trained_preprocessor_version_id ? await findPreprocessorVersion(ctx.store, teamId, version.trained_preprocessor_version_id) : null;
  return {
    dataset,
    rows: {
      source: { path: dataset.path, label: `Dataset ${dataset.name} (${dataset.dataset_id})` },
      testSource: testDataset ? { path: testDataset.path, label: `Test dataset ${testDataset.name} (${testDataset.dataset_id})` } : null,
      target: version.target_name,
      testSize: size,
      seed: typeof parameters.seed === 'number' ? parameters.seed : 42,
      split: SplitSchema.catch('random').parse(parameters.split),
      preprocessor: pre?.fitted ?? null,
    },
    testDatasetId,
    sameSplit: own && (testDataset !== null || parameters.test_size === size),
  };
}

/** What a refit with edits may carry besides them: where its metrics come from. */
const EDIT_REFIT_FIELDS = new Set(['edits', ...Object.keys(RefitDataSchema.shape)]);

/** Refits a version with new parameters or hand edits of its steps (no retraining) and stores the result as a new version. */
export async function refitVersion(ctx: ServiceContext, session: Session, versionId: string, body: RefitRequestParsed): Promise<RefitResult> {
  const version = await requireVersion(ctx, session.teamId, versionId);
  const mixed = body.edits && Object.entries(body).find(([key, value]) => value !== undefined && !EDIT_REFIT_FIELDS.has(key))?.[0];
  if (mixed) {
    throw invalid(
      mixed,
      `${mixed} cannot be given with edits: a refit either applies hand edits to the version's steps as they are or changes its parameters.`,
      'Refit the parameters first, then apply the edits to the new version.',
    );
  }
  const read = await versionRows(ctx, session.teamId, version, body);
  const started = Date.now();
  const fit = await ctx.trainer.refit({
    ...read.rows,
    modelJson: version.model_json,
    dropColumns: body.drop_columns ?? [],
    edits: body.edits ?? null,
    features: body.features ?? null,
    params: perFeatureParams(body),
    featureParams: body.feature_params ?? null,
    removeFeatures: body.remove_features ?? [],
    removePairs: body.remove_interactions ?? [],
    parentBaselines: read.sameSplit ? await partitionBaselines(ctx.store, version.version_id) : null,
  });
  const created = new Date().toISOString();
  const edits = (body.edits ?? []).map((edit) => ({ ...edit, applied_at: created, applied_by: session.identity.username }));
  const newVersionId = await storeRefit(ctx, session, version, read, fit, edits, created);
  return {
    model_id: version.model_id,
    version_id: newVersionId,
    parent_version_id: version.version_id,
    train_metrics: fit.trainMetrics,
    test_metrics: fit.testMetrics,
    feature_importances: fit.featureImportances,
    parameters_changed: fit.parametersChanged,
    duration_ms: Date.now() - started,
    baseline: fit.baseline,
    warnings: fit.warnings,
  };
}

async function storeRefit(
  ctx: ServiceContext,
  session: Session,
  parent: VersionRecord,
  read: VersionRows,
  fit: FitOutcome,
  edits: AppliedEdit[],
  created: string,
): Promise<string> {
  const versionId = randomUUID();
  const { test_dataset_id: _testDataset, ...parameters } = parent.parameters;
  await insertVersion(ctx.store, {
    version_id: versionId,
    model_id: parent.model_id,
    created_by: session.identity.username,
    source: 'refit',
    parent_version_id: parent.version_id,
    dataset_id: read.dataset.dataset_id,
    // Edits change steps, not the parameters the version was fitted with.
    parameters: {
      ...parameters,
      ...(edits.length ? {} : fit.parameters),
      test_size: read.testDatasetId ? null : read.rows.testSize,
      ...(read.testDatasetId ? { test_dataset_id: read.testDatasetId } : splitParameters(read.rows.split ?? 'random', fit.nTest, fit.testFrom)),
    },
    partition_on: parent.partition_on,
    trained_preprocessor_version_id: parent.trained_preprocessor_version_id,
    test_metrics: fit.testMetrics,
    feature_info: fit.featureInfo,
    model_json: fit.modelJson,
    partitions: newPartitions(fit),
    execution: 'in_memory',
    dataset_source: read.dataset.source ?? null,
    edits,
    created,
  });
  return versionId;
}

/** Predicts with a version on a stored dataset or inline CSV; the answer is the `Predictions` body as UTF-8 JSON chunks. */
export async function predictWithVersion(
  ctx: ServiceContext,
  teamId: string,
  versionId: string,
  body: { dataset_id?: string; csv_content?: string; explain: boolean; threshold?: number },
  requestWarnings: string[] = [],
): Promise<Uint8Array<ArrayBuffer>[]> {
  const version = await requireVersion(ctx, teamId, versionId);
  if (version.model_type === 'multiclass_classification' && body.threshold !== undefined) {
    throw invalid(
      'threshold',
      `threshold ${body.threshold} applies to binary classifiers only; version ${versionId} is a multiclass classifier, which predicts the most probable class.`,
      'Leave threshold out.',
    );
  }
  const given = (['dataset_id', 'csv_content'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1) {
    throw invalid(given[0] ?? 'dataset_id', given.length ? 'Give exactly one of dataset_id or csv_content, not both.' : 'No data to predict: give dataset_id or csv_content.');
  }
  const dataset = body.dataset_id ? await requireDataset(ctx, teamId, body.dataset_id) : null;
  const source: CsvSource = dataset ? { path: dataset.path, label: `Dataset ${dataset.dataset_id}` } : { text: body.csv_content as string, label: 'csv_content' };
  return ctx.trainer.predict(
    {
      versionId: version.version_id,
      modelJson: version.model_json,
      source,
      preprocessor: await versionPreprocessor(ctx, version),
      threshold: body.threshold,
      explain: body.explain,
      requestWarnings,
    },
    dataset?.rows ?? null,
  );
}

