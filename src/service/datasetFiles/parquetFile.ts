import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { AsyncBuffer, FileMetaData } from 'hyparquet' with { 'resolution-mode': 'import' };
import { ColumnValuesBuilder, DataFrame, EngineError, type Column } from '../../engine';
import { ParquetInputError, parquetColumns, withoutDecimal, type ParquetColumn } from './parquetSchema';
import { decimalValue, float32Value, timeOfDayText, timestampParsers } from './parquetValues';

const MAGIC = 'PAR1';

/** Whether the file is Parquet, by its first bytes (never its name): a CSV cannot start with `PAR1` and end well. */
export function isParquetFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(MAGIC.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** A file that starts as Parquet must also end with the footer's magic; otherwise it was cut short. */
function checkFooter(path: string): void {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(MAGIC.length);
    const complete = size >= 2 * MAGIC.length + 4 && readSync(fd, tail, 0, tail.length, size - MAGIC.length) === tail.length && tail.toString('latin1') === MAGIC;
    if (!complete) throw new ParquetInputError('it is cut short (it does not end with the Parquet footer, PAR1); upload the whole file');
  } finally {
    closeSync(fd);
  }
}

const decoder = new TextDecoder();
const parsers = { ...timestampParsers, jsonFromBytes: (bytes: Uint8Array) => bytes && decoder.decode(bytes) };

/** hyparquet's own errors (a corrupt page, a bad footer) become input errors naming the column being read. */
async function readingColumn<T>(column: string | null, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ParquetInputError || error instanceof EngineError) throw error;
    const where = column === null ? 'its metadata' : `column ${column}`;
    throw new ParquetInputError(`it is corrupt: reading ${where} failed (${(error as Error).message})`, column);
  }
}

/** One column over every row, decoded a row group at a time and typed by the engine as its values arrive, in order. */
async function readColumn(file: AsyncBuffer, metadata: FileMetaData, column: ParquetColumn, nRows: number): Promise<Column> {
  const { parquetRead } = await import('hyparquet');
  const { compressors } = await import('hyparquet-compressors');
  const builder = new ColumnValuesBuilder(column.name, nRows);
  let next = 0;
  const convert =
    column.kind === 'decimal'
      ? (v: unknown) => decimalValue(v, column.scale)
      : column.kind === 'float32'
        ? float32Value
        : column.kind === 'time'
          ? (v: unknown) => timeOfDayText(v, column.scale)
          : (v: unknown) => v;
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupEnd = groupStart + Number(group.num_rows);
    await parquetRead({
      file,
      metadata,
      columns: [column.name],
      rowStart: groupStart,
      rowEnd: groupEnd,
      compressors,
      parsers,
      utf8: column.kind !== 'decimal',
      onChunk: ({ columnData, rowStart }) => {
        // A chunk may repeat rows already read; one that skips rows leaves the group short, which is caught below.
        if (rowStart > next) return;
        for (let i = next - rowStart; i < columnData.length && next < groupEnd; i++, next++) builder.add(convert(columnData[i]));
      },
    });
    if (next !== groupEnd) throw new ParquetInputError(`it is corrupt: column ${column.name} has ${next - groupStart} of the ${groupEnd - groupStart} rows of a row group`, column.name);
    groupStart = groupEnd;
  }
  return builder.finish();
}

/** The number of rows of a Parquet file, from its footer alone (ParquetInputError for a cut-short or corrupt one). */
export async function parquetRowCount(path: string): Promise<number> {
  checkFooter(path);
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  return Number((await readingColumn(null, () => parquetMetadataAsync(file))).num_rows);
}

/**
 * Reads a Parquet file into the frame its data makes as CSV: its schema is checked first (ParquetInputError for a
 * cut-short or corrupt file, a nested column, a type or compression that cannot be read), then one column at a time
 * is decoded, a row group at a time, and typed by the engine as it is read (`ColumnValuesBuilder`).
 */
export async function parseParquetFile(path: string): Promise<{ frame: DataFrame; header: string[] }> {
  checkFooter(path);
  const { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await readingColumn(null, () => parquetMetadataAsync(file));
  const columns = await readingColumn(null, async () => parquetColumns(metadata, parquetSchema(metadata)));
  const decimals = new Set(columns.filter((c) => c.kind === 'decimal').map((c) => c.name));
  const readable: FileMetaData = { ...metadata, schema: metadata.schema.map((e, i) => (i > 0 && decimals.has(e.name) ? withoutDecimal(e) : e)) };
  const nRows = Number(metadata.num_rows);
  const built: Column[] = [];
  for (const column of columns) built.push(await readingColumn(column.name, () => readColumn(file, readable, column, nRows)));
  const header = columns.map((c) => c.name);
  return { frame: new DataFrame(built, nRows), header };
}
