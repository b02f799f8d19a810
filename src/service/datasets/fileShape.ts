import type { ServiceContext } from '../http/context';
import { ApiError, invalid } from '../base/errors';
import { checkCsvShape } from '../datasetFiles/files';
import type { IngestOutcome } from '../datasetFiles/frameFile';
import { isParquetFile } from '../datasetFiles/parquetFile';
import { largeParquetShape } from './largeParquet';

/**
 * Reads an uploaded or local CSV or Parquet file's shape: a Parquet file over the in-memory budget is described by
 * DuckDB and kept where it lies (`kept`); any other file is parsed once on the worker pool and its frame stored as
 * `framesFor`'s (beside the file by default). 422 naming `file` when it is not readable.
 */
export async function readDatasetFile(ctx: ServiceContext, path: string, label: string, framesFor?: string): Promise<{ shape: IngestOutcome; kept: boolean }> {
  const kept = await largeParquetShape(ctx, path, label);
  const shape = kept ?? await ctx.trainer.ingest(path, framesFor).catch((error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    if (isParquetFile(path)) throw invalid('file', `${label} is not a readable Parquet file: ${error.detail}`, 'Write the file again with a Parquet writer, with flat columns.');
    throw invalid('file', `${label} is not a readable CSV: ${error.detail}`, 'Save the file as delimited text with a header row.');
  });
  checkCsvShape(label, shape.header, shape.rows);
  return { shape, kept: kept !== null };
}
