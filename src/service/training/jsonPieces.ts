/** A JSON body whose arrays of numbers may also be given as Float64Arrays (written as the same JSON arrays). */
export type JsonBody<T> = T extends number[] ? number[] | Float64Array : T extends object ? { [K in keyof T]: JsonBody<T[K]> } : T;

/**
 * Above this many distinct values an array's numbers are no longer remembered: such an array (scores,
 * probabilities) has few repeats, while a feature's contributions take one of its few leaf values.
 */
const MEMO_LIMIT = 4096;
/** Words of 4 bytes that hold the longest JSON text of a finite number, "-0.0000012345678901234567" (25 bytes). */
const NUMBER_WORDS = 7;
const CHUNK_BYTES = 1024 * 1024;
const COMMA = 0x2c;
const NULL = 'null';

/**
 * The UTF-8 text `JSON.stringify` writes for `value`, in pieces that share a few buffers of their own (so they can
 * be transferred): even indices hold the text around the row columns, odd ones each row column's values without
 * brackets. Every array is a row column except the values of the top-level `wholeKeys`, written whole. Long arrays
 * of numbers are written faster: each distinct number is formatted once (the same shortest round-trip text) and its
 * bytes copied a word at a time.
 */
export function jsonPieces<T>(value: JsonBody<T>, wholeKeys: ReadonlySet<string> = new Set()): Uint8Array<ArrayBuffer>[] {
  const writer = new PieceWriter();
  writeValue(value, writer, wholeKeys);
  writer.cut();
  return writer.pieces;
}

/**
 * The body of all rows from the pieces (`jsonPieces`) of the same body over consecutive row ranges, in order: the
 * text around the columns from the first part, each column's values from every part, comma-separated. Nothing is
 * copied; empty pieces are left out.
 */
export function joinRowParts(parts: readonly (readonly Uint8Array<ArrayBuffer>[])[]): Uint8Array<ArrayBuffer>[] {
  const [first] = parts;
  if (parts.some((p) => p.length !== first.length)) throw new Error('The parts of a body have different numbers of columns');
  const comma = new Uint8Array([COMMA]);
  const joined: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < first.length; i++) {
    const pieces = i % 2 === 0 ? [first[i]] : parts.map((p) => p[i]).filter((piece) => piece.length > 0);
    pieces.forEach((piece, k) => {
      if (k > 0) joined.push(comma);
      if (piece.length > 0) joined.push(piece);
    });
  }
  return joined;
}

function writeValue(value: unknown, writer: PieceWriter, wholeKeys: ReadonlySet<string> | null): void {
  if (value instanceof Float64Array || Array.isArray(value)) {
    writer.text('[');
    writer.cut();
    if (value instanceof Float64Array) writer.numbers(value);
    else if (value.every((v) => typeof v === 'number')) writer.numbers(Float64Array.from(value as number[]));
    else writer.text(JSON.stringify(value).slice(1, -1));
    writer.cut();
    writer.text(']');
    return;
  }
  if (value === null || typeof value !== 'object') {
    writer.text(JSON.stringify(value));
    return;
  }
  let first = true;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    writer.text(`${first ? '{' : ','}${JSON.stringify(key)}:`);
    if (wholeKeys?.has(key)) writer.text(JSON.stringify(v));
    else writeValue(v, writer, null);
    first = false;
  }
  writer.text(first ? '{}' : '}');
}

/** Writes text into chunks of its own, cut into pieces. */
class PieceWriter {
  readonly pieces: Uint8Array<ArrayBuffer>[] = [];
  private chunk = Buffer.allocUnsafeSlow(0);
  private view = new DataView(this.chunk.buffer);
  private start = 0;
  private at = 0;

  text(s: string): void {
    this.reserve(Buffer.byteLength(s));
    this.at += this.chunk.write(s, this.at, 'utf8');
  }

  /** The numbers' JSON texts, comma-separated; non-finite ones are null, as JSON.stringify writes them. */
  numbers(values: Float64Array): void {
    // Each text may be written as whole words past its end (overwritten by the next one).
    this.reserve(values.length * (4 * NUMBER_WORDS + 1) + 4 * NUMBER_WORDS);
    this.at = new NumberTexts().write(values, this.chunk, this.view, this.at);
  }

  /** Ends the current piece (possibly empty). */
  cut(): void {
    this.pieces.push(new Uint8Array(this.chunk.buffer, this.chunk.byteOffset + this.start, this.at - this.start));
    this.start = this.at;
  }

  /** Room for `bytes` more bytes; the current piece moves to a new chunk when this one is full. */
  private reserve(bytes: number): void {
    if (this.at + bytes <= this.chunk.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, this.at - this.start + bytes));
    this.chunk.copy(next, 0, this.start, this.at);
    this.at -= this.start;
    this.start = 0;
    this.chunk = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.length);
  }
}

/**
 * Each finite number's JSON text, formatted once and kept as words: an open-addressing table on the number's two
 * 32-bit halves (a Map keyed by doubles boxes and hashes every lookup, several times slower), that stops remembering
 * when full.
 */
class NumberTexts {
  private readonly keys = new Uint32Array(4 * MEMO_LIMIT);
  private readonly entryOf = new Int32Array(2 * MEMO_LIMIT).fill(-1);
  private readonly words = new Uint32Array(NUMBER_WORDS * MEMO_LIMIT);
  private readonly lengths = new Uint8Array(MEMO_LIMIT);
  private size = 0;

  /** Writes the values at `at` of `bytes` (seen through `view`) and returns where they end. */
  write(values: Float64Array, bytes: Uint8Array, view: DataView, at: number): number {
    const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * values.length);
    const { keys, entryOf, words, lengths } = this;
    const mask = entryOf.length - 1;
    for (let i = 0; i < values.length; i++) {
      if (i > 0) bytes[at++] = COMMA;
      const v = values[i];
      if (!Number.isFinite(v)) {
        for (let j = 0; j < NULL.length; j++) bytes[at++] = NULL.charCodeAt(j);
        continue;
      }
      const low = bits[2 * i];
      const high = bits[2 * i + 1];
      let slot = (Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) >>> 19) & mask;
      let entry = entryOf[slot];
      while (entry >= 0 && (keys[2 * slot] !== low || keys[2 * slot + 1] !== high)) {
        slot = (slot + 1) & mask;
        entry = entryOf[slot];
      }
      if (entry >= 0) {
        const w = NUMBER_WORDS * entry;
        view.setUint32(at, words[w], true);
        view.setUint32(at + 4, words[w + 1], true);
        view.setUint32(at + 8, words[w + 2], true);
        view.setUint32(at + 12, words[w + 3], true);
        view.setUint32(at + 16, words[w + 4], true);
        view.setUint32(at + 20, words[w + 5], true);
        view.setUint32(at + 24, words[w + 6], true);
        at += lengths[entry];
        continue;
      }
      const s = String(v);
      for (let j = 0; j < s.length; j++) bytes[at + j] = s.charCodeAt(j);
      if (this.size < MEMO_LIMIT) {
        const w = NUMBER_WORDS * this.size;
        for (let k = 0; k < NUMBER_WORDS; k++) words[w + k] = view.getUint32(at + 4 * k, true);
        lengths[this.size] = s.length;
        keys[2 * slot] = low;
        keys[2 * slot + 1] = high;
        entryOf[slot] = this.size++;
      }
      at += s.length;
    }
    return at;
  }
}
