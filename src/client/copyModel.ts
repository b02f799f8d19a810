import type {
  Dataset,
  Evaluation,
  FeatureInfo,
  Health,
  ImportedVersion,
  ImportModelRequest,
  ImportVersionRequest,
  ModelInfo,
  ModelPayload,
  ModelVersion,
  PartitionList,
} from '../contract';
import { invalidArgument, XModelsApiError } from './errors';
import type { UploadDatasetParams } from './datasets';
import type { CallOptions, DownloadedBody } from './transport';

/** What a copy reads from the service it copies from (the client's own groups). */
export interface CopySource {
  models: {
    getModel(model_id: string, options?: CallOptions): Promise<ModelInfo>;
    /** The versions with every field the service sent, so that fields a copy cannot carry are reported by name. */
    listVersionsAsSent(model_id: string, options?: CallOptions): Promise<(ModelVersion & Record<string, unknown>)[]>;
    getModelPayload(version_id: string, options?: CallOptions): Promise<ModelPayload>;
    listModelVersionPartitions(version_id: string, options?: CallOptions): Promise<PartitionList>;
    getModelEvaluation(partition_id: string, options?: CallOptions): Promise<Evaluation>;
    getFeatureInfo(version_id: string, options?: CallOptions): Promise<FeatureInfo>;
  };
  datasets: {
    list(options?: CallOptions): Promise<Dataset[]>;
    download(dataset_id: string, options?: CallOptions): Promise<DownloadedBody>;
  };
}

/** What a copy writes to: another service, or another team of the same one (an `XModelsClient`). */
export interface CopyTarget {
  health(options?: CallOptions): Promise<Health>;
  models: {
    getModel(model_id: string, options?: CallOptions): Promise<ModelInfo>;
    listTeamModels(team_id?: string, options?: CallOptions): Promise<ModelInfo[]>;
    listModelVersions(model_id: string, options?: CallOptions): Promise<ModelVersion[]>;
    importModel(params: ImportModelRequest, options?: CallOptions): Promise<ImportedVersion>;
    importVersion(model_id: string, params: ImportVersionRequest, options?: CallOptions): Promise<ImportedVersion>;
  };
  datasets: {
    upload(params: UploadDatasetParams, options?: CallOptions): Promise<Dataset>;
  };
}

export interface CopyModelOptions extends CallOptions {
  /** A model of the target to add the versions to (same target column and type); by default a new model. */
  into?: string;
  /** The new model's name (default: the model's own); one the target team already has is refused. */
  name?: string;
  /** Also copy the uploaded datasets the versions were fitted on, so that their copies can be refitted there. */
  withDatasets?: boolean;
  /** Told before each step: one per dataset copied, then one per version. */
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopyProgress {
  /** 1-based. */
  step: number;
  steps: number;
  message: string;
}

export type CopiedVersion = {
  version_id: string;
  version_number: number;
  /** The version on the target: made by this copy (`copied`), or by an earlier copy into the same model. */
  copy?: { version_id: string; version_number: number };
  status: 'copied' | 'already_copied' | 'skipped' | 'failed' | 'cancelled';
  /** Why it was not copied (every status but `copied`). */
  reason?: string;
  /** What the copy does not carry: fields of the version the target cannot store, the link to a dataset not copied. */
  left_out: string[];
};

export type CopiedDataset = {
  dataset_id: string;
  name: string;
  size_bytes: number;
  status: 'copied' | 'skipped' | 'failed' | 'cancelled';
  copy_id?: string;
  reason?: string;
};

export interface CopyReport {
  source: { model_id: string; model_name: string };
  /** `model_id` is null when no version was copied into a new model (the model is then not created). */
  target: { model_id: string | null; model_name: string; created: boolean };
  /** Oldest first, as they are copied. */
  versions: CopiedVersion[];
  datasets: CopiedDataset[];
  cancelled: boolean;
}

/** The fields of a version a copy carries (or deliberately makes anew there); any other that holds a value is reported. */
const CARRIED_FIELDS = new Set([
  'version_id', 'model_id', 'version_number', 'created', 'created_by', 'source', 'parent_version_id', 'dataset_id', 'parameters',
  'partitions', 'linked_preprocessor', 'trained_preprocessor', 'test_metrics', 'execution', 'dataset_source', 'edits', 'copied_from',
]);

const holdsValue = (value: unknown) =>
  value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && Object.keys(value).length === 0);

/** Fields of the version that hold a value the import does not carry (a newer service's, say). */
export function fieldsLeftOut(version: Record<string, unknown>): string[] {
  return Object.keys(version).filter((key) => !CARRIED_FIELDS.has(key) && holdsValue(version[key]));
}

/** Why a version is not copied by design, or undefined: a preprocessor applied before predicting is not copied. */
export function notCopyable(version: ModelVersion): string | undefined {
  const preprocessor = version.trained_preprocessor ?? version.linked_preprocessor;
  if (!preprocessor) return undefined;
  return `it applies preprocessor ${preprocessor.preprocessor_id} (version ${preprocessor.version_id}) before predicting, and preprocessors are not copied: its copy would predict differently`;
}

