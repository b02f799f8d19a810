import type { Dataset, DatasetFile, DatasetSource } from '../../contract';
import { sqlString } from '../../codeText/sql';
import type { ServiceContext } from '../http/context';
import { connectionLabel } from '../sources/apiErrors';
import { relationSql } from '../sources/relation';
import type { SqlSource } from '../sources/source';
import { ensureLocal } from '../datasetFiles/fileCache';
import { datasetPath } from '../datasetFiles/files';
import { isParquetFile } from '../datasetFiles/parquetFile';
import { requireConnection } from './sourceDataset';

/**
 * Where SQL reads a dataset's rows: a named connection's table or query, or an uploaded or local Parquet file with
 * more rows than the in-memory budget, read where it lies by the service's own DuckDB.
 */
export interface DatasetRelation {
  source: SqlSource;
  /** The rows as a SELECT (see relationSql). */
  relation: string;
  /** How a failure names where the rows are. */
  where: string;
  /** The dataset's source as its versions record it; null for an uploaded file. */
  datasetSource: DatasetSource | null;
}

/** An uploaded Parquet file's rows, for the service's own DuckDB. */
export const parquetRelation = (path: string): string => `SELECT * FROM read_parquet(${sqlString(path)})`;

export const uploadedFileLabel = (dataset: Pick<Dataset, 'name'>): string => `The uploaded file of dataset ${dataset.name}`;

export const localFileLabel = (dataset: Pick<Dataset, 'name'> & { file: Pick<DatasetFile, 'path'> }): string => `The file ${dataset.file.path} of dataset ${dataset.name}`;

/** The dataset's rows as SQL, or null for an uploaded or local file's dataset the service holds in memory. */
export async function datasetRelation(ctx: ServiceContext, dataset: Dataset, field: string): Promise<DatasetRelation | null> {
  if (dataset.source) {
    const { name, source } = requireConnection(ctx, dataset.source.connection, field);
    return { source, relation: relationSql(source.dialect, dataset.source), where: connectionLabel(name), datasetSource: dataset.source };
  }
  if (dataset.rows <= ctx.maxRowsInMemory) return null;
  if (dataset.file) {
    if (!isParquetFile(dataset.file.path)) return null;
    return { source: ctx.uploadsEngine, relation: parquetRelation(dataset.file.path), where: localFileLabel({ ...dataset, file: dataset.file }), datasetSource: null };
  }
  const path = datasetPath(ctx.dataDir, dataset.dataset_id);
  await ensureLocal(ctx.store.files, path);
  if (!isParquetFile(path)) return null;
  return { source: ctx.uploadsEngine, relation: parquetRelation(path), where: uploadedFileLabel(dataset), datasetSource: null };
}
