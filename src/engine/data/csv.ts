import { ColumnBuilder } from './csvColumn';
import { CsvUtf8Input, DIALECT_SAMPLE_BYTES, detectDelimiter, utf8Bytes, utf8Text } from './csvDialect';
import { DecimalReader, SPELLED_OTHERWISE } from './decimal';
import { CsvError } from '../base/errors';
import { DataFrame, MAX_COLUMN_NAME, MAX_COLUMNS } from './frame';

const QUOTE = 34;
const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Header names made usable: trimmed, empty ones named `column_<n>`. A name given twice is an error (which of the two
 * columns a model, a refit or a chart meant could not be told apart); it names the second occurrence.
 */
function uniqueNames(raw: string[], line: number): string[] {
  const used = new Set<string>();
  return raw.map((r, i) => {
    const name = r.trim() || `column_${i + 1}`;
    if (used.has(name)) throw new CsvError(`The header names the column ${JSON.stringify(name)} more than once; give every column its own name`, line, i + 1);
    used.add(name);
    return name;
  });
}

/**
 * What the whole input holds, known before it is read: its size in bytes and an estimate of its data rows. With it the
 * columns are allocated once at their final size; a wrong estimate costs a copy, never a wrong result.
 */
export interface ExpectedSize {
  rows: number;
  bytes: number;
}
const sampleDecoder = new TextDecoder();

/**
 * Streaming CSV reader (RFC 4180 quoting with `""` escapes, fields may span lines). The delimiter (`,` `;` tab
 * `|`) and the encoding of byte input come from csvDialect unless given. Accepts a BOM, CRLF or LF line ends, and
 * skips empty lines. The first record is the header. A row with a different number of fields than the header is an
 * error naming its line. Only an empty field is missing.
 *
 * It reads UTF-8 bytes (other input is converted) and hands each field straight to its column: a number is read
 * from the bytes, and only text fields become strings.
 */
export class CsvFrameBuilder {
  private readonly input = new CsvUtf8Input();
  private readonly reader = new DecimalReader();
  /** Bytes of a record cut by the end of the last chunk (a copy: a caller may reuse its chunk). */
  private pending: Uint8Array = new Uint8Array(0);
  /** The cut record followed by the next chunk, in one array reused from chunk to chunk. */
  private joined = new Uint8Array(0);
  /** File offset of the first pending byte, for the offset of an invalid UTF-8 byte. */
  private fileOffset = 0;
  private line = 1;
  private started = false;
  private builders: ColumnBuilder[] | null = null;
  private headerFields: string[] = [];
  private rows = 0;
  private delimiter: number;
  /** The header's fields as written (the frame's column names are trimmed and made unique). */
  header: string[] | null = null;

  private readonly expected: ExpectedSize | null;

  constructor(options: { delimiter?: string; expected?: ExpectedSize } = {}) {
    this.delimiter = options.delimiter ? options.delimiter.charCodeAt(0) : -1;
    this.expected = options.expected ?? null;
  }

  push(chunk: string | Uint8Array): this {
    this.feed(typeof chunk === 'string' ? utf8Bytes(chunk) : this.input.push(chunk, false), false);
    return this;
  }

  finish(): DataFrame {
    this.feed(this.input.push(new Uint8Array(0), true), true);
    if (!this.builders) throw new CsvError('The CSV is empty: it has no header row', this.line, 1);
    return new DataFrame(
      this.builders.map((b) => b.finish()),
      this.rows,
    );
  }

