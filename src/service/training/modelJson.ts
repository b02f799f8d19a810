import {
  fromPayloads,
  multiclassFromPayloads,
  multiclassToPayloads,
  toPayloads,
  type ModelType,
  type MulticlassModel,
  type TransparentModel,
  type WireModelType,
} from '../../engine';

/** A fitted model the service stores: binary or regression, or multiclass (one binary model per class). */
export type StoredFittedModel = TransparentModel | MulticlassModel;

/** How a version's fitted model is stored: the wire's partition payloads plus what rebuilding needs. */
interface StoredModel {
  model_type: ModelType | WireModelType;
  target: string;
  partition_on: string | null;
  payloads: unknown[];
}

export function serializeModel(model: StoredFittedModel): string {
  const stored: StoredModel =
    model.modelType === 'multiclass'
      ? { model_type: 'multiclass_classification', target: model.target, partition_on: model.partitionOn, payloads: multiclassToPayloads(model) }
      : { model_type: model.modelType, target: model.target, partition_on: model.partitionOn, payloads: toPayloads(model) };
  return JSON.stringify(stored);
}

export function storedPayloads(modelType: StoredModel['model_type'], target: string, partitionOn: string | null, payloads: unknown[]): string {
  const stored: StoredModel = { model_type: modelType, target, partition_on: partitionOn, payloads };
  return JSON.stringify(stored);
}

export function deserializeModel(json: string): StoredFittedModel {
  const stored = JSON.parse(json) as StoredModel;
  const options = { target: stored.target, partitionOn: stored.partition_on };
  if (stored.model_type === 'multiclass_classification') return multiclassFromPayloads(stored.payloads, options);
  return fromPayloads(stored.payloads, stored.model_type, options);
}
