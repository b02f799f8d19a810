import { groupRows, type DataFrame } from '../data/frame';
import type { TransparentModel } from './types';

/** Key of the model fitted on all rows; every model has it and unknown partition values fall back to it. */
export const DATASET_PARTITION = '__dataset__';

/** One partition's model on its own: it scores every row it is given, with no routing. */
export function singlePartitionModel(model: TransparentModel, key: string): TransparentModel {
  const part = model.partitions.get(key);
  if (!part) throw new Error(`The model has no partition ${key}`);
  return { ...model, partitionOn: null, partitions: new Map([[DATASET_PARTITION, part]]) };
}

/**
 * The rows each partition's model scores, keyed like `model.partitions`: every row for `__dataset__` (and for an
 * unpartitioned model), else the rows whose partition value is the key (none when the frame has no such row).
 */
export function partitionFrames(model: TransparentModel, frame: DataFrame): Map<string, DataFrame> {
  const groups = model.partitionOn ? groupRows(frame.column(model.partitionOn), frame.nRows) : new Map<string, Int32Array>();
  const none = new Int32Array(0);
  return new Map(
    [...model.partitions.keys()].map((key) => [
      key,
      key === DATASET_PARTITION || !model.partitionOn ? frame : frame.take(groups.get(key) ?? none),
    ]),
  );
}
