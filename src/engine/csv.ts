import { CsvTextDecoder, detectDelimiter } from './csvDialect';
import { CsvError } from './errors';
import { classifyLevels, DataFrame, numberColumn, parseNumber, type Column } from './frame';

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * Distinct texts remembered per numeric column, so a column that turns out to be text keeps its exact spelling. Past
 * this many (a measured quantity, not a code) earlier rows are written as their numbers: keeping every spelling made
 * parsing several times slower.
 */
const NUMBER_TEXT_CAP = 1024;

/**
 * Accumulates one column while rows stream in: numbers into a Float64Array until a non-number appears, then
 * dictionary codes. Only the typed arrays and the distinct texts are held, never the row texts.
 */
class ColumnBuilder {
  private length = 0;
  private numbers: Float64Array | null = new Float64Array(1024);
  private codes: Int32Array | null = new Int32Array(1024);
  private index: Map<string, number> | null = new Map();
  private levels: string[] = [];

  constructor(readonly name: string) {}

  add(field: string): void {
    const i = this.length++;
    if (this.numbers) {
      if (i === this.numbers.length) this.numbers = grow(this.numbers);
      const v = field === '' ? NaN : parseNumber(field);
      if (field !== '' && Number.isNaN(v)) this.switchToText();
      else {
        this.numbers[i] = v;
        if (this.codes) this.addCode(i, field);
        return;
      }
    }
    this.addCode(i, field);
  }

  finish(): Column {
    if (this.numbers) return numberColumn(this.name, this.numbers.slice(0, this.length));
    return classifyLevels(this.name, (this.codes as Int32Array).slice(0, this.length), this.levels);
  }

  private addCode(i: number, field: string): void {
    let codes = this.codes as Int32Array;
    if (i >= codes.length) codes = this.codes = grow(codes);
    if (field === '') {
      codes[i] = -1;
      return;
    }
    const index = this.index as Map<string, number>;
    let code = index.get(field);
    if (code === undefined) {
      code = this.levels.length;
      if (this.numbers && code >= NUMBER_TEXT_CAP) {
        this.codes = null;
        this.index = null;
        this.levels = [];
        return;
      }
      index.set(field, code);
      this.levels.push(field);
    }
    codes[i] = code;
  }

  /** The rows seen so far were numbers; from now on the column is text. */
  private switchToText(): void {
    const numbers = this.numbers as Float64Array;
    const done = this.length - 1;
    this.numbers = null;
    if (this.codes) return;
    this.codes = new Int32Array(Math.max(1024, numbers.length));
    this.index = new Map();
    this.levels = [];
    for (let i = 0; i < done; i++) this.addCode(i, Number.isNaN(numbers[i]) ? '' : String(numbers[i]));
  }
}

function grow<T extends Float64Array | Int32Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Header names made usable: trimmed, empty ones named `column_<n>`. A name given twice is an error (which of the two
 * columns a model, a refit or a chart meant could not be told apart); it names the second occurrence.
 */
function uniqueNames(raw: string[]): string[] {
  const used = new Set<string>();
  return raw.map((r, i) => {
    const name = r.trim() || `column_${i + 1}`;
    if (used.has(name)) throw new CsvError(`The header names the column ${JSON.stringify(name)} more than once; give every column its own name`, 1, i + 1);
    used.add(name);
    return name;
  });
}

/** Text read before the delimiter is decided: enough lines for csvDialect to compare them. */
const DIALECT_SAMPLE_CHARS = 64 * 1024;

/**
 * Streaming CSV reader (RFC 4180 quoting with `""` escapes, fields may span lines). The delimiter (`,` `;` tab
 * `|`) and the encoding of byte input come from csvDialect unless given. Accepts a BOM, CRLF or LF line ends, and
 * skips empty lines. The first record is the header. A row with a different number of fields than the header is an
 * error naming its line. Only an empty field is missing.
 */
