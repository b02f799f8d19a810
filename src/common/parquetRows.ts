import type { AsyncBuffer } from 'hyparquet' with { 'resolution-mode': 'import' };

export interface ParquetColumns {
  names: string[];
  /** Per column, its values in row order as hyparquet decodes them (null or undefined = missing). */
  values: unknown[][];
  rows: number;
}

/** The top-level columns of a Parquet file, the first `rowEnd` rows (all by default). */
export async function readParquetColumns(path: string, rowEnd?: number): Promise<ParquetColumns> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  const file: AsyncBuffer = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const rows = Math.min(Number(metadata.num_rows), rowEnd ?? Infinity);
  const values = names.map(() => new Array<unknown>(rows).fill(null));
  await parquetRead({
    file,
    metadata,
    rowEnd: rows,
    compressors,
    onChunk: ({ columnName, columnData, rowStart }) => {
      const column = values[names.indexOf(columnName)];
      for (let i = 0; i < columnData.length && rowStart + i < rows; i++) if (rowStart + i >= 0) column[rowStart + i] = columnData[i];
    },
  });
  return { names, values, rows };
}

/**
 * A decoded value as the text a CSV of the same data holds ('' = missing): dates as `YYYY-MM-DD`, timestamps as
 * `YYYY-MM-DD HH:MM:SS[.mmm]` (UTC), booleans as true/false.
 */
export function parquetText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('T', ' ').replace(/(\.000)?Z$/, '');
  }
  if (typeof value === 'object') return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return String(value);
}
