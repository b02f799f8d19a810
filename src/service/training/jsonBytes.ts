/** A JSON body whose arrays of numbers may also be given as Float64Arrays (written as the same JSON arrays). */
export type JsonBody<T> = T extends number[] ? number[] | Float64Array : T extends object ? { [K in keyof T]: JsonBody<T[K]> } : T;

/**
 * Above this many distinct values an array's numbers are no longer remembered: such an array (scores,
 * probabilities) has few repeats, while a feature's contributions take one of its few leaf values.
 */
const MEMO_LIMIT = 4096;

/**
 * The text `JSON.stringify` writes for `value`, as UTF-8 in a buffer of its own (so it can be transferred), written
 * faster for long arrays of numbers: each distinct number is formatted once (the same shortest round-trip text) and an
 * array's text is joined in one go, known to be ASCII, so it is copied into the buffer without encoding.
 */
export function jsonBytes<T>(value: JsonBody<T>): Uint8Array<ArrayBuffer> {
  const pieces: string[] = [];
  const ascii: boolean[] = [];
  const text = (s: string, isAscii: boolean) => {
    pieces.push(s);
    ascii.push(isAscii);
  };
  write(value, text);
  let size = 0;
  for (let i = 0; i < pieces.length; i++) size += ascii[i] ? pieces[i].length : Buffer.byteLength(pieces[i]);
  const bytes = new Uint8Array(size);
  const buffer = Buffer.from(bytes.buffer);
  let at = 0;
  for (let i = 0; i < pieces.length; i++) at += buffer.write(pieces[i], at, ascii[i] ? 'latin1' : 'utf8');
  return bytes;
}

function write(value: unknown, text: (s: string, ascii: boolean) => void): void {
  if (value instanceof Float64Array || (Array.isArray(value) && value.every((v) => typeof v === 'number'))) {
    // Three pieces, not one concatenation: a joined string is flat and copied as it is, a concatenation is first
    // flattened into a copy.
    text('[', true);
    text(numbersJson(value instanceof Float64Array ? value : Float64Array.from(value as number[])), true);
    text(']', true);
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    text(JSON.stringify(value), false);
    return;
  }
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    text(`${first ? '{' : ','}${JSON.stringify(key)}:`, false);
    write(v, text);
    first = false;
  }
  text(first ? '{}' : '}', true);
}

/** The JSON of numbers between an array's brackets; non-finite ones are null, as JSON.stringify writes them. */
function numbersJson(values: Float64Array): string {
  const parts = new Array<string>(values.length);
  const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * values.length);
  const memo = new NumberTexts();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = Number.isFinite(v) ? memo.text(v, bits[2 * i], bits[2 * i + 1]) : 'null';
  }
  return parts.join(',');
}

/**
 * Each finite number's JSON text, formatted once: an open-addressing table on the number's two 32-bit halves (a Map
 * keyed by doubles boxes and hashes every lookup, several times slower), that stops remembering when full.
 */
class NumberTexts {
  private readonly bits = new Uint32Array(4 * MEMO_LIMIT);
  private readonly texts: (string | undefined)[] = new Array<string | undefined>(2 * MEMO_LIMIT).fill(undefined);
  private size = 0;

  /** The text of v, whose bits are the halves low and high. */
  text(v: number, low: number, high: number): string {
    const mask = this.texts.length - 1;
    let slot = (Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 19) & mask;
    for (;;) {
      const known = this.texts[slot];
      if (known === undefined) break;
      if (this.bits[2 * slot] === low && this.bits[2 * slot + 1] === high) return known;
      slot = (slot + 1) & mask;
    }
    const s = String(v);
    if (this.size < MEMO_LIMIT) {
      this.bits[2 * slot] = low;
      this.bits[2 * slot + 1] = high;
      this.texts[slot] = s;
      this.size++;
    }
    return s;
  }
}
