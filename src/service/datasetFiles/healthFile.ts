import { scanHealth, type ColumnHealth, type DataFrame } from '../../engine';
import { cachedJsonFileSync, writeFiniteJsonFile } from '../base/json';
import { isStoredDataset } from './frameFile';

/**
 * The data-health scan of an uploaded dataset's every column, stored next to its CSV as `<id>.health.json` when the
 * dataset is parsed, so a train or refit reads it instead of scanning the rows again. For worker threads.
 */
export const healthPath = (csvPath: string) => csvPath.replace(/\.csv$/, '') + '.health.json';

export function writeHealthFile(csvPath: string, frame: DataFrame): ColumnHealth[] {
  return writeFiniteJsonFile(healthPath(csvPath), scanHealth(frame));
}

/**
 * An upload's cached health scan (scanned from `frame()` and cached now for a dataset stored before scans were);
 * null for a file that is not an upload.
 */
export function loadHealthSync(csvPath: string, frame: () => DataFrame): ColumnHealth[] | null {
  return isStoredDataset(csvPath) ? cachedJsonFileSync(healthPath(csvPath), () => scanHealth(frame())) : null;
}
