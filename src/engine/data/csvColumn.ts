import { ByteDictionary, resized } from './byteDictionary';
import { utf8Bytes, utf8Text } from './csvDialect';
import { parseNumber, SPELLED_BY_STRING, SPELLED_OTHERWISE } from './decimal';
import { classifyLevels, numberColumn, type Column } from './frame';

/**
 * Distinct texts remembered per numeric column that neither String() nor toFixed() give back ("007", "5."), so a
 * column that turns out to be text keeps its exact texts. Past this many (a measured quantity, not a code) earlier
 * rows are written as their numbers: keeping every text made parsing several times slower.
 */
const SPELLING_CAP = 1024;
const INITIAL_ROWS = 1024;
/** A row's entry in `spellingOf` when its text is value.toFixed(k): FIXED − k. */
const FIXED = -3;

/**
 * Accumulates one column while rows stream in: numbers into a Float64Array until a non-number appears, then
 * dictionary codes. Only the typed arrays and the distinct texts are held, never the row texts.
 */
export class ColumnBuilder {
  length = 0;
  /** Non-null while every field so far was a number or empty. */
  numbers: Float64Array | null;
  /**
   * While numeric, once a number was not written as String() writes it: per row SPELLED_BY_STRING, FIXED − k for
   * toFixed(k), or the index of its text in `spellings`.
   */
  private spellingOf: Int16Array | null = null;
  private spellingIndex: Map<string, number> | null = new Map();
  private spellings: string[] = [];
  private codes: Int32Array | null = null;
  private readonly dictionary = new ByteDictionary();
  private levels: string[] = [];

  /** `expectedRows`: the rows the column will likely hold, so its arrays are allocated once at their final size. */
  constructor(
    readonly name: string,
    expectedRows = 0,
  ) {
    this.numbers = new Float64Array(Math.max(INITIAL_ROWS, expectedRows));
  }

  /** Whether a number's text that is SPELLED_OTHERWISE should still be handed over. */
  get keepsSpellings(): boolean {
    return this.spellingIndex !== null;
  }

  /**
   * Appends a number to a numeric column. `spelling` says how its text is written again from the value (see
   * DecimalReader.spelling), or is the text itself.
   */
  addNumber(value: number, spelling: number | string): void {
    const i = this.length++;
    let numbers = this.numbers as Float64Array;
    if (i === numbers.length) {
      numbers = this.numbers = grow(numbers);
      if (this.spellingOf) this.spellingOf = grow(this.spellingOf);
    }
    numbers[i] = value;
    if (spelling === SPELLED_BY_STRING) {
      if (this.spellingOf) this.spellingOf[i] = SPELLED_BY_STRING;
    } else if (this.keepsSpellings && spelling !== SPELLED_OTHERWISE) {
      this.rememberSpelling(i, spelling);
    }
  }

  /** Appends a field's text ('' = missing): a number while the column is numeric, else a dictionary code. */
  add(field: string): void {
    if (this.numbers && field !== '') {
      const value = parseNumber(field);
      if (!Number.isNaN(value)) return this.addNumber(value, String(value) === field ? SPELLED_BY_STRING : field);
    }
    const bytes = utf8Bytes(field);
    this.addNonNumber(bytes, 0, bytes.length, 0, field);
  }

  /**
   * Appends a field that is not a number (or is empty, i.e. missing), from its UTF-8 bytes at `fileOffset` in the
   * file; `text` is its string when already made.
   */
  addNonNumber(bytes: Uint8Array, start: number, end: number, fileOffset: number, text: string | null = null): void {
    if (this.numbers) {
      if (start === end) return this.addNumber(NaN, SPELLED_BY_STRING);
      this.switchToText();
    }
    this.addCode(this.length++, bytes, start, end, fileOffset, text);
  }

  /** Forgets the rows from `rows` on (a record cut by the end of a chunk is read again with the next one). */
  truncate(rows: number): void {
    this.length = Math.min(this.length, rows);
  }

  /** The column; its arrays are handed over (not copied) when they hold exactly its rows. */
  finish(): Column {
    if (this.numbers) return numberColumn(this.name, exactly(this.numbers, this.length));
    return classifyLevels(this.name, exactly(this.codes as Int32Array, this.length), this.levels);
  }

  private rememberSpelling(row: number, spelling: number | string): void {
    let entry: number;
    if (typeof spelling === 'number') entry = FIXED - spelling;
    else {
      const index = this.spellingIndex as Map<string, number>;
      const known = index.get(spelling);
      if (known !== undefined) entry = known;
      else if (this.spellings.length < SPELLING_CAP) {
        entry = this.spellings.length;
        index.set(spelling, entry);
        this.spellings.push(spelling);
      } else {
        this.spellingIndex = null;
        this.spellingOf = null;
        this.spellings = [];
        return;
      }
    }
    if (!this.spellingOf) this.spellingOf = new Int16Array((this.numbers as Float64Array).length).fill(SPELLED_BY_STRING);
    this.spellingOf[row] = entry;
  }

  /** The text a numeric row was written as (as far as it was remembered). */
  private spelledNumber(row: number): string {
    const value = (this.numbers as Float64Array)[row];
    if (Number.isNaN(value)) return '';
    const entry = this.spellingOf ? this.spellingOf[row] : SPELLED_BY_STRING;
    if (entry === SPELLED_BY_STRING) return String(value);
    return entry >= 0 ? this.spellings[entry] : value.toFixed(FIXED - entry);
  }

  private addCode(row: number, bytes: Uint8Array, start: number, end: number, fileOffset: number, text: string | null): void {
    let codes = this.codes as Int32Array;
    if (row >= codes.length) codes = this.codes = grow(codes);
    if (start === end) {
      codes[row] = -1;
      return;
    }
    const code = this.dictionary.code(bytes, start, end);
    if (code === this.levels.length) this.levels.push(text ?? utf8Text(bytes, start, end, fileOffset));
    codes[row] = code;
  }

  /** The rows seen so far were numbers; from now on the column is text. */
  private switchToText(): void {
    const texts = Array.from({ length: this.length }, (_, i) => this.spelledNumber(i));
    this.codes = new Int32Array(Math.max(INITIAL_ROWS, (this.numbers as Float64Array).length));
    this.numbers = null;
    this.spellingOf = null;
    this.spellingIndex = null;
    this.spellings = [];
    texts.forEach((text, i) => {
      const bytes = utf8Bytes(text);
      this.addCode(i, bytes, 0, bytes.length, 0, text);
    });
  }
}

function exactly<T extends Float64Array | Int32Array>(a: T, length: number): T {
  return a.length === length ? a : (a.slice(0, length) as T);
}

function grow<T extends Float64Array | Int32Array | Int16Array>(a: T): T {
  return resized(a, a.length * 2);
}
