/**
 * Decimal numbers read straight from bytes, exactly as `Number(text)` reads them: the CSV reader's hot path, so it
 * never builds a string for a field that is a number.
 */
import { utf8Text } from './csvDialect';

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;

const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const LF = 10;
const CR = 13;
/** A number's text is String(value). */
export const SPELLED_BY_STRING = -1;
/** A number's text is neither String(value) nor value.toFixed(k). */
export const SPELLED_OTHERWISE = -2;
/** Integers below this are exact doubles, and so is every step of accumulating one digit by digit. */
const EXACT_INTEGERS = 2 ** 53;
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Beyond this the exponent only decides overflow or underflow, which Number() works out. */
const EXPONENT_CAP = 100_000;
/** Significant digits that any double round-trips through (so String() of the value gives them back). */
const ROUND_TRIP_DIGITS = 15;
/** String() writes numbers below 1e-6 with an exponent: "0." and at most five more zeros are written out. */
const MAX_LEADING_FRACTION_ZEROS = 5;

/**
 * Reads one field as a plain decimal number `[space][+-](digits[.digits]|.digits)[(e|E)[+-]digits][space]` ("NA",
 * "inf" and hex are not numbers). When the digits form an integer below 2^53 and the power of ten is at most 22 the
 * value is one multiplication or division of two exact doubles, hence correctly rounded: the same double Number()
 * gives. Anything else goes through Number() on the field's text.
 */
export class DecimalReader {
  /** The number read by the last successful `read`. */
  value = 0;
  /**
   * How the field's text is written again from `value`: SPELLED_BY_STRING, k ≥ 0 for value.toFixed(k), or
   * SPELLED_OTHERWISE (also when not sure).
   */
  spelling = SPELLED_BY_STRING;

  /** The digits of the last `digits[.digits]` read, as one integer (exact below 2^53), and how they were written. */
  private mantissa = 0;
  private integerDigits = 0;
  private fractionDigits = 0;
  private dot = false;

  /**
   * The common case, read while looking for the field's end: a number `[-]digits[.digits]` that ends at
   * `delimiter`, a line end or the end of the bytes. Returns the index where it ends, or −1 for any other field
   * (which `read` then decides once its end is known).
   */
  readPlain(bytes: Uint8Array, start: number, delimiter: number): number {
    const negative = bytes[start] === MINUS;
    const integerStart = negative ? start + 1 : start;
    const i = this.readDigits(bytes, integerStart, bytes.length);
    if (i < bytes.length) {
      const c = bytes[i];
      if (c !== delimiter && c !== LF && c !== CR) return -1;
    }
    if (this.integerDigits + this.fractionDigits === 0) return -1;
    this.setValue(negative, 0, bytes, start, i);
    this.spelling = this.plainSpelling(bytes, integerStart);
    return i;
  }

  /** Reads `bytes[start, end)` as a whole; false when it is not a number. */
  read(bytes: Uint8Array, start: number, end: number): boolean {
    let i = start;
    let stop = end;
    while (i < stop && isSpace(bytes[i])) i++;
    while (stop > i && isSpace(bytes[stop - 1])) stop--;
    if (i >= stop) return false;
    const padded = i > start || stop < end;
    const sign = bytes[i];
    if (sign === PLUS || sign === MINUS) i++;
    const integerStart = i;
    i = this.readDigits(bytes, i, stop);
    if (this.integerDigits + this.fractionDigits === 0) return false;
    let exponent = 0;
    const scientific = i < stop && (bytes[i] | 32) === 101;
    if (scientific) {
      const exponentSign = bytes[++i];
      if (exponentSign === PLUS || exponentSign === MINUS) i++;
      const exponentStart = i;
      for (let c = 0; i < stop && isDigit((c = bytes[i])); i++) if (exponent < EXPONENT_CAP) exponent = exponent * 10 + (c - ZERO);
      if (i === exponentStart) return false;
      if (exponentSign === MINUS) exponent = -exponent;
    }
    if (i !== stop) return false;
    this.setValue(sign === MINUS, exponent, bytes, start, end);
    this.spelling = !scientific && sign !== PLUS && !padded ? this.plainSpelling(bytes, integerStart) : SPELLED_OTHERWISE;
    return true;
  }

