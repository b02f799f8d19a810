import { randomUUID } from 'node:crypto';
import { EvaluationSchema, type FeatureInfoEntry, type WireModelType, type PartitionPayload } from '../../contract';
import { EngineError, featureImportances, fromPayloads, isMulticlassPayload, multiclassFromPayloads, parseJsonWithNonFinite, type TransparentModel } from '../../engine';
import type { ServiceContext, Session } from '../http/context';
import { invalid } from '../base/errors';
import { parseJsonField } from '../http/body';
import { insertModel, insertVersion, latestVersion, type NewModel } from '../store/models';
import { storedPayloads } from '../training/modelJson';

export type Payload = Omit<PartitionPayload, 'partition' | 'base_value'> & { partition: string; base_value: number };

/** A payload field the hosted service sends as JSON text, as its value (non-finite numbers as null). */
function parseMaybeJson(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value ?? null;
  return parseJsonField(value, field, (text) => parseJsonWithNonFinite(text, 'null'));
}

/** Where a request holds its payloads: the list's path, and the prefix of the paths the engine names in it. */
export interface PayloadsField {
  list: string;
  engine: string;
}
const UPLOAD_FIELD: PayloadsField = { list: 'partitions', engine: 'partitions.' };

/** A model JSON's class tags must agree with the model's type; the message names the first payload that disagrees. */
function checkClassTags(payloads: Payload[], type: WireModelType, field: PayloadsField): void {
  const multiclass = type === 'multiclass_classification';
  if (isMulticlassPayload(payloads) === multiclass) return;
  const i = multiclass ? payloads.findIndex((p) => typeof p.class !== 'string') : payloads.findIndex((p) => p.class !== undefined);
  throw invalid(
    `${field.list}.${Math.max(0, i)}.class`,
    multiclass
      ? `${field.list}[${Math.max(0, i)}] has no class: every payload of a multiclass_classification model names the class its model scores (as GET /v1/models/versions/{id}/payload writes them).`
      : `${field.list}[${Math.max(0, i)}].class is only for multiclass_classification models; this model is ${type}.`,
  );
}

/**
 * The fitted model of the payloads as the engine reads them (one binary model per class for multiclass), and the
 * payloads with parsed profiles; a payload the engine cannot read is a 422 naming its field.
 */
export function rebuild(payloads: Payload[], type: WireModelType, target: string, partitionOn: string | null, field = UPLOAD_FIELD) {
  checkClassTags(payloads, type, field);
  const normalised = payloads.map((p, i) => ({ ...p, profile: parseMaybeJson(p.profile, `${field.list}.${i}.profile`) }));
  const options = { target, partitionOn };
  try {
    const model = type === 'multiclass_classification' ? multiclassFromPayloads(normalised, options) : fromPayloads(normalised, type, options);
    return { model, normalised };
  } catch (error) {
    if (error instanceof EngineError) throw invalid(`${field.engine}${error.field ?? ''}`, `The uploaded model cannot be read: ${error.message}.`);
    throw error;
  }
}

/**
 * The partition keys of a payload list, in order, each with its payloads' indexes. A multiclass payload list holds
 * each key once per class; its base value is then the mean of the class models' (as for a trained model).
 */
export function payloadPartitions(payloads: Payload[]): { key: string; indexes: number[]; base_value: number }[] {
  const keys = [...new Set(payloads.map((p) => p.partition))];
  return keys.map((key) => {
    const indexes = payloads.flatMap((p, i) => (p.partition === key ? [i] : []));
    return { key, indexes, base_value: indexes.reduce((s, i) => s + payloads[i].base_value, 0) / indexes.length };
  });
}

/** The version's partitions: one per partition key; a multiclass one carries no evaluation. */
function uploadedPartitions(payloads: Payload[], multiclass: boolean) {
  return payloadPartitions(payloads).map(({ key, indexes, base_value }) => {
    const first = payloads[indexes[0]];
    return {
      partition_id: randomUUID(),
      partition: key,
      n_train: trainingCount(first, 'n_train'),
      n_test: trainingCount(first, 'n_test'),
      base_value,
      evaluation: multiclass ? null : usableEvaluation(parseMaybeJson(first.evaluation, `partitions.${indexes[0]}.evaluation`)),
    };
  });
}

/** Feature information derived from the fitted leaves (an upload carries no data to scan). */
function featureInfoFromModel(model: TransparentModel): FeatureInfoEntry[] {
  const importance = new Map(featureImportances(model).map((f) => [f.feature, f.importance]));
  const whole = [...model.partitions.values()][0];
  return whole.features.map((f) => {
    const total = f.nSamples || 1;
    const counts = Array.from(f.leaves.count).slice(0, -1);
    const distribution =
      f.type === 'numeric'
        ? {
            kind: 'histogram' as const,
            edges: [...Array.from(f.leaves.lower).slice(0, -1), f.leaves.upper[f.leaves.upper.length - 2]].map((v) => (Number.isFinite(v) ? v : 0)),
            counts,
          }
        : { kind: 'categories' as const, values: (f.categorical?.categories ?? []).map((value, i) => ({ value, count: counts[i] ?? 0 })) };
    return {
      feature: f.name,
      type: f.type,
      health_info: { missing_pct: f.missingCount / total },
      distribution,
      importance: importance.get(f.name) ?? 0,
    };
  });
}

/** Keeps an uploaded evaluation only when it has the contract's {train, test} shape. */
function usableEvaluation(value: unknown): unknown {
  return EvaluationSchema.pick({ train: true, test: true }).safeParse(value).success ? value : null;
}

function trainingCount(payload: Payload, key: 'n_train' | 'n_test'): number {
  const meta = parseMaybeJson(payload.training_metadata, 'training_metadata');
  const value = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/** Stores an uploaded fitted model as a version (of a new model when `model` is given). */
export async function storeUploadedVersion(
  ctx: ServiceContext,
  session: Session,
  target: { model?: NewModel; modelId: string; type: WireModelType; targetName: string; partitionOn: string | null },
  payloads: Payload[],
): Promise<string> {
  const type = target.type;
  const { model: fitted, normalised } = rebuild(payloads, type, target.targetName, target.partitionOn);
  const binary = fitted.modelType === 'multiclass' ? fitted.classModels[0] : fitted;
  const classes = fitted.modelType === 'multiclass' ? { classes: fitted.classes } : {};
  const versionId = randomUUID();
  await ctx.store.transaction(async (tx) => {
    if (target.model) await insertModel(tx, session.teamId, target.model);
    const parent = target.model ? null : await latestVersion(tx, session.teamId, target.modelId);
    await insertVersion(tx, {
      version_id: versionId,
      model_id: target.modelId,
      created_by: session.identity.username,
      source: 'upload',
      parent_version_id: parent?.version_id ?? null,
      dataset_id: null,
      // Payloads of the hosted service carry no method: their models are fitted by the reference (xplainable) one.
      parameters: { ...(payloads[0].parameters as Record<string, unknown> | undefined), method: binary.method, ...classes },
      partition_on: target.partitionOn,
      trained_preprocessor_version_id: null,
      test_metrics: null,
      feature_info: featureInfoFromModel(binary),
      model_json: storedPayloads(type, target.targetName, target.partitionOn, normalised),
      partitions: uploadedPartitions(payloads, fitted.modelType === 'multiclass'),
      execution: null,
      dataset_source: null,
    });
  });
  return versionId;
}

