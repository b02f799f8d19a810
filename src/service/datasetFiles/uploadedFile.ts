import type { DataFrame } from '../../engine';
import { parseCsvFile } from './frameFile';
import { isParquetFile, parseParquetFile } from './parquetFile';

/** An uploaded file's rows and header: Parquet when its bytes say so, whatever its name; CSV otherwise. For worker threads. */
export async function parseUploadedFile(path: string): Promise<{ frame: DataFrame; header: string[] }> {
  return isParquetFile(path) ? parseParquetFile(path) : parseCsvFile(path);
}
