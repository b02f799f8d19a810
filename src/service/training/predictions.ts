import type { Predictions } from '../../contract';
import { DataFrame, categoryColumn, numberColumn, predict } from '../../engine';
import { loadFrameRowsSync } from '../datasetFiles/frameFile';
import { deserializeModel } from './modelJson';
import { jsonPieces, type JsonBody } from './jsonPieces';
import { multiclassPredictions } from './multiclass';
import { applyPreprocessorIfAny, InputError, readFrame } from './pipeline';
import type { PredictOutcome, PredictTask } from './tasks';

/** The body's one array that is not a value per row. */
const WHOLE_KEYS: ReadonlySet<string> = new Set(['warnings']);

/** The rows [start, end) of part `index` of `count` near-equal consecutive ranges of `nRows` rows. */
function rowRange(nRows: number, part: PredictTask['part']): [number, number] {
  return [Math.floor((nRows * part.index) / part.count), Math.floor((nRows * (part.index + 1)) / part.count)];
}

/** The rows [start, end) of a frame, as views on its columns. */
function rowsOf(frame: DataFrame, [start, end]: [number, number]): DataFrame {
  if (start === 0 && end === frame.nRows) return frame;
  const columns = frame.columns.map((c) =>
    c.storage === 'number' ? numberColumn(c.name, c.values.subarray(start, end), c.type) : categoryColumn(c.name, c.codes.subarray(start, end), c.levels, c.type),
  );
  return new DataFrame(columns, end - start);
}

/**
 * The task's part of the rows, and the count of all rows: read alone from a stored frame; else (inline CSV, or a
 * preprocessor, which sees the whole frame as it does unsplit) cut from the whole frame.
 */
function partRows(task: PredictTask): { frame: DataFrame; nRows: number } {
  const stored = !task.preprocessor && 'path' in task.source ? loadFrameRowsSync(task.source.path, (n) => rowRange(n, task.part)) : null;
  if (stored) return stored;
  const whole = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  return { frame: rowsOf(whole, rowRange(whole.nRows, task.part)), nRows: whole.nRows };
}

/**
 * The `Predictions` body of the task's part of the rows, as pieces (`jsonPieces`). Each row's numbers depend on that
 * row alone, so the parts' columns join into the columns of one predict of every row.
 */
export function runPredict(task: PredictTask): PredictOutcome {
  const model = deserializeModel(task.modelJson);
  const { frame, nRows } = partRows(task);
  if (nRows === 0) throw new InputError(`${task.source.label} has a header but no rows to predict`, 'csv_content');
  // Every part names the count of all rows, so the text around the columns is the same in every part.
  if (model.modelType === 'multiclass') {
    const body = multiclassPredictions(task.versionId, model, frame, task.explain);
    return jsonPieces<Predictions>({ ...body, n: nRows, warnings: [...task.requestWarnings, ...body.warnings] }, WHOLE_KEYS);
  }
  const result = predict(model, frame, { threshold: task.threshold, explain: task.explain });
  const body: JsonBody<Predictions> = {
    version_id: task.versionId,
    n: nRows,
    base_value: result.baseValue,
    ...(model.partitionOn ? { base_values: result.baseValues } : {}),
    predictions: result.predictions,
    ...(model.modelType === 'classifier' ? { scores: result.scores } : {}),
    ...(result.probabilities ? { probabilities: result.probabilities } : {}),
    ...(result.contributions ? { contributions: result.contributions } : {}),
    ...(result.pairContributions ? { interaction_contributions: result.pairContributions } : {}),
    warnings: [...task.requestWarnings, ...result.warnings],
  };
  // jsonPieces writes NaN and ±Infinity as null, as the wire requires.
  return jsonPieces<Predictions>(body, WHOLE_KEYS);
}
