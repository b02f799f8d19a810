import type { ColumnSource } from 'hyparquet-writer' with { 'resolution-mode': 'import' };
import { parquetText, readParquetColumns } from './parquetRows';
import { predictionColumns, type PredictionColumns } from './predictionsCsv';
import { l10n } from '../l10n/l10n';

/**
 * The input Parquet file's columns with the prediction columns appended (as `predictionColumns` names them), as the
 * bytes of a new Parquet file. Input columns keep their values; a column hyparquet-writer cannot type from them (all
 * missing, or mixed) is written as text.
 */
export async function buildPredictionsParquet(inputPath: string, result: PredictionColumns): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const input = await readParquetColumns(inputPath);
  if (result.n !== input.rows || result.predictions.length !== input.rows) {
    throw new Error(l10n.t('The service returned {0} predictions for {1} rows.', result.predictions.length, input.rows));
  }
  const columns: ColumnSource[] = [
    ...input.names.map((name, k) => ({ name, data: input.values[k] })),
    ...predictionColumns(input.names, result).map(([name, values]) => ({ name, data: [...values] })),
  ];
  return new Uint8Array(parquetWriteBuffer({ columnData: columns.map((column) => writable(column)) }));
}

/** Writes a column as it is when the writer can type it, else as text. */
function writable(column: ColumnSource): ColumnSource {
  const present = (column.data as unknown[]).filter((v) => v !== null && v !== undefined);
  const kinds = new Set(present.map((v) => (v instanceof Date ? 'date' : typeof v)));
  if (kinds.size === 1 && !kinds.has('object')) return { ...column, nullable: true };
  return { name: column.name, type: 'STRING', nullable: true, data: (column.data as unknown[]).map((v) => (v === null || v === undefined ? null : parquetText(v))) };
}