/** A dataset a version to copy was fitted on; `reason` says why it cannot be copied when it cannot. */
export interface PlannedDataset {
  dataset_id: string;
  name: string;
  size_bytes: number;
  reason?: string;
}

/** The datasets the copyable versions were fitted on, and why each could not be copied when it cannot. */
async function datasetsToCopy(source: CopySource, versions: ModelVersion[], options?: CallOptions): Promise<PlannedDataset[]> {
  const ids = [...new Set(versions.filter((v) => !notCopyable(v)).flatMap((v) => (v.dataset_id ? [v.dataset_id] : [])))];
  if (ids.length === 0) return [];
  const known = new Map((await source.datasets.list(options)).map((d) => [d.dataset_id, d]));
  return ids.map((id): PlannedDataset => {
    const dataset = known.get(id);
    if (!dataset) return { dataset_id: id, name: id, size_bytes: 0, reason: 'it is no longer on the service copied from' };
    const entry = { dataset_id: id, name: dataset.name, size_bytes: dataset.size_bytes };
    return dataset.source ? { ...entry, reason: `its rows stay in the database of connection ${dataset.source.connection}: register the same table or query there` } : entry;
  });
}

/** What a copy would carry, read before anything is written: the model, its versions oldest first, and their datasets. */
export async function copyPlan(source: CopySource, modelId: string, options?: CallOptions) {
  const model = await source.models.getModel(modelId, options);
  const versions = (await source.models.listVersionsAsSent(modelId, options)).sort((a, b) => a.version_number - b.version_number);
  return { model, versions, datasets: await datasetsToCopy(source, versions, options) };
}

/** The import body of a version: its fitted model, metrics, evaluations and lineage as the source recorded them. */
async function importBody(
  source: CopySource,
  model: ModelInfo,
  version: ModelVersion,
  ids: { parent: string | null; dataset: string | null },
  options: CallOptions,
): Promise<ImportVersionRequest> {
  const { version_id: _id, ...payload } = await source.models.getModelPayload(version.version_id, options);
  const { partitions } = await source.models.listModelVersionPartitions(version.version_id, options);
  const evaluations = await Promise.all(partitions.map((p) => evaluationOf(source, p.partition_id, options)));
  return {
    payload,
    source: version.source,
    parent_version_id: ids.parent,
    dataset_id: ids.dataset,
    parameters: version.parameters,
    test_metrics: version.test_metrics,
    feature_info: (await source.models.getFeatureInfo(version.version_id, options)).features,
    partitions: partitions.map((p, i) => ({ partition: p.partition, n_train: p.n_train, n_test: p.n_test, evaluation: evaluations[i] })),
    execution: version.execution ?? null,
    dataset_source: version.dataset_source ?? null,
    edits: version.edits ?? [],
    copied_from: {
      model_id: model.model_id,
      model_name: model.model_name,
      version_id: version.version_id,
      version_number: version.version_number,
      created: version.created,
      created_by: version.created_by,
    },
  };
}

/** A partition's evaluation without its ids, or null when it has none (an uploaded model's). */
async function evaluationOf(source: CopySource, partitionId: string, options: CallOptions) {
  try {
    const { train, test, baseline, warnings } = await source.models.getModelEvaluation(partitionId, options);
    return { train, test, baseline: baseline ?? null, warnings: warnings ?? [] };
  } catch (error) {
    if (error instanceof XModelsApiError && error.status === 404) return null;
    throw error;
  }
}

/** The target model to copy into, checked against the model copied; or the name of a new one, checked to be free. */
async function targetModel(target: CopyTarget, model: ModelInfo, options: CopyModelOptions): Promise<ModelInfo | { name: string }> {
  const features = new Set((await target.health(options)).features);
  if (!features.has('import_version')) {
    throw invalidArgument('The service copied to cannot store versions fitted elsewhere (it lacks the import_version feature): update it, then copy again.');
  }
  if (options.withDatasets && !features.has('datasets')) throw invalidArgument('The service copied to keeps no datasets: copy without them.', 'withDatasets');
  if (options.into !== undefined) {
    const into = await target.models.getModel(options.into, options);
    if (into.target_name !== model.target_name || into.model_type !== model.model_type) {
      throw invalidArgument(
        `${into.model_name} predicts ${into.target_name} (${into.model_type}) and ${model.model_name} predicts ${model.target_name} (${model.model_type}): a model's versions keep its target and type. Copy it as a new model.`,
        'into',
      );
    }
    return into;
  }
  const name = (options.name ?? model.model_name).trim();
  if (!name) throw invalidArgument('The new model needs a name.', 'name');
  if ((await target.models.listTeamModels(undefined, options)).some((m) => m.model_name === name)) {
    throw invalidArgument(`The team copied to already has a model named ${name}: give another name, or copy into that model.`, 'name');
  }
  return { name };
}

