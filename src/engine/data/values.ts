import { EngineError } from '../base/errors';
import { parseNumber } from './decimal';
import { classifyLevels, numberColumn, type Column } from './frame';

/** One cell as a typed decoder hands it over (a Parquet reader, a database driver); null or undefined = missing. */
export type CellValue = number | bigint | string | boolean | Date | null | undefined;

/**
 * Builds a column from typed values so that it is the column the CSV reader builds from the same data written as
 * text: numbers stay numbers (NaN = missing), dates become epoch milliseconds, booleans the categories `true` and
 * `false`, and text (or a mix of kinds) is inferred as the CSV reader infers its fields. A list or a record in a
 * cell cannot be a feature: an EngineError names the column.
 */
export function columnFromValues(name: string, values: ArrayLike<unknown>): Column {
  const builder = new ColumnValuesBuilder(name, values.length);
  for (let i = 0; i < values.length; i++) builder.add(values[i]);
  return builder.finish();
}

type Kind = 'none' | 'number' | 'date' | 'boolean' | 'text';

/**
 * `columnFromValues` one value at a time, holding only typed arrays and the distinct texts (never the values
 * themselves), so rows streamed from a database take the memory of their column, not of their cells.
 */
export class ColumnValuesBuilder {
  private kind: Kind = 'none';
  private length = 0;
  /** Numbers or dates while every present value is one; else dictionary codes of the texts (−1 = missing). */
  private numbers: Float64Array;
  private codes: Int32Array | null = null;
  private readonly index = new Map<string, number>();
  private readonly levels: string[] = [];

  constructor(
    readonly name: string,
    expectedRows = 1024,
  ) {
    this.numbers = new Float64Array(Math.max(16, expectedRows));
  }

  add(value: unknown): void {
    const i = this.length++;
    if (value == null) return this.addMissing(i);
    const kind = kindOf(this.name, value);
    if (this.kind === 'none') this.start(kind);
    else if (kind !== this.kind && this.kind !== 'text') this.toText();
    if (this.kind === 'number' || this.kind === 'date') {
      this.numbers = room(this.numbers, i);
      this.numbers[i] = this.kind === 'number' ? Number(value) : (value as Date).getTime();
    } else {
      this.codes = room(this.codes as Int32Array, i);
      this.codes[i] = this.code(textOf(value as CellValue));
    }
  }

  finish(): Column {
    const n = this.length;
    if (this.kind === 'number' || this.kind === 'date') return numberColumn(this.name, this.numbers.slice(0, n), this.kind === 'number' ? 'numeric' : 'date');
    const codes = this.codes ? this.codes.slice(0, n) : new Int32Array(n).fill(-1);
    if (this.kind === 'boolean') return classifyLevels(this.name, codes, this.levels);
    // Text, as the CSV reader types a field: numbers when every text is one (an empty column too), else categories.
    const parsed = this.levels.map((level) => parseNumber(level));
    if (parsed.every((v) => !Number.isNaN(v))) {
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) values[i] = codes[i] < 0 ? NaN : parsed[codes[i]];
      return numberColumn(this.name, values);
    }
    return classifyLevels(this.name, codes, this.levels);
  }

  /** The first present value: the missing ones before it are written now. */
  private start(kind: Kind): void {
    this.kind = kind;
    const before = this.length - 1;
    if (kind === 'number' || kind === 'date') {
      this.numbers = room(this.numbers, before);
      this.numbers.fill(NaN, 0, before);
    } else this.codes = room(new Int32Array(this.numbers.length), before).fill(-1, 0, before);
  }

  private addMissing(i: number): void {
    if (this.kind === 'number' || this.kind === 'date') {
      this.numbers = room(this.numbers, i);
      this.numbers[i] = NaN;
    } else if (this.codes) {
      this.codes = room(this.codes, i);
      this.codes[i] = -1;
    }
  }

  /** A value of another kind arrived: every value so far becomes its text, as `columnFromValues` reads a mix. */
  private toText(): void {
    if (this.kind === 'number' || this.kind === 'date') {
      const codes = new Int32Array(this.numbers.length);
      for (let i = 0; i < this.length - 1; i++) {
        const v = this.numbers[i];
        codes[i] = Number.isNaN(v) ? -1 : this.code(textOf(this.kind === 'number' ? v : new Date(v)));
      }
      this.codes = codes;
    }
    this.kind = 'text';
  }

  private code(text: string | null): number {
    if (text === null || text === '') return -1;
    let code = this.index.get(text);
    if (code === undefined) {
      code = this.levels.length;
      this.index.set(text, code);
      this.levels.push(text);
    }
    return code;
  }
}

/** `array` with room at index `i`: at least doubled when it has none. */
function room<T extends Float64Array | Int32Array>(array: T, i: number): T {
  if (i < array.length) return array;
  const grown = new (array.constructor as new (n: number) => T)(Math.max(array.length * 2, i + 1));
  grown.set(array);
  return grown;
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

function textOf(v: CellValue): string | null {
  if (v == null) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'number' && Number.isNaN(v)) return null;
  return String(v);
}
