import { parseDate } from './dates';
import { parseNumber } from './decimal';
import { EngineError } from '../base/errors';

/** Numbers (NaN = missing). Dates are stored as epoch milliseconds (UTC). */
export interface NumberColumn {
  readonly name: string;
  readonly type: 'numeric' | 'date';
  readonly storage: 'number';
  readonly values: Float64Array;
}

/** Dictionary-coded text: `levels[codes[i]]`, code -1 = missing (an empty field). */
export interface CategoryColumn {
  readonly name: string;
  readonly type: 'categorical' | 'boolean' | 'id';
  readonly storage: 'category';
  readonly codes: Int32Array;
  readonly levels: readonly string[];
}

export type Column = NumberColumn | CategoryColumn;

export function numberColumn(name: string, values: Float64Array, type: 'numeric' | 'date' = 'numeric'): NumberColumn {
  return { name, type, storage: 'number', values };
}

export function categoryColumn(
  name: string,
  codes: Int32Array,
  levels: readonly string[],
  type: 'categorical' | 'boolean' | 'id' = 'categorical',
): CategoryColumn {
  return { name, type, storage: 'category', codes, levels };
}

const BOOLEAN_LEVELS = new Set(['true', 'false']);

/**
 * Decides the type of a dictionary-coded column: boolean (only true/false), date (every level parses as a date),
 * id (every row holds a different value and none is missing), else categorical.
 */
export function classifyLevels(name: string, codes: Int32Array, levels: readonly string[]): Column {
  if (levels.length > 0 && levels.every((l) => BOOLEAN_LEVELS.has(l.toLowerCase()))) {
    return categoryColumn(name, codes, levels, 'boolean');
  }
  const dates = levels.map(parseDate);
  if (levels.length > 0 && dates.every((d) => !Number.isNaN(d))) {
    const values = new Float64Array(codes.length);
    for (let i = 0; i < codes.length; i++) values[i] = codes[i] < 0 ? NaN : dates[codes[i]];
    return numberColumn(name, values, 'date');
  }
  const unique = codes.length > 1 && levels.length === codes.length && codes.every((c) => c >= 0);
  return categoryColumn(name, codes, levels, unique ? 'id' : 'categorical');
}

/** Builds a typed column from text fields (null or '' = missing), inferring its type. */
export function inferColumn(name: string, fields: readonly (string | null)[]): Column {
  const values = new Float64Array(fields.length);
  let numeric = true;
  for (let i = 0; i < fields.length && numeric; i++) {
    const f = fields[i];
    if (f === null || f === '') values[i] = NaN;
    else {
      values[i] = parseNumber(f);
      numeric = !Number.isNaN(values[i]);
    }
  }
  if (numeric) return numberColumn(name, values);
  const { codes, levels } = dictionaryEncode(fields.length, (i) => fields[i]);
  return classifyLevels(name, codes, levels);
}

/** Dictionary codes of n texts in order of first appearance; null or '' is missing (code −1). */
export function dictionaryEncode(n: number, textAt: (i: number) => string | null): { codes: Int32Array; levels: string[] } {
  const index = new Map<string, number>();
  const levels: string[] = [];
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const f = textAt(i);
    if (f === null || f === '') {
      codes[i] = -1;
      continue;
    }
    let code = index.get(f);
    if (code === undefined) {
      code = levels.length;
      index.set(f, code);
      levels.push(f);
    }
    codes[i] = code;
  }
  return { codes, levels };
}

/** Formats a stored number the way it is matched against category keys. */
export function numberKey(v: number): string | null {
  return Number.isNaN(v) ? null : String(v);
}

/** The column as numbers whatever its storage (text levels are parsed as numbers, then as dates). */
export function numericValues(col: Column): Float64Array {
  if (col.storage === 'number') return col.values;
  const parsed = col.levels.map((l) => {
    const n = parseNumber(l);
    return Number.isNaN(n) ? parseDate(l) : n;
  });
  const out = new Float64Array(col.codes.length);
  for (let i = 0; i < out.length; i++) out[i] = col.codes[i] < 0 ? NaN : parsed[col.codes[i]];
  return out;
}

/** The column as text per row (null = missing) whatever its storage. */
export function textValue(col: Column, row: number): string | null {
  if (col.storage === 'number') return numberKey(col.values[row]);
  const c = col.codes[row];
  return c < 0 ? null : col.levels[c];
}

