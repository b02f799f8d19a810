/**
 * Decimal numbers read straight from bytes, exactly as `Number(text)` reads them: the CSV reader's hot path, so it
 * never builds a string for a field that is a number.
 */

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

  /**
   * The common case, read while looking for the field's end: a number `[-]digits[.digits]` (up to 2^53 in its digits)
   * that ends at `delimiter`, a line end or the end of the bytes. Returns the index where it ends, or −1 for any other
   * field (which `read` then decides once its end is known).
   */
  readPlain(bytes: Uint8Array, start: number, delimiter: number): number {
    const n = bytes.length;
    const negative = bytes[start] === MINUS;
    let i = negative ? start + 1 : start;
    const integerStart = i;
    let mantissa = 0;
    // Every read is below n: a read past the end would make the optimised code bail out.
    let c = 0;
    for (; i < n; i++) {
      c = bytes[i];
      if (c < ZERO || c > ZERO + 9) break;
      mantissa = mantissa * 10 + (c - ZERO);
    }
    const integerDigits = i - integerStart;
    let fractionDigits = 0;
    const dot = i < n && c === DOT;
    if (dot) {
      const fractionStart = ++i;
      for (; i < n; i++) {
        c = bytes[i];
        if (c < ZERO || c > ZERO + 9) break;
        mantissa = mantissa * 10 + (c - ZERO);
      }
      fractionDigits = i - fractionStart;
    }
    if (i < n && c !== delimiter && c !== LF && c !== CR) return -1;
    const digits = integerDigits + fractionDigits;
    if (digits === 0) return -1;
    if (mantissa >= EXACT_INTEGERS || fractionDigits > 22) this.value = Number(asciiText(bytes, start, i));
    else {
      const value = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits];
      this.value = negative ? -value : value;
    }
    this.spelling = digits <= ROUND_TRIP_DIGITS ? plainSpelling(bytes, integerStart, integerDigits, dot, fractionDigits, this.value) : SPELLED_OTHERWISE;
    return i;
  }

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
    let mantissa = 0;
    let c = 0;
    while (i < stop && isDigit((c = bytes[i]))) {
      mantissa = mantissa * 10 + (c - ZERO);
      i++;
    }
    const integerDigits = i - integerStart;
    let fractionDigits = 0;
    const dot = i < stop && bytes[i] === DOT;
    if (dot) {
      const fractionStart = ++i;
      while (i < stop && isDigit((c = bytes[i]))) {
        mantissa = mantissa * 10 + (c - ZERO);
        i++;
      }
      fractionDigits = i - fractionStart;
    }
    if (integerDigits + fractionDigits === 0) return false;
    let exponent = 0;
    const scientific = i < stop && (bytes[i] | 32) === 101;
    if (scientific) {
      const exponentSign = bytes[++i];
      if (exponentSign === PLUS || exponentSign === MINUS) i++;
      const exponentStart = i;
      while (i < stop && isDigit((c = bytes[i]))) {
        if (exponent < EXPONENT_CAP) exponent = exponent * 10 + (c - ZERO);
        i++;
      }
      if (i === exponentStart) return false;
      if (exponentSign === MINUS) exponent = -exponent;
    }
    if (i !== stop) return false;
    const power = exponent - fractionDigits;
    let value: number;
    if (mantissa < EXACT_INTEGERS && power >= -22 && power <= 22) {
      value = power < 0 ? mantissa / POWERS_OF_TEN[-power] : mantissa * POWERS_OF_TEN[power];
      if (sign === MINUS) value = -value;
    } else {
      value = Number(asciiText(bytes, start, end));
    }
    this.value = value;
    this.spelling =
      !scientific && sign !== PLUS && !padded && integerDigits + fractionDigits <= ROUND_TRIP_DIGITS
        ? plainSpelling(bytes, integerStart, integerDigits, dot, fractionDigits, value)
        : SPELLED_OTHERWISE;
    return true;
  }
}

/**
 * How a plain `[-]digits[.digits]` text of at most 15 significant digits is spelled again from its value: by String()
 * (SPELLED_BY_STRING), by toFixed(k) (k, e.g. "1.50" or "0.0000001", exact since the value has at most 15 significant
 * digits), or neither ("007", ".5", "5.", "-0": SPELLED_OTHERWISE).
 */
function plainSpelling(bytes: Uint8Array, integerStart: number, integerDigits: number, dot: boolean, fractionDigits: number, value: number): number {
  if (integerDigits === 0) return SPELLED_OTHERWISE;
  const leadingZero = bytes[integerStart] === ZERO;
  if ((leadingZero && integerDigits > 1) || Object.is(value, -0)) return SPELLED_OTHERWISE;
  if (!dot) return SPELLED_BY_STRING;
  if (fractionDigits === 0) return SPELLED_OTHERWISE;
  const fractionStart = integerStart + integerDigits + 1;
  if (bytes[fractionStart + fractionDigits - 1] === ZERO) return fractionDigits;
  if (!leadingZero) return SPELLED_BY_STRING;
  let zeros = 0;
  while (bytes[fractionStart + zeros] === ZERO) zeros++;
  return zeros <= MAX_LEADING_FRACTION_ZEROS ? SPELLED_BY_STRING : fractionDigits;
}

/** Text of bytes known to be ASCII. */
function asciiText(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n > SHORT_TEXT) return asciiDecoder.decode(bytes.subarray(start, end));
  charCodes.length = n;
  for (let i = 0; i < n; i++) charCodes[i] = bytes[start + i];
  // One call on a plain array makes a flat string: cheaper than char by char or a subarray, and Number() reads it.
  return String.fromCharCode.apply(null, charCodes);
}

const SHORT_TEXT = 256;
const charCodes: number[] = [];
const asciiDecoder = new TextDecoder();

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
