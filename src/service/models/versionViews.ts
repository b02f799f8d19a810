import {
  EvaluationSchema,
  FeatureInfoSchema,
  ModelInfoSchema,
  ModelPayloadSchema,
  ModelProfileSchema,
  ModelVersionSchema,
  SplitSchema,
  type Evaluation,
  type FeatureInfo,
  type ModelPayload,
  type ModelProfile,
  type SplitRecord,
} from '../../contract';
import { modelProfile, multiclassProfile, multiclassToPayloads, toPayloads } from '../../engine';
import type { ModelReportInput } from '../../report';
import type { ServiceContext } from '../http/context';
import { notFound } from '../base/errors';
import { finiteJson } from '../base/json';
import { requireVersion } from './modeling';
import { findDataset } from '../store/datasets';
import { findModel, findPartition, listPartitions, publicVersion, type PartitionRecord, type VersionRecord } from '../store/models';
import { deserializeModel } from '../training/modelJson';

/**
 * What the version routes answer, computed in one place: the routes send these, and a version's report shows them,
 * so its numbers are the routes'.
 */

/** Versions never change once written, so their profiles can be kept. */
const profileCache = new Map<string, ModelProfile>();
const PROFILE_CACHE_SIZE = 64;

/** GET /v1/models/profile/{version_id}. */
export function versionProfile(version: VersionRecord): ModelProfile {
  let profile = profileCache.get(version.version_id);
  if (!profile) {
    const fitted = deserializeModel(version.model_json);
    const body = fitted.modelType === 'multiclass' ? multiclassProfile(fitted) : modelProfile(fitted);
    profile = finiteJson({ version_id: version.version_id, ...body }) as ModelProfile;
    if (profileCache.size >= PROFILE_CACHE_SIZE) profileCache.delete(profileCache.keys().next().value as string);
    profileCache.set(version.version_id, profile);
  }
  return profile;
}

/** GET /v1/models/versions/{version_id}/payload. */
export function versionPayload(version: VersionRecord): ModelPayload {
  const model = deserializeModel(version.model_json);
  const multiclass = model.modelType === 'multiclass';
  return {
    version_id: version.version_id,
    model_type: multiclass ? 'multiclass_classification' : model.modelType === 'regressor' ? 'regression' : 'binary_classification',
    target_name: model.target,
    partition_on: model.partitionOn,
    partitions: (multiclass ? multiclassToPayloads(model) : toPayloads(model)) as ModelPayload['partitions'],
  };
}

/**
 * How a version's test rows were chosen, with the partition's own test rows: null when they are a test dataset's (or
 * the version was uploaded as fitted). A version trained before splits were recorded was split at random.
 */
function versionSplit(parameters: Record<string, unknown>, nTest: number): SplitRecord | null {
  if (typeof parameters.test_size !== 'number') return null;
  const split = SplitSchema.safeParse(parameters.split);
  const from = parameters.test_from;
  return {
    split: split.success ? split.data : 'random',
    test_size: parameters.test_size,
    n_test: nTest,
    ...(typeof from === 'number' || typeof from === 'string' ? { test_from: from } : {}),
  };
}

/** GET /v1/models/evaluation/{partition_id}; null when the partition has none (a model uploaded as fitted). */
export function partitionEvaluation(partition: PartitionRecord, parameters: Record<string, unknown>): Evaluation | null {
  if (!partition.evaluation) return null;
  // Evaluations stored before baselines existed (or uploaded with a model) have none.
  const evaluation = partition.evaluation as { train: unknown; test: unknown; baseline?: unknown; warnings?: unknown };
  return {
    partition_id: partition.partition_id,
    partition: partition.partition,
    model_type: partition.model_type,
    train: evaluation.train as never,
    test: evaluation.test as never,
    baseline: (evaluation.baseline ?? null) as never,
    warnings: (evaluation.warnings ?? []) as never,
    split: versionSplit(parameters, partition.n_test),
  };
}

/** GET /v1/models/feature-info/{version_id}. */
export function versionFeatureInfo(version: VersionRecord): FeatureInfo {
  return { version_id: version.version_id, features: (version.feature_info ?? []) as FeatureInfo['features'] };
}

/** Everything a version's report shows, each part as its route sends it (checked by the same schemas). */
export async function reportInput(ctx: ServiceContext, teamId: string, versionId: string): Promise<ModelReportInput> {
  const version = await requireVersion(ctx, teamId, versionId);
  const model = await findModel(ctx.store, teamId, version.model_id);
  if (!model) throw notFound('Model', version.model_id);
  const partitions = await Promise.all(
    (await listPartitions(ctx.store, version.version_id)).map(async (partition) => {
      const record = await findPartition(ctx.store, teamId, partition.partition_id);
      const evaluation = record && partitionEvaluation(record, version.parameters);
      return { partition, evaluation: evaluation && EvaluationSchema.parse(evaluation) };
    }),
  );
  return {
    model: ModelInfoSchema.parse(model),
    version: ModelVersionSchema.parse(publicVersion(version)),
    dataset: version.dataset_id ? await findDataset(ctx.store, teamId, version.dataset_id) : null,
    profile: ModelProfileSchema.parse(versionProfile(version)),
    partitions,
    featureInfo: FeatureInfoSchema.parse(versionFeatureInfo(version)).features,
    payload: ModelPayloadSchema.parse(versionPayload(version)),
    generatedAt: new Date().toISOString(),
    generator: `XModels ${ctx.version}`,
  };
}
