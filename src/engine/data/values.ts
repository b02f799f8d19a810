import { EngineError } from '../errors';
import { classifyLevels, dictionaryEncode, inferColumn, numberColumn, type Column } from './frame';

/** One cell as a typed decoder hands it over (a Parquet reader, a database driver); null or undefined = missing. */
export type CellValue = number | bigint | string | boolean | Date | null | undefined;

/**
 * Builds a column from typed values so that it is the column the CSV reader builds from the same data written as
 * text: numbers stay numbers (NaN = missing), dates become epoch milliseconds, booleans the categories `true` and
 * `false`, and text (or a mix of kinds) is inferred as the CSV reader infers its fields. A list or a record in a
 * cell cannot be a feature: an EngineError names the column.
 */
export function columnFromValues(name: string, values: ArrayLike<unknown>): Column {
  const kind = commonKind(name, values);
  if (kind === 'number') {
    const out = new Float64Array(values.length);
    for (let i = 0; i < out.length; i++) out[i] = numberOf(values[i] as number | bigint | null | undefined);
    return numberColumn(name, out);
  }
  if (kind === 'date') {
    const out = new Float64Array(values.length);
    for (let i = 0; i < out.length; i++) out[i] = values[i] == null ? NaN : (values[i] as Date).getTime();
    return numberColumn(name, out, 'date');
  }
  if (kind === 'boolean') {
    const { codes, levels } = dictionaryEncode(values.length, (i) => (values[i] == null ? null : String(values[i])));
    return classifyLevels(name, codes, levels);
  }
  return inferColumn(name, Array.from(values as ArrayLike<CellValue>, textOf));
}

type Kind = 'number' | 'date' | 'boolean' | 'text';

/** The one kind every present value has, or `text` when they differ (or none is present). */
function commonKind(name: string, values: ArrayLike<unknown>): Kind {
  let kind: Kind | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v == null) continue;
    const k = kindOf(name, v);
    if (kind === null) kind = k;
    else if (k !== kind) return 'text';
  }
  return kind ?? 'text';
}

function kindOf(name: string, v: unknown): Kind {
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'text';
  }
  if (v instanceof Date) return 'date';
  throw new EngineError(`Column ${name} holds lists or records (nested values), which cannot be used as a feature; flatten it or leave it out`, name);
}

function numberOf(v: number | bigint | null | undefined): number {
  return v == null ? NaN : Number(v);
}

function textOf(v: CellValue): string | null {
  if (v == null) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'number' && Number.isNaN(v)) return null;
  return String(v);
}
