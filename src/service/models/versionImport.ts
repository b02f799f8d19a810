import { randomUUID } from 'node:crypto';
import { algorithmFor, type ImportedVersion, type ImportVersionRequestParsed, type ModelInfo } from '../../contract';
import type { ServiceContext, Session } from '../http/context';
import { invalid, notFound } from '../base/errors';
import { findDataset } from '../store/datasets';
import { findVersion, insertModel, insertVersion, type NewModel, type NewPartition } from '../store/models';
import { storedPayloads } from '../training/modelJson';
import { payloadPartitions, rebuild, type Payload } from './uploads';

/** The model an import adds to: an existing one of the team, or a new one it creates. */
export type ImportTarget = { existing: ModelInfo } | { created: Omit<NewModel, 'model_type' | 'target_name' | 'partition_on' | 'algorithm'> };

const PAYLOAD_FIELD = { list: 'payload.partitions', engine: 'payload.' };

/** An existing model keeps its target and type: a version of another is a 422 naming the payload's field. */
function checkSameModel(model: ModelInfo, body: ImportVersionRequestParsed): void {
  const { payload } = body;
  if (payload.target_name !== model.target_name) {
    throw invalid('payload.target_name', `Model ${model.model_id} predicts ${model.target_name}, not ${payload.target_name}; a version must keep the model's target.`, 'Copy it as a new model.');
  }
  if (payload.model_type !== model.model_type) {
    throw invalid('payload.model_type', `Model ${model.model_id} is a ${model.model_type} model, not ${payload.model_type}.`, 'Copy it as a new model.');
  }
}

/** One imported partition per partition of the payload, in the payload's order, with the payload's base value. */
function importedPartitions(payloads: Payload[], body: ImportVersionRequestParsed): NewPartition[] {
  const keys = payloadPartitions(payloads);
  body.partitions.forEach((given, i) => {
    if (!keys.some((k) => k.key === given.partition)) {
      throw invalid(`partitions.${i}.partition`, `partitions[${i}] is ${given.partition}, a partition the payload does not have (it has ${keys.map((k) => k.key).join(', ')}).`);
    }
    if (body.partitions.findIndex((p) => p.partition === given.partition) !== i) {
      throw invalid(`partitions.${i}.partition`, `partitions[${i}] names ${given.partition} a second time; give each partition once.`);
    }
  });
  return keys.map(({ key, base_value }) => {
    const given = body.partitions.find((p) => p.partition === key);
    if (!given) throw invalid('partitions', `partitions has no entry for the payload's partition ${key}.`, 'Give n_train, n_test and evaluation for every partition of the payload.');
    return { partition_id: randomUUID(), partition: key, n_train: given.n_train, n_test: given.n_test, base_value, evaluation: given.evaluation };
  });
}

/** The parent a copied version names must be a version of the same model of the team. */
async function checkParent(ctx: ServiceContext, teamId: string, modelId: string | null, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  const parent = await findVersion(ctx.store, teamId, parentId);
  if (!parent) throw notFound('Model version', parentId).withField('parent_version_id');
  if (parent.model_id !== modelId) {
    throw invalid('parent_version_id', `Version ${parentId} is a version of model ${parent.model_id}, not of the model this version is stored in.`, 'Name a version of the same model, or null.');
  }
}

/**
 * Stores a version fitted on another service as it was recorded there, with a new model when asked: its payload
 * is read as the engine reads it first (a 422 names the field it cannot read), and the ids it refers to (its
 * parent, its dataset) must be the team's. Everything is written in one transaction.
 */
export async function importVersion(ctx: ServiceContext, session: Session, target: ImportTarget, body: ImportVersionRequestParsed): Promise<ImportedVersion> {
  const { teamId } = session;
  const { payload } = body;
  if ('existing' in target) checkSameModel(target.existing, body);
  const modelId = 'existing' in target ? target.existing.model_id : target.created.model_id;
  const { model: fitted, normalised } = rebuild(payload.partitions as Payload[], payload.model_type, payload.target_name, payload.partition_on, PAYLOAD_FIELD);
  const partitions = importedPartitions(payload.partitions as Payload[], body);
  await checkParent(ctx, teamId, 'existing' in target ? modelId : null, body.parent_version_id);
  if (body.dataset_id !== null && !(await findDataset(ctx.store, teamId, body.dataset_id))) throw notFound('Dataset', body.dataset_id).withField('dataset_id');
  const binary = fitted.modelType === 'multiclass' ? fitted.classModels[0] : fitted;
  const versionId = randomUUID();
  const versionNumber = await ctx.store.transaction(async (tx) => {
    if ('created' in target) {
      await insertModel(tx, teamId, {
        ...target.created,
        model_type: payload.model_type,
        target_name: payload.target_name,
        partition_on: payload.partition_on,
        algorithm: algorithmFor(payload.model_type, payload.partition_on),
      });
    }
    return insertVersion(tx, {
      version_id: versionId,
      model_id: modelId,
      created_by: session.identity.username,
      source: body.source,
      parent_version_id: body.parent_version_id,
      dataset_id: body.dataset_id,
      // The payload is what predicts: its method and classes are the version's, whatever the parameters say.
      parameters: { ...body.parameters, method: binary.method, ...(fitted.modelType === 'multiclass' ? { classes: fitted.classes } : {}) },
      partition_on: payload.partition_on,
      trained_preprocessor_version_id: null,
      test_metrics: body.test_metrics,
      feature_info: body.feature_info,
      model_json: storedPayloads(payload.model_type, payload.target_name, payload.partition_on, normalised),
      partitions,
      execution: body.execution,
      dataset_source: body.dataset_source,
      edits: body.edits,
      copied_from: body.copied_from,
    });
  });
  return { model_id: modelId, version_id: versionId, version_number: versionNumber };
}
