import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { startsAsParquet } from '../client/upload';
import { profileColumns, sniffCsv, type CsvSample } from '../common/csvColumns';
import { UserFacingError } from '../common/errors';
import { l10n } from '../l10n/l10n';
import { parquetText, readParquetColumns } from '../common/parquetRows';

const SAMPLE_BYTES = 1024 * 1024;
const SAMPLE_ROWS = 5000;

/**
 * Reads the header and first rows of the data file at `path` and infers column kinds: a Parquet file (known by its
 * bytes, as the service knows it) by its schema and first 5,000 rows, a CSV by its first megabyte.
 */
export async function sampleCsv(path: string): Promise<CsvSample> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserFacingError(l10n.t('Cannot read {0}: {1}.', basename(path), error.code ?? error.message));
  });
  let parquet = false;
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    parquet = startsAsParquet(buffer.subarray(0, bytesRead));
    const sample = parquet ? await sampleParquet(path) : sniffCsv(buffer.subarray(0, bytesRead));
    if (sample.rowsSampled === 0) throw new UserFacingError(l10n.t('{0} has a header but no rows.', basename(path)));
    return sample;
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    if (parquet) throw new UserFacingError(l10n.t('{0} is not a readable Parquet file: {1}', basename(path), (error as Error).message));
    throw new UserFacingError(l10n.t('{0} is not a readable CSV file: {1}', basename(path), (error as Error).message));
  } finally {
    await handle.close();
  }
}

async function sampleParquet(path: string): Promise<CsvSample> {
  const { names, values, rows } = await readParquetColumns(path, SAMPLE_ROWS);
  return profileColumns(
    names,
    Array.from({ length: rows }, (_, row) => values.map((column) => parquetText(column[row]))),
  );
}
