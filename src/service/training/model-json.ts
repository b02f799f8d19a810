import { fromPayloads, toPayloads, type ModelType, type TransparentModel, type WireModelType } from '../../engine';

/** How a version's fitted model is stored: the wire's partition payloads plus what rebuilding needs. */
interface StoredModel {
  model_type: ModelType | WireModelType;
  target: string;
  partition_on: string | null;
  payloads: unknown[];
}

export function serializeModel(model: TransparentModel): string {
  const stored: StoredModel = { model_type: model.modelType, target: model.target, partition_on: model.partitionOn, payloads: toPayloads(model) };
  return JSON.stringify(stored);
}

export function storedPayloads(modelType: WireModelType, target: string, partitionOn: string | null, payloads: unknown[]): string {
  const stored: StoredModel = { model_type: modelType, target, partition_on: partitionOn, payloads };
  return JSON.stringify(stored);
}

export function deserializeModel(json: string): TransparentModel {
  const stored = JSON.parse(json) as StoredModel;
  return fromPayloads(stored.payloads, stored.model_type, { target: stored.target, partitionOn: stored.partition_on });
}
