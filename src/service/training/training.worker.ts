import { parentPort } from 'node:worker_threads';
import { CsvError, EngineError } from '../../engine';
import { answerFromRows, searchParameters } from '../../autotrain';
import { loadFrameSync, parseCsvFile } from '../datasetFiles/frameFile';
import { writeHealthFile } from '../datasetFiles/healthFile';
import { ParquetInputError } from '../datasetFiles/parquetSchema';
import { writeSummaryFile } from '../datasetFiles/summaryFile';
import {
  applyPreprocessorIfAny,
  InputError,
  leaveOutRareClasses,
  readFrame,
  runFitPreprocessor,
  runStoreFrame,
  runIngest,
  runPreviewEdits,
  runRefit,
  runTrain,
  splitFrame,
} from './pipeline';
import { runPredict } from './predictions';
import type { IngestOutcome, PredictOutcome, SearchOutcome, SearchTask, TaskReply, TrainingTask } from './tasks';
import { nameTrainingThread, yieldToRequests } from './priority';

async function runSearch(task: SearchTask): Promise<SearchOutcome> {
  const frame = applyPreprocessorIfAny(readFrame(task.source), task.preprocessor);
  const split = splitFrame(frame, task.target, task.testSize, task.seed);
  const { train } = task.modelType === 'classifier' ? leaveOutRareClasses(split, task.target, task.rareClasses) : split;
  const result = await searchParameters(train, {
    target: task.target,
    modelType: task.modelType,
    seed: task.seed,
    dropColumns: task.dropColumns,
    onProgress: (done, total) => task.port.postMessage({ progress: done / total }),
  });
  return { params: result.params, metric: result.metric, score: result.validationScore, improved: result.improved, trials: result.trials.length };
}

function inspectCsv(path: string): IngestOutcome {
  const { frame, header } = parseCsvFile(path);
  return { rows: frame.nRows, columns: frame.names, header };
}

function execute(task: TrainingTask): unknown {
  switch (task.kind) {
    case 'train':
      return runTrain(task);
    case 'refit':
      return runRefit(task);
    case 'preview-edits':
      return runPreviewEdits(task);
    case 'predict':
      return runPredict(task);
    case 'fit-preprocessor':
      return runFitPreprocessor(task);
    case 'search':
      return runSearch(task);
    case 'ingest':
      return runIngest(task);
    case 'store-frame':
      return runStoreFrame(task);
    case 'summarize':
      return writeSummaryFile(task.path, loadFrameSync(task.path));
    case 'scan-health':
      writeHealthFile(task.path, loadFrameSync(task.path));
      return null;
    case 'inspect-csv':
      return inspectCsv(task.path);
    case 'row-rules':
      return answerFromRows(task.request, loadFrameSync(task.path));
  }
}

/** Runs one task; bad input comes back as a reply (not a thrown error) so its field survives. */
async function run(task: TrainingTask): Promise<TaskReply<unknown>> {
  try {
    return { ok: true, value: await execute(task) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { message: error.message, field: error.field } };
    if (error instanceof CsvError) {
      const message = task.kind === 'ingest' ? error.message : `${task.kind === 'predict' ? 'The prediction data' : 'The CSV'} could not be read: ${error.message}`;
      return { ok: false, error: { message, field: 'csv' } };
    }
    if (error instanceof ParquetInputError) return { ok: false, error: { message: error.message, field: 'file' } };
    if (error instanceof EngineError) return { ok: false, error: { message: error.message, field: error.field ?? null } };
    throw error;
  }
}

nameTrainingThread();
yieldToRequests();

async function answer({ id, task }: { id: number; task: TrainingTask }): Promise<void> {
  try {
    const reply = await run(task);
    // A prediction body's pieces are bytes of their own: hand their buffers over rather than copy them.
    const pieces = reply.ok && task.kind === 'predict' ? (reply.value as PredictOutcome) : [];
    const transfer = [...new Set(pieces.map((piece) => piece.buffer))];
    parentPort?.postMessage({ id, value: reply }, transfer);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort?.postMessage({ id, error: { message: e.message, stack: e.stack } });
  }
}

parentPort?.on('message', (message: { id: number; task: TrainingTask }) => void answer(message));