  /** Reads `digits[.digits]` from `start` (stopping before `stop`); returns where it stopped. */
  private readDigits(bytes: Uint8Array, start: number, stop: number): number {
    let mantissa = 0;
    let i = start;
    // Every read is below stop: a read past the end of the bytes would make the optimised code bail out.
    let c = 0;
    for (; i < stop; i++) {
      c = bytes[i];
      if (!isDigit(c)) break;
      mantissa = mantissa * 10 + (c - ZERO);
    }
    this.integerDigits = i - start;
    this.dot = i < stop && c === DOT;
    this.fractionDigits = 0;
    if (this.dot) {
      const fractionStart = ++i;
      for (; i < stop; i++) {
        c = bytes[i];
        if (!isDigit(c)) break;
        mantissa = mantissa * 10 + (c - ZERO);
      }
      this.fractionDigits = i - fractionStart;
    }
    this.mantissa = mantissa;
    return i;
  }

  /**
   * The value of the digits read times 10^exponent: one exact operation when the digits are below 2^53 and the power
   * of ten at most 22, else Number() of the text `bytes[start, end)`.
   */
  private setValue(negative: boolean, exponent: number, bytes: Uint8Array, start: number, end: number): void {
    const power = exponent - this.fractionDigits;
    const mantissa = this.mantissa;
    if (mantissa < EXACT_INTEGERS && power >= -22 && power <= 22) {
      const value = power < 0 ? mantissa / POWERS_OF_TEN[-power] : mantissa * POWERS_OF_TEN[power];
      this.value = negative ? -value : value;
    } else {
      // The bytes read are ASCII, so no file offset is ever named.
      this.value = Number(utf8Text(bytes, start, end, 0));
    }
  }

  /**
   * How the plain `[-]digits[.digits]` text just read is spelled again from its value: by String() (SPELLED_BY_STRING),
   * by toFixed(k) (k, e.g. "1.50" or "0.0000001"), or neither ("007", ".5", "5.", "-0": SPELLED_OTHERWISE). Only
   * texts of at most 15 significant digits are judged, so that toFixed() and String() give their digits back exactly.
   */
  private plainSpelling(bytes: Uint8Array, integerStart: number): number {
    const { integerDigits, fractionDigits } = this;
    if (integerDigits === 0 || integerDigits + fractionDigits > ROUND_TRIP_DIGITS) return SPELLED_OTHERWISE;
    const leadingZero = bytes[integerStart] === ZERO;
    if ((leadingZero && integerDigits > 1) || Object.is(this.value, -0)) return SPELLED_OTHERWISE;
    if (!this.dot) return SPELLED_BY_STRING;
    if (fractionDigits === 0) return SPELLED_OTHERWISE;
    const fractionStart = integerStart + integerDigits + 1;
    if (bytes[fractionStart + fractionDigits - 1] === ZERO) return fractionDigits;
    if (!leadingZero) return SPELLED_BY_STRING;
    let zeros = 0;
    while (bytes[fractionStart + zeros] === ZERO) zeros++;
    return zeros <= MAX_LEADING_FRACTION_ZEROS ? SPELLED_BY_STRING : fractionDigits;
  }
}

const reader = new DecimalReader();
let scratch = new Uint8Array(64);

/** A text's number by the same rules as DecimalReader, or NaN when it is not a plain decimal number. */
export function parseNumber(text: string): number {
  const n = text.length;
  if (n > scratch.length) scratch = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return NaN;
    scratch[i] = c;
  }
  return reader.read(scratch, 0, n) ? reader.value : NaN;
}
