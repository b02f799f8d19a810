import type { ServiceContext } from '../http/context';
import { publish } from '../datasetFiles/fileCache';
import { healthPath } from '../datasetFiles/healthFile';
import { summaryPath } from '../datasetFiles/summaryFile';

/** The health scans and summaries of datasets still being computed after their frame was stored, by CSV path. */
const pending = new Map<string, Promise<void>>();

/**
 * Computes a dataset's health scan and summary once its frame is stored (an upload has answered, a database's rows
 * were read: it can be trained), side by side on the worker pool, and shares them with the other replicas. A failure
 * is logged only: whatever is missing is computed when it is first needed.
 */
export function scanStoredFrame(ctx: ServiceContext, path: string): void {
  const scans = Promise.all([ctx.trainer.scanHealth(path), ctx.trainer.summarize(path)])
    .then(() => publish(ctx.store.files, path, [healthPath(path), summaryPath(path)]))
    .catch((error: unknown) => ctx.logger.error(`the health scan or summary of ${path} failed; it is computed again when needed`, error))
    .finally(() => pending.delete(path));
  pending.set(path, scans);
}

/** Waits for the scans started when a dataset's frame was stored, when they are still running (every use of the dataset reads them). */
export async function scansSettled(path: string): Promise<void> {
  await pending.get(path);
}
