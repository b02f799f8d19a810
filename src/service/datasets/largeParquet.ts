import type { ServiceContext } from '../http/context';
import { invalid } from '../base/errors';
import type { IngestOutcome } from '../datasetFiles/frameFile';
import { sourceApiError } from '../sources/apiErrors';
import { SourceError } from '../sources/source';
import { parquetRelation } from './datasetRelation';
import { isParquetFile, parquetRowCount } from '../datasetFiles/parquetFile';
import { ParquetInputError } from '../datasetFiles/parquetSchema';
import { checkColumns } from './sourceDataset';

/**
 * The shape of an uploaded Parquet file with more rows than the service reads into memory, described by the
 * service's own DuckDB, which then reads its rows where the file lies (as a connection's table: trained where it
 * lies, summarised and predicted by SQL); null for any other upload, which is read into a frame.
 */
export async function largeParquetShape(ctx: ServiceContext, path: string, label: string): Promise<IngestOutcome | null> {
  if (!isParquetFile(path)) return null;
  let rows: number;
  try {
    rows = await parquetRowCount(path);
  } catch (error) {
    if (error instanceof ParquetInputError) throw invalid('file', `${label} is not a readable Parquet file: ${error.message}.`, 'Write the file again with a Parquet writer, with flat columns.');
    throw error;
  }
  if (rows <= ctx.maxRowsInMemory) return null;
  try {
    const columns = await ctx.uploadsEngine.describe(parquetRelation(path));
    checkColumns(columns, 'file');
    const names = columns.map((c) => c.name);
    return { rows, columns: names, header: names };
  } catch (error) {
    if (error instanceof SourceError && error.failure === 'missing-package') {
      throw invalid(
        'file',
        `${label} has ${rows} rows, more than this service reads into memory (--max-rows-in-memory ${ctx.maxRowsInMemory}), and this installation lacks DuckDB, which reads such a file where it lies.`,
        'Use the platform package of the extension or a service installed with npm (both carry DuckDB), or start the service with a larger --max-rows-in-memory.',
      );
    }
    throw sourceApiError(error, 'file', label);
  }
}
