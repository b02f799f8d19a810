import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { Dataset } from '../../contract';
import type { ServiceContext } from '../http/context';
import { ApiError, conflict, invalid } from '../base/errors';
import { isMissingFile } from '../base/json';
import { pendingPath } from '../base/scratchFiles';
import { findDataset, insertDataset, updateDatasetFile } from '../store/datasets';
import { removeEverywhere } from '../datasetFiles/fileCache';
import { datasetPath } from '../datasetFiles/files';
import { framePath } from '../datasetFiles/frameFile';
import { healthPath } from '../datasetFiles/healthFile';
import { isParquetFile } from '../datasetFiles/parquetFile';
import { summaryPath } from '../datasetFiles/summaryFile';
import { scanStoredFrame, scansSettled } from './datasetScans';
import { localFileLabel } from './datasetRelation';
import { readDatasetFile } from './fileShape';

const FIELD = 'source.file';
/** The file names a dataset may be read from where it lies. */
const FILE_NAME = /\.(parquet|csv)$/i;

/** Where the sample the autotrain rules read of a dataset over the in-memory budget is stored (see datasetSample). */
export const samplePath = (dataDir: string, datasetId: string) => datasetPath(dataDir, `${datasetId}-sample`);

/** The file's state as a dataset records it: a change of either is a changed file. */
const fileState = (path: string, stats: Stats) => ({ size_bytes: stats.size, file: { path, modified: stats.mtime.toISOString() } });

/** A failure of reading the file names the request's field for it. */
function asFileField(error: unknown): unknown {
  return error instanceof ApiError && error.fields?.[0]?.path === 'file' ? error.withField(FIELD) : error;
}

/** 403 on a team server (naming its setting); 422 naming the value for a path that is not an absolute .parquet or .csv file's. */
async function checkedFile(ctx: ServiceContext, path: string): Promise<Stats> {
  if (ctx.filesInPlaceRefusal) {
    throw new ApiError(403, 'FORBIDDEN', ctx.filesInPlaceRefusal, 'Upload the file: POST /v1/datasets with the file as multipart/form-data.', [{ path: FIELD, message: ctx.filesInPlaceRefusal }]);
  }
  if (!isAbsolute(path)) throw invalid(FIELD, `source.file must be an absolute path, got ${JSON.stringify(path)}.`, 'Give the whole path of the file, from the root of the file system.');
  if (!FILE_NAME.test(path)) throw invalid(FIELD, `source.file must name a .parquet or .csv file, got ${JSON.stringify(path)}.`, 'Save the data as Parquet or CSV, or upload it.');
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (error) {
    if (isMissingFile(error)) throw invalid(FIELD, `There is no file at ${JSON.stringify(path)}.`, 'Check the path: the service reads it on its own machine.');
    throw invalid(FIELD, `The file ${JSON.stringify(path)} cannot be read: ${(error as Error).message}.`);
  }
  if (!stats.isFile()) throw invalid(FIELD, `source.file must name a file, and ${JSON.stringify(path)} is a directory or another kind of entry.`, 'Name one .parquet or .csv file.');
  return stats;
}

/**
 * Reads the file into the dataset's stored frame (or, for a Parquet file over the in-memory budget, only describes
 * it: DuckDB reads it where it lies) and drops what was derived from an earlier state of the file.
 */
async function readInPlace(ctx: ServiceContext, dataset: Pick<Dataset, 'dataset_id' | 'name'>, path: string): Promise<{ rows: number; columns: string[]; kept: boolean }> {
  const csvPath = datasetPath(ctx.dataDir, dataset.dataset_id);
  await scansSettled(csvPath);
  const { shape, kept } = await readDatasetFile(ctx, path, localFileLabel({ ...dataset, file: { path } }), csvPath).catch((error: unknown) => {
    throw asFileField(error);
  });
  for (const derived of [...(kept ? [framePath(csvPath)] : []), healthPath(csvPath), summaryPath(csvPath)]) rmSync(derived, { force: true });
  await removeEverywhere(ctx.store.files, samplePath(ctx.dataDir, dataset.dataset_id));
  if (!kept) scanStoredFrame(ctx, csvPath);
  return { rows: shape.rows, columns: shape.columns, kept };
}

/**
 * Registers a file of the local service's machine as a dataset read where it lies: nothing of it is copied; its
 * frame (the parsed columns) is kept in the data dir, or for a Parquet file over the in-memory budget nothing at all.
 */
export async function registerFileDataset(ctx: ServiceContext, teamId: string, path: string, name: string | undefined): Promise<Dataset> {
  const stats = await checkedFile(ctx, path);
  const datasetId = randomUUID();
  const csvPath = datasetPath(ctx.dataDir, datasetId);
  const pending = pendingPath(csvPath);
  writeFileSync(pending, '');
  try {
    const named = { dataset_id: datasetId, name: (name ?? basename(path)).trim() };
    const { rows, columns } = await readInPlace(ctx, named, path);
    const dataset: Dataset = { ...named, rows, columns, created: new Date().toISOString(), source: null, ...fileState(path, stats) };
    await insertDataset(ctx.store, teamId, dataset);
    return dataset;
  } catch (error) {
    await removeEverywhere(ctx.store.files, csvPath);
    throw error;
  } finally {
    rmSync(pending, { force: true });
  }
}

/** Files being read again after a change, by dataset id: concurrent uses of a changed file share one read. */
const rereading = new Map<string, Promise<Dataset>>();

/**
 * The team's dataset as its rows are now: a dataset of a local file whose size or modification time changed since it
 * was read is read again (its rows, columns and derived files follow the file); a file that is gone is a 409 naming
 * its path. Null for an unknown id or another team's dataset.
 */
export async function findCurrentDataset(ctx: ServiceContext, teamId: string, datasetId: string, field: string): Promise<Dataset | null> {
  const dataset = await findDataset(ctx.store, teamId, datasetId);
  if (!dataset?.file) return dataset;
  const file = dataset.file;
  let stats: Stats;
  try {
    stats = await stat(file.path);
  } catch (error) {
    if (!isMissingFile(error)) throw error;
    throw conflict(
      `${localFileLabel({ ...dataset, file })} is gone: it was moved or deleted after the dataset was registered.`,
      'Put the file back at that path, or register it where it lies now (POST /v1/datasets {"source": {"file": …}}).',
    ).withField(field);
  }
  const state = fileState(file.path, stats);
  const unchanged = state.size_bytes === dataset.size_bytes && state.file.modified === file.modified;
  const keptInPlace = dataset.rows > ctx.maxRowsInMemory && isParquetFile(file.path);
  if (unchanged && (keptInPlace || existsSync(framePath(datasetPath(ctx.dataDir, dataset.dataset_id))))) return dataset;
  let pending = rereading.get(dataset.dataset_id);
  if (!pending) {
    pending = (async () => {
      const { rows, columns } = await readInPlace(ctx, dataset, file.path);
      const current = { ...dataset, rows, columns, ...state };
      await updateDatasetFile(ctx.store, current);
      ctx.logger.info(`dataset ${dataset.dataset_id}: ${file.path} changed, read again (${rows} rows)`);
      return current;
    })().finally(() => rereading.delete(dataset.dataset_id));
    rereading.set(dataset.dataset_id, pending);
  }
  return pending;
}
