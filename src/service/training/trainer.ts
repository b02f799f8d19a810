import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type Transferable } from 'node:worker_threads';
import { joinRowParts } from './jsonPieces';
import { WorkerPool } from './pool';
import { invalid } from '../base/errors';
import type { RowRuleAnswer, RowRuleRequest, SummaryRules } from '../../autotrain';
import type { Column } from '../../engine';
import type {
  FitOutcome,
  FitPreprocessorTask,
  IngestOutcome,
  PredictOutcome,
  PredictTask,
  PreviewEditsOutcome,
  PreviewEditsTask,
  RefitOutcome,
  RefitTask,
  SearchOutcome,
  SearchTask,
  TaskReply,
  TrainTask,
  TrainingTask,
} from './tasks';

/** The fewest rows a part of a split predict has: below this, a thread's start-up outweighs what it saves. */
export const PREDICT_PART_ROWS = 25_000;

export interface TrainerOptions {
  /** Worker threads; default: the number of CPUs minus one, at least 2 (one stays free while a job runs), at most 4. */
  threads?: number;
  workerFile?: string;
}

/**
 * Runs training, refit, prediction, preprocessing and every other computation over a dataset's rows off the request
 * thread, in a bounded worker pool.
 */
export class Trainer {
  private readonly pool: WorkerPool;

  constructor(options: TrainerOptions = {}) {
    const threads = options.threads ?? Math.max(2, Math.min(4, availableParallelism() - 1));
    this.pool = new WorkerPool(options.workerFile ?? join(__dirname, 'training.worker.js'), threads);
  }

  get threads(): number {
    return this.pool.size;
  }

  private async run<T>(task: TrainingTask, signal?: AbortSignal, transferList?: Transferable[]): Promise<T> {
    const reply = await this.pool.run<TaskReply<T>>(task, { signal, transferList });
    if (!reply.ok) {
      const field = reply.error.field ?? task.kind;
      throw invalid(field, reply.error.message.endsWith('.') ? reply.error.message : `${reply.error.message}.`);
    }
    return reply.value;
  }

  train(task: Omit<TrainTask, 'kind' | 'threads'>, signal?: AbortSignal): Promise<FitOutcome> {
    return this.run({ kind: 'train', ...task, threads: this.pool.size }, signal);
  }

  refit(task: Omit<RefitTask, 'kind'>): Promise<RefitOutcome> {
    return this.run({ kind: 'refit', ...task });
  }

  previewEdits(task: Omit<PreviewEditsTask, 'kind'>, signal?: AbortSignal): Promise<PreviewEditsOutcome> {
    return this.run({ kind: 'preview-edits', ...task }, signal);
  }

  /**
   * The `Predictions` body as UTF-8 JSON chunks, in order. A predict of `rows` rows (when known) is split into
   * consecutive row ranges of at least PREDICT_PART_ROWS over the threads idle now, each formatting its rows' part of
   * every column; a busy pool does not split, so no part waits behind a long task.
   */
  async predict(task: Omit<PredictTask, 'kind' | 'part'>, rows: number | null): Promise<Uint8Array<ArrayBuffer>[]> {
    const count = Math.max(1, Math.min(this.pool.idle, Math.floor((rows ?? 0) / PREDICT_PART_ROWS)));
    const parts = Array.from({ length: count }, (_, index) => this.run<PredictOutcome>({ kind: 'predict', ...task, part: { index, count } }));
    return joinRowParts(await Promise.all(parts));
  }

  fitPreprocessor(task: Omit<FitPreprocessorTask, 'kind'>, signal?: AbortSignal): Promise<unknown> {
    return this.run({ kind: 'fit-preprocessor', ...task }, signal);
  }

  /**
   * Parses an uploaded CSV or Parquet file and stores its frame beside it, or as the frame of `datasetPath` (not its
   * health scan or summary); 422 naming line and column for a malformed file.
   */
  ingest(path: string, datasetPath?: string): Promise<IngestOutcome> {
    return this.run({ kind: 'ingest', path, datasetPath });
  }

  /** Stores a dataset's frame built from rows read from a database; its columns' arrays move to the worker, not copied. */
  storeFrame(path: string, rows: number, columns: Column[]): Promise<IngestOutcome> {
    const arrays = columns.map((c) => (c.storage === 'number' ? c.values.buffer : c.codes.buffer) as ArrayBuffer);
    return this.run({ kind: 'store-frame', path, rows, columns }, undefined, arrays);
  }

  /** The header and row count of a CSV that is not a stored dataset (a bundled sample). */
  inspectCsv(path: string): Promise<IngestOutcome> {
    return this.run({ kind: 'inspect-csv', path });
  }

  /** The data-health scan of a stored dataset, computed from its frame and cached beside it. */
  async scanHealth(path: string): Promise<void> {
    await this.run({ kind: 'scan-health', path });
  }

  /** The rules part of a stored dataset's summary, computed and cached now when the dataset has none yet. */
  summarize(path: string): Promise<SummaryRules> {
    return this.run({ kind: 'summarize', path });
  }

  /** An autotrain rule's answer computed from the stored dataset's rows. */
  rowRules<R extends RowRuleRequest>(path: string, request: R, signal?: AbortSignal): Promise<RowRuleAnswer<R>> {
    return this.run({ kind: 'row-rules', path, request }, signal);
  }

  /** The autotrain parameter search; `onProgress` gets 0..1 as trials finish. */
  async search(task: Omit<SearchTask, 'kind' | 'port'>, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<SearchOutcome> {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (message: { progress: number }) => onProgress(message.progress));
    try {
      return await this.run<SearchOutcome>({ kind: 'search', ...task, port: port2 }, signal, [port2]);
    } finally {
      port1.close();
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
