import { access } from 'node:fs/promises';
import { ensureLocal, publish, removeEverywhere } from '../datasetFiles/fileCache';
import { framePath } from '../datasetFiles/frameFile';
import { healthPath } from '../datasetFiles/healthFile';
import { readSummaryFile, summaryPath } from '../datasetFiles/summaryFile';
import type { Rows, SummaryRules } from '../../autotrain';
import { isMissingFile } from '../base/json';
import type { Dataset } from '../../contract';
import type { ServiceContext } from '../http/context';
import { notFound } from '../base/errors';
import { insertDataset } from '../store/datasets';
import { findCurrentDataset } from './fileDataset';
import { readDatasetFile } from './fileShape';
import { scanStoredFrame, scansSettled } from './datasetScans';
import { datasetPath } from '../datasetFiles/files';
import { ensureSourceFrame, overBudget } from './sourceDataset';
import { settleUpload, type ReceivedUpload } from './upload';

/**
 * Parses an uploaded CSV or Parquet file once on the worker pool (its frame is stored beside it) and records it as a
 * dataset of the team; 422 and nothing kept when it is not readable.
 */
export async function registerUpload(ctx: ServiceContext, teamId: string, upload: ReceivedUpload, name: string | undefined): Promise<Dataset> {
  const label = name || upload.fileName || 'The upload';
  try {
    const { shape, kept } = await readDatasetFile(ctx, upload.path, label);
    const dataset: Dataset = {
      dataset_id: upload.datasetId,
      name: (name || upload.fileName || `dataset-${new Date().toISOString().slice(0, 19)}`).trim(),
      rows: shape.rows,
      columns: shape.columns,
      size_bytes: upload.size,
      created: new Date().toISOString(),
    };
    // Files first: a dataset other replicas can list already has its files to download.
    await publish(ctx.store.files, upload.path);
    await insertDataset(ctx.store, teamId, dataset);
    if (!kept) scanStoredFrame(ctx, upload.path);
    return dataset;
  } catch (error) {
    await removeEverywhere(ctx.store.files, upload.path).catch((cleanup: unknown) => ctx.logger.error(`removing the files of a failed upload failed`, cleanup));
    throw error;
  } finally {
    settleUpload(upload);
  }
}

/**
 * The team's dataset and its file path; 404 for an unknown id or another team's dataset. A dataset whose rows stay
 * in a database has them read into its stored frame at its first use.
 */
export async function requireDataset(
  ctx: ServiceContext,
  teamId: string,
  datasetId: string,
  field = 'dataset_id',
): Promise<Dataset & { path: string }> {
  const dataset = await findCurrentDataset(ctx, teamId, datasetId, field);
  if (!dataset) throw notFound('Dataset', datasetId).withField(field);
  const path = datasetPath(ctx.dataDir, dataset.dataset_id);
  await ensureLocal(ctx.store.files, path);
  await scansSettled(path);
  if (dataset.source) await ensureSourceFrame(ctx, { ...dataset, source: dataset.source, path }, field);
  else if (dataset.rows > ctx.maxRowsInMemory && !(await hasStoredFrame(path))) throw overBudget(dataset, ctx.maxRowsInMemory, field);
  return { ...dataset, path };
}

async function hasStoredFrame(csvPath: string): Promise<boolean> {
  try {
    await access(framePath(csvPath));
    return true;
  } catch (error) {
    if (isMissingFile(error)) return false;
    throw error;
  }
}

/**
 * The dataset's rows for the autotrain rules: each rule runs on the worker pool, which reads the stored frame, so the
 * request thread never holds or scans the rows (a dataset stored before frames existed is converted first).
 */
export async function datasetRows(ctx: ServiceContext, csvPath: string, signal?: AbortSignal): Promise<Rows> {
  if (!(await hasStoredFrame(csvPath))) {
    await ctx.trainer.ingest(csvPath);
    await publish(ctx.store.files, csvPath, [framePath(csvPath), healthPath(csvPath), summaryPath(csvPath)]);
  }
  return { available: true, answer: (request) => ctx.trainer.rowRules(csvPath, request, signal) };
}

/** The rules part of the dataset's summary, cached at upload (computed on the worker pool for an older dataset). */
export async function loadSummaryRules(ctx: ServiceContext, csvPath: string): Promise<SummaryRules> {
  await scansSettled(csvPath);
  const cached = await readSummaryFile(csvPath);
  if (cached) return cached;
  const rules = await ctx.trainer.summarize(csvPath);
  await publish(ctx.store.files, csvPath, [summaryPath(csvPath)]);
  return rules;
}