/** Each distinct non-missing value (as `textValue` writes it) with its number of rows, in order of first appearance. */
export function textCounts(col: Column, nRows: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let r = 0; r < nRows; r++) {
    const v = textValue(col, r);
    if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

/**
 * Per row, 1 where the value (as `textValue` writes it) is `positive`, 0 where it is `negative`, -1 otherwise (missing
 * or another value); each distinct value is compared once, not each row.
 */
export function binaryLabels(col: Column, nRows: number, negative: string, positive: string): Int8Array {
  const label = (text: string | null) => (text === positive ? 1 : text === negative ? 0 : -1);
  const out = new Int8Array(nRows);
  if (col.storage === 'category') {
    const byLevel = Int8Array.from(col.levels, label);
    for (let r = 0; r < nRows; r++) out[r] = col.codes[r] < 0 ? -1 : byLevel[col.codes[r]];
    return out;
  }
  const seen = new Map<number, number>();
  for (let r = 0; r < nRows; r++) {
    const v = col.values[r];
    let l = seen.get(v);
    if (l === undefined) seen.set(v, (l = label(numberKey(v))));
    out[r] = l;
  }
  return out;
}

/**
 * The most columns a dataset may have (a CSV's header, a Parquet file's schema, a summary a request passes back):
 * every column holds buffers of its own from the header on, so a header of millions of fields (a few megabytes of
 * commas) would take the memory of a machine before a row is read, and rules over pairs of columns grow with its
 * square.
 */
export const MAX_COLUMNS = 10_000;

/** The longest name a column may have, in characters: answers (goals, labels, charts) write names many times over. */
export const MAX_COLUMN_NAME = 1_000;

/** Column-major table with typed storage. Immutable: every operation returns a new frame sharing unchanged columns. */
export class DataFrame {
  readonly nRows: number;
  readonly columns: readonly Column[];
  private readonly byName: Map<string, Column>;

  constructor(columns: readonly Column[], nRows?: number) {
    this.columns = columns;
    this.nRows = nRows ?? (columns.length ? columnLength(columns[0]) : 0);
    this.byName = new Map();
    for (const c of columns) {
      if (columnLength(c) !== this.nRows) {
        throw new EngineError(`Column ${c.name} has ${columnLength(c)} rows, expected ${this.nRows}`, c.name);
      }
      if (this.byName.has(c.name)) throw new EngineError(`The column name ${c.name} appears more than once; give every column its own name`, c.name);
      this.byName.set(c.name, c);
    }
  }

  /** A frame from plain records; each column's type is inferred from its values' text. */
  static fromRecords(records: readonly Record<string, unknown>[], names?: readonly string[]): DataFrame {
    const cols = names ?? [...new Set(records.flatMap((r) => Object.keys(r)))];
    return new DataFrame(
      cols.map((name) =>
        inferColumn(
          name,
          records.map((r) => {
            const v = r[name];
            return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? null : String(v);
          }),
        ),
      ),
      records.length,
    );
  }

  get names(): string[] {
    return this.columns.map((c) => c.name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  column(name: string): Column {
    const c = this.byName.get(name);
    if (!c) throw new EngineError(`Unknown column ${name}; columns are: ${this.names.join(', ')}`, name);
    return c;
  }

  select(names: readonly string[]): DataFrame {
    return new DataFrame(
      names.map((n) => this.column(n)),
      this.nRows,
    );
  }

  drop(names: readonly string[]): DataFrame {
    for (const n of names) this.column(n);
    const gone = new Set(names);
    return new DataFrame(
      this.columns.filter((c) => !gone.has(c.name)),
      this.nRows,
    );
  }

  /** Adds columns, replacing any of the same name in place. */
  withColumns(cols: readonly Column[]): DataFrame {
    const repl = new Map(cols.map((c) => [c.name, c]));
    const kept = this.columns.map((c) => repl.get(c.name) ?? c);
    const added = cols.filter((c) => !this.byName.has(c.name));
    return new DataFrame([...kept, ...added], this.nRows);
  }

  /** The rows at the given indices, in that order (for train/test splits and partitions). */
  take(rows: ArrayLike<number>): DataFrame {
    return new DataFrame(
      this.columns.map((c) => takeColumn(c, rows)),
      rows.length,
    );
  }

  /** One cell for display: a number, a text value, or null when missing. Dates come back as ISO strings. */
  value(row: number, name: string): string | number | null {
    const c = this.column(name);
    if (c.storage === 'category') return textValue(c, row);
    const v = c.values[row];
    if (Number.isNaN(v)) return null;
    return c.type === 'date' ? new Date(v).toISOString() : v;
  }
}

function columnLength(c: Column): number {
  return c.storage === 'number' ? c.values.length : c.codes.length;
}

/** The column's values at the given rows, in that order. */
export function takeColumn(c: Column, rows: ArrayLike<number>): Column {
  if (c.storage === 'number') {
    const v = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) v[i] = c.values[rows[i]];
    return numberColumn(c.name, v, c.type);
  }
  const codes = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) codes[i] = c.codes[rows[i]];
  return categoryColumn(c.name, codes, c.levels, c.type);
}

/** Row indices per partition value (its text), in order of the values' first appearance. */
export function groupRows(col: Column, n: number): Map<string, Int32Array> {
  const groups = new Map<string, number[]>();
  for (let r = 0; r < n; r++) {
    const key = textValue(col, r);
    if (key === null) continue;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  return new Map([...groups].map(([k, rows]) => [k, Int32Array.from(rows)]));
}
