import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { sniffCsv, type CsvSample } from '../common/csvColumns';
import { UserFacingError } from '../common/errors';
import { l10n } from '../common/l10n';

const SAMPLE_BYTES = 1024 * 1024;

/** Reads the header and the first megabyte of rows of the CSV at `path` and infers column kinds. */
export async function sampleCsv(path: string): Promise<CsvSample> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new UserFacingError(l10n.t('Cannot read {0}: {1}.', basename(path), error.code ?? error.message));
  });
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    const sample = sniffCsv(buffer.subarray(0, bytesRead));
    if (sample.rowsSampled === 0) throw new UserFacingError(l10n.t('{0} has a header but no rows.', basename(path)));
    return sample;
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    throw new UserFacingError(l10n.t('{0} is not a readable CSV file: {1}', basename(path), (error as Error).message));
  } finally {
    await handle.close();
  }
}