export class CsvFrameBuilder {
  private readonly decoder = new CsvTextDecoder();
  private pending = '';
  private line = 1;
  private started = false;
  private builders: ColumnBuilder[] | null = null;
  private rows = 0;
  private delimiter: number;
  /** The header's fields as written (the frame's column names are trimmed and made unique). */
  header: string[] | null = null;

  constructor(options: { delimiter?: string } = {}) {
    this.delimiter = options.delimiter ? options.delimiter.charCodeAt(0) : -1;
  }

  push(chunk: string | Uint8Array): this {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk);
    this.scan(this.pending + text, false);
    return this;
  }

  finish(): DataFrame {
    this.scan(this.pending + this.decoder.decode(new Uint8Array(0), true), true);
    if (!this.builders) throw new CsvError('The CSV is empty: it has no header row', this.line, 1);
    return new DataFrame(
      this.builders.map((b) => b.finish()),
      this.rows,
    );
  }

  private scan(input: string, final: boolean): void {
    let text = input;
    if (!this.started) {
      if (!final && text.length < DIALECT_SAMPLE_CHARS) {
        this.pending = text;
        return;
      }
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (this.delimiter < 0) this.delimiter = detectDelimiter(text).charCodeAt(0);
      this.started = true;
    }
    const delimiter = this.delimiter;
    const n = text.length;
    let pos = 0;
    let recordStart = 0;
    let fields: string[] = [];
    let innerLines = 0;
    for (;;) {
      if (pos >= n) {
        if (final && fields.length > 0) {
          fields.push('');
          this.emit(fields);
          recordStart = n;
        }
        break;
      }
      let end: number;
      if (text.charCodeAt(pos) === QUOTE) {
        let value = '';
        let p = pos + 1;
        let segment = p;
        let closed = -1;
        for (;;) {
          const q = text.indexOf('"', p);
          if (q < 0) break;
          if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(segment, q + 1);
            p = segment = q + 2;
            continue;
          }
          if (q + 1 >= n && !final) break;
          value += text.slice(segment, q);
          closed = q;
          break;
        }
        if (closed < 0) {
          if (!final) break;
          throw new CsvError('A quoted field is never closed', this.line + innerLines, fields.length + 1);
        }
        innerLines += countNewlines(text, pos, closed);
        end = closed + 1;
        // Text after a closing quote is kept literally, as lenient readers do.
        while (end < n && !isFieldEnd(text.charCodeAt(end), delimiter)) end++;
        if (end >= n && !final) break;
        fields.push(value + text.slice(closed + 1, end));
      } else {
        end = pos;
        while (end < n && !isFieldEnd(text.charCodeAt(end), delimiter)) end++;
        if (end >= n && !final) break;
        fields.push(text.slice(pos, end));
      }
      if (end < n && text.charCodeAt(end) === delimiter) {
        pos = end + 1;
        continue;
      }
      pos = end;
      if (pos < n && text.charCodeAt(pos) === CR) pos++;
      if (pos < n && text.charCodeAt(pos) === LF) pos++;
      this.emit(fields);
      this.line += 1 + innerLines;
      innerLines = 0;
      fields = [];
      recordStart = pos;
    }
    this.pending = text.slice(recordStart);
  }

  private emit(fields: string[]): void {
    if (fields.length === 1 && fields[0] === '') return;
    if (!this.builders) {
      this.header = fields;
      this.builders = uniqueNames(fields).map((name) => new ColumnBuilder(name));
      return;
    }
    if (fields.length !== this.builders.length) {
      throw new CsvError(
        `Row has ${fields.length} fields but the header has ${this.builders.length}`,
        this.line,
        Math.min(fields.length, this.builders.length) + 1,
      );
    }
    for (let i = 0; i < fields.length; i++) this.builders[i].add(fields[i]);
    this.rows++;
  }
}

function isFieldEnd(c: number, delimiter: number): boolean {
  return c === delimiter || c === LF || c === CR;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** Parses a whole CSV text into a typed data frame (see CsvFrameBuilder for the rules). */
export function parseCsv(text: string): DataFrame {
  return new CsvFrameBuilder().push(text).finish();
}
