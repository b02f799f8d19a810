import { algorithmFor, type AddVersionRequest, type CreateModelRequest, type PartitionPayload } from '../contract';
import {
  evaluateModel,
  inferColumn,
  partitionFrames,
  scanHealth,
  singlePartitionModel,
  toPayloads,
  type Column,
  type DataFrame,
  type Label,
  type TransparentModel,
} from '../engine';
import { invalidArgument } from './errors';

/** A fitted engine model with the data it was trained on, and optionally a held-out test set. */
export interface FittedModelData {
  model: TransparentModel;
  /** Training rows: the feature columns (and the partition column of a partitioned model). */
  x: DataFrame;
  /** Target of every row of `x`: a column, or the values (null = missing). */
  y: Column | ArrayLike<Label | null>;
  /** Test rows; without them the model is evaluated on `x`/`y` for both train and test. */
  x_test?: DataFrame;
  y_test?: Column | ArrayLike<Label | null>;
}

export type CreateModelFromFitted = FittedModelData & {
  model_name: string;
  model_description?: string;
  run_id?: string | null;
};

export type AddVersionFromFitted = FittedModelData & { model_id: string };

/** Ready PartitionPayloads (the wire request), or a fitted engine model that the client turns into them. */
export type CreateModelParams = CreateModelRequest | CreateModelFromFitted;
export type AddVersionParams = AddVersionRequest | AddVersionFromFitted;

export function createModelRequest(params: CreateModelParams): CreateModelRequest {
  if (!('model' in params)) return params;
  const { model } = params;
  const type = model.modelType === 'classifier' ? 'binary_classification' : 'regression';
  return {
    name: params.model_name,
    description: params.model_description ?? '',
    type,
    target_name: model.target,
    algorithm: algorithmFor(type, model.partitionOn),
    partition_on: model.partitionOn,
    run_id: params.run_id ?? null,
    partitions: fittedPayloads(params),
  };
}

export function addVersionRequest(params: AddVersionParams): AddVersionRequest {
  if (!('model' in params)) return params;
  return { model_id: params.model_id, partition_on: params.model.partitionOn, partitions: fittedPayloads(params) };
}

/**
 * The model's PartitionPayloads, each with its evaluation on the rows of its partition (`{train, test}` metrics),
 * row counts in `training_metadata`, and the data-health scan of the training features in `health_info`.
 */
function fittedPayloads({ model, x, y, x_test, y_test }: FittedModelData): PartitionPayload[] {
  if ((x_test === undefined) !== (y_test === undefined)) {
    throw invalidArgument('x_test and y_test go together: give both or neither.', x_test === undefined ? 'x_test' : 'y_test');
  }
  const train = withTarget(model, x, y, 'y');
  const test = x_test && y_test ? withTarget(model, x_test, y_test, 'y_test') : train;
  const healthInfo = Object.fromEntries(scanHealth(x).map((h) => [h.feature, { type: h.type, ...h.health_info }]));
  const trainFrames = partitionFrames(model, train);
  const testFrames = partitionFrames(model, test);
  return toPayloads(model).map((payload) => {
    const alone = singlePartitionModel(model, payload.partition);
    const trainRows = trainFrames.get(payload.partition) as DataFrame;
    const testRows = testFrames.get(payload.partition) as DataFrame;
    return {
      ...payload,
      evaluation: { train: evaluateModel(alone, trainRows), test: evaluateModel(alone, testRows) } as unknown as Record<string, unknown>,
      training_metadata: { ...asObject(payload.training_metadata), n_train: trainRows.nRows, n_test: test === train ? 0 : testRows.nRows },
      health_info: healthInfo,
    };
  });
}

function withTarget(model: TransparentModel, x: DataFrame, y: Column | ArrayLike<Label | null>, name: string): DataFrame {
  const column = isColumn(y) ? { ...y, name: model.target } : inferColumn(model.target, Array.from(y, (v) => (v === null || v === undefined ? null : String(v))));
  const length = column.storage === 'number' ? column.values.length : column.codes.length;
  if (length !== x.nRows) {
    throw invalidArgument(`${name} has ${length} values but the data has ${x.nRows} rows: give one target value per row.`, name);
  }
  return (x.has(model.target) ? x.drop([model.target]) : x).withColumns([column]);
}

function isColumn(y: Column | ArrayLike<Label | null>): y is Column {
  return typeof (y as Column).storage === 'string';
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