  private feed(bytes: Uint8Array, final: boolean): void {
    if (!this.started && this.pending.length === 0) this.fileOffset = this.input.skipped;
    // One kind of array (not a Buffer one time and a Uint8Array the next) keeps the reading code monomorphic.
    let data = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.pending.length > 0) {
      const length = this.pending.length + bytes.length;
      if (this.joined.length < length) this.joined = new Uint8Array(Math.max(length, this.joined.length * 2));
      this.joined.set(this.pending);
      this.joined.set(bytes, this.pending.length);
      data = this.joined.subarray(0, length);
    }
    if (!this.started) {
      if (!final && data.length < DIALECT_SAMPLE_BYTES) {
        this.pending = data.slice();
        return;
      }
      if (BOM.every((b, i) => data[i] === b)) {
        data = data.subarray(BOM.length);
        this.fileOffset += BOM.length;
      }
      if (this.delimiter < 0) this.delimiter = detectDelimiter(sampleDecoder.decode(data.subarray(0, DIALECT_SAMPLE_BYTES))).charCodeAt(0);
      this.started = true;
    }
    const consumed = this.scan(data, final);
    this.forgetPartialRecord();
    this.fileOffset += consumed;
    this.pending = data.slice(consumed);
  }

  /**
   * Reads the complete records of `bytes` into the columns; returns how many bytes they took. The fields of a record
   * cut by the end are in the columns too, until forgetPartialRecord.
   */
  private scan(bytes: Uint8Array, final: boolean): number {
    const n = bytes.length;
    const delimiter = this.delimiter;
    const reader = this.reader;
    let pos = 0;
    let consumed = 0;
    records: while (pos < n) {
      const builders = this.builders;
      const width = builders ? builders.length : 0;
      let column = 0;
      let innerLines = 0;
      let lastEmpty = false;
      for (;;) {
        let end: number;
        if (bytes[pos] === QUOTE) {
          const close = closingQuote(bytes, pos, final);
          if (close < 0) {
            if (!final) break records;
            throw new CsvError('A quoted field is never closed', this.line + innerLines, column + 1);
          }
          innerLines += countNewlines(bytes, pos, close);
          end = close + 1;
          // Text after a closing quote is kept literally, as lenient readers do.
          while (end < n && !isFieldEnd(bytes[end], delimiter)) end++;
          if (end >= n && !final) break records;
          if (end === close + 1 && !quotedFieldEscapes) {
            // No escaped quote and nothing after the closing one: the field is the bytes between the quotes.
            lastEmpty = close === pos + 1;
            this.addField(column, bytes, pos + 1, close);
          } else {
            const quoted = utf8Text(bytes, pos + 1, close, this.fileOffset).replace(/""/g, '"');
            this.addText(column, quoted + utf8Text(bytes, close + 1, end, this.fileOffset));
            lastEmpty = false;
          }
        } else {
          const builder = column < width ? (builders as ColumnBuilder[])[column] : null;
          const numeric = builder !== null && builder.numbers !== null;
          end = numeric ? reader.readPlain(bytes, pos, delimiter) : -1;
          if (end >= 0) {
            if (end >= n && !final) break records;
            lastEmpty = false;
            this.addNumber(builder as ColumnBuilder, bytes, pos, end);
          } else {
            end = pos;
            while (end < n && !isFieldEnd(bytes[end], delimiter)) end++;
            if (end >= n && !final) break records;
            lastEmpty = end === pos;
            this.addField(column, bytes, pos, end);
          }
        }
        column++;
        if (end < n && bytes[end] === delimiter) {
          pos = end + 1;
          if (pos < n) continue;
          if (!final) break records;
          this.addText(column++, '');
          end = n;
        }
        if (end < n && bytes[end] === CR) {
          if (end + 1 >= n && !final) break records;
          end++;
        }
        if (end < n && bytes[end] === LF) end++;
        this.endRecord(column, lastEmpty, innerLines);
        pos = consumed = end;
        continue records;
      }
    }
    return consumed;
  }

  /** Adds the field `bytes[start, end)` (unquoted) to its column: a number when it reads as one there. */
  private addField(column: number, bytes: Uint8Array, start: number, end: number): void {
    const builder = this.builders !== null && column < this.builders.length ? this.builders[column] : null;
    if (builder === null) this.addText(column, utf8Text(bytes, start, end, this.fileOffset));
    else if (builder.numbers !== null && this.reader.read(bytes, start, end)) this.addNumber(builder, bytes, start, end);
    else builder.addNonNumber(bytes, start, end, this.fileOffset);
  }

  /** Adds the number the reader has just read from `bytes[start, end)`, with its text when not written from its value. */
  private addNumber(builder: ColumnBuilder, bytes: Uint8Array, start: number, end: number): void {
    const { value, spelling } = this.reader;
    builder.addNumber(value, spelling === SPELLED_OTHERWISE && builder.keepsSpellings ? utf8Text(bytes, start, end, this.fileOffset) : spelling);
  }

  private addText(column: number, text: string): void {
    if (!this.builders) {
      if (this.headerFields.length === MAX_COLUMNS) {
        throw new CsvError(`The header has more than ${MAX_COLUMNS.toLocaleString('en-US')} columns, the most a dataset may have`, this.line, MAX_COLUMNS + 1);
      }
      if (text.length > MAX_COLUMN_NAME) {
        throw new CsvError(`The header names a column in ${text.length} characters, more than the ${MAX_COLUMN_NAME} a column name may have`, this.line, column + 1);
      }
      this.headerFields.push(text);
    } else if (column < this.builders.length) this.builders[column].add(text);
  }

  private endRecord(columns: number, lastEmpty: boolean, innerLines: number): void {
    const line = this.line;
    this.line += 1 + innerLines;
    if (columns === 1 && lastEmpty) {
      this.forgetPartialRecord();
      return;
    }
    if (!this.builders) {
      this.header = this.headerFields;
      const names = uniqueNames(this.headerFields, line);
      // A record of n fields takes at least n bytes (its delimiters and line end), which bounds a wrong estimate.
      const rows = this.expected ? Math.min(this.expected.rows, Math.floor(this.expected.bytes / names.length)) : 0;
      this.builders = names.map((name) => new ColumnBuilder(name, rows));
      this.headerFields = [];
      return;
    }
    if (columns !== this.builders.length) {
      throw new CsvError(`Row has ${columns} fields but the header has ${this.builders.length}`, line, Math.min(columns, this.builders.length) + 1);
    }
    this.rows++;
  }

  private forgetPartialRecord(): void {
    if (!this.builders) this.headerFields = [];
    else for (const b of this.builders) b.truncate(this.rows);
  }
}

function isFieldEnd(c: number, delimiter: number): boolean {
  return c === delimiter || c === LF || c === CR;
}

/** Whether the field of the last closingQuote call holds an escaped `""` (a module flag keeps the scan allocation-free). */
let quotedFieldEscapes = false;

/**
 * The closing quote of the field opened at `open`, or −1 when the bytes end first (or, unless `final`, end right
 * after a quote that may be the first half of an escaped `""`). Sets quotedFieldEscapes.
 */
function closingQuote(bytes: Uint8Array, open: number, final: boolean): number {
  const n = bytes.length;
  quotedFieldEscapes = false;
  for (let p = open + 1; ; ) {
    const q = bytes.indexOf(QUOTE, p);
    if (q < 0) return -1;
    if (q + 1 >= n) return final ? q : -1;
    if (bytes[q + 1] !== QUOTE) return q;
    quotedFieldEscapes = true;
    p = q + 2;
  }
}

function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (bytes[i] === LF) count++;
  return count;
}

/** Parses a whole CSV text into a typed data frame (see CsvFrameBuilder for the rules). */
export function parseCsv(text: string): DataFrame {
  return new CsvFrameBuilder().push(text).finish();
}