/**
 * Copies a model's versions (oldest first) from `source` to `target`: each version's fitted model, metrics,
 * parameters, evaluations, feature information and lineage, with its parent and (with `withDatasets`) its dataset
 * pointing at their copies. Each version is stored whole, in one request; `signal` stops the copy between versions
 * (and during a dataset's transfer), so the target holds whole versions only, and the report says which. Into an
 * existing model, versions an earlier copy already put there are not copied again.
 */
export async function copyModel(source: CopySource, target: CopyTarget, modelId: string, options: CopyModelOptions = {}): Promise<CopyReport> {
  const plan = await copyPlan(source, modelId, options);
  const { model } = plan;
  const into = await targetModel(target, model, options);
  const existing = 'model_id' in into ? into : null;
  const read = { signal: options.signal };
  const report: CopyReport = {
    source: { model_id: model.model_id, model_name: model.model_name },
    target: { model_id: existing?.model_id ?? null, model_name: 'model_id' in into ? into.model_name : into.name, created: false },
    versions: [],
    datasets: options.withDatasets ? plan.datasets.map((d) => ({ ...d, status: d.reason ? 'skipped' : 'copied' })) : [],
    cancelled: false,
  };
  // Source version id → its copy on the target: made by an earlier copy into the same model, or by this one.
  const copies = new Map<string, { version_id: string; version_number: number }>();
  for (const v of existing ? await target.models.listModelVersions(existing.model_id, read) : []) {
    if (v.copied_from?.model_id === model.model_id) copies.set(v.copied_from.version_id, { version_id: v.version_id, version_number: v.version_number });
  }
  const earlier = new Set(copies.keys());
  const datasetCopies = new Map<string, string>();
  /** Why the copy stopped (a failure other than a version the target refused). */
  let stopped: string | undefined;
  const toCopy = report.datasets.filter((d) => d.status === 'copied');
  const steps = toCopy.length + plan.versions.length;
  let step = 0;

  for (const dataset of toCopy) {
    options.onProgress?.({ step: ++step, steps, message: `dataset ${dataset.name}` });
    if (options.signal?.aborted) {
      Object.assign(dataset, { status: 'cancelled', reason: 'the copy was cancelled before it' });
      continue;
    }
    try {
      const file = await source.datasets.download(dataset.dataset_id, read);
      const uploaded = await target.datasets.upload({ file, name: dataset.name }, read);
      dataset.copy_id = uploaded.dataset_id;
      datasetCopies.set(dataset.dataset_id, uploaded.dataset_id);
    } catch (error) {
      const cancelled = options.signal?.aborted === true;
      Object.assign(dataset, { status: cancelled ? 'cancelled' : 'failed', reason: cancelled ? 'the copy was cancelled during its transfer' : messageOf(error) });
    }
  }

  for (const version of plan.versions) {
    options.onProgress?.({ step: ++step, steps, message: `v${version.version_number} (${version.source})` });
    report.versions.push(await copyVersion(version));
  }
  report.cancelled = options.signal?.aborted === true;
  return report;

  async function copyVersion(version: (typeof plan.versions)[number]): Promise<CopiedVersion> {
    const entry = { version_id: version.version_id, version_number: version.version_number, left_out: [] as string[] };
    const already = copies.get(version.version_id);
    if (already && earlier.has(version.version_id)) return { ...entry, status: 'already_copied', copy: already, reason: `an earlier copy put it in this model as v${already.version_number}` };
    const skipped = notCopyable(version);
    if (skipped) return { ...entry, status: 'skipped', reason: skipped };
    if (stopped) return { ...entry, status: 'failed', reason: `the copy stopped before it: ${stopped}` };
    if (options.signal?.aborted) return { ...entry, status: 'cancelled', reason: 'the copy was cancelled before it' };
    const dataset = version.dataset_id ? (datasetCopies.get(version.dataset_id) ?? null) : null;
    const leftOut = [...fieldsLeftOut(version), ...(version.dataset_id && !dataset ? ['dataset_id (its dataset was not copied)'] : [])];
    try {
      const parent = version.parent_version_id ? (copies.get(version.parent_version_id)?.version_id ?? null) : null;
      const body = await importBody(source, model, version, { parent, dataset }, read);
      // Not cancellable once sent: a version is stored whole or not at all, and the answer says which.
      const stored = report.target.model_id
        ? await target.models.importVersion(report.target.model_id, body)
        : await target.models.importModel({ ...body, model_name: report.target.model_name, model_description: model.model_description });
      if (!report.target.model_id) Object.assign(report.target, { model_id: stored.model_id, created: true });
      const copy = { version_id: stored.version_id, version_number: stored.version_number };
      copies.set(version.version_id, copy);
      return { ...entry, status: 'copied', copy, left_out: leftOut };
    } catch (error) {
      if (options.signal?.aborted) return { ...entry, status: 'cancelled', reason: 'the copy was cancelled while it was read' };
      // A version the target refuses is reported and the others still go; any other failure stops the copy.
      if (!(error instanceof XModelsApiError && error.status === 422)) stopped = messageOf(error);
      return { ...entry, status: 'failed', reason: messageOf(error) };
    }
  }
}

const messageOf = (error: unknown) => (error instanceof XModelsApiError ? error.detail : error instanceof Error ? error.message : String(error));
