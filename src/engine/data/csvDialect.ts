import { CsvError } from '../base/errors';

/**
 * The one place that decides how a CSV file is written: its text encoding and its field delimiter. The engine's
 * parser, the service's uploads and the extension's column sniffer all read files through these rules.
 */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Field delimiters recognised, in the order a tie is broken. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** File name endings accepted as delimited text. */
export const CSV_EXTENSIONS = ['csv', 'tsv', 'txt'] as const;

const SAMPLE_LINES = 50;
/**
 * Bytes gathered before the encoding or the delimiter is decided, however small the chunks a caller pushes: enough
 * lines for detectDelimiter to compare them.
 */
export const DIALECT_SAMPLE_BYTES = 64 * 1024;

/**
 * The encoding of a file from its first bytes: a byte order mark decides; without one the text is UTF-8 when the
 * sample is valid UTF-8 (a sequence cut at the end of the sample is fine), else Windows-1252 (a superset of
 * Latin-1 for printable text, as spreadsheets on Windows write it).
 */
export function detectEncoding(head: Uint8Array): { encoding: CsvEncoding; bomBytes: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };
  const invalid = invalidUtf8Offset(head, true);
  return { encoding: invalid < 0 ? 'utf-8' : 'windows-1252', bomBytes: 0 };
}

/**
 * The offset of the first byte that is not valid UTF-8, or -1. With `allowCutEnd` a sequence that is only
 * incomplete because the bytes stop is accepted.
 */
export function invalidUtf8Offset(bytes: Uint8Array, allowCutEnd = false): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return allowCutEnd ? -1 : i;
      const c = bytes[i + k];
      const low = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
      const high = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
      if (c < low || c > high) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Decodes a byte stream chunk by chunk in the encoding its start shows (at least its first 64 KB, or the whole first
 * chunk when larger). A UTF-8 file with an invalid byte after that is an error naming the byte's offset.
 */
export class CsvTextDecoder {
  private decoder: Pick<TextDecoder, 'decode'> | null = null;
  private encoding: CsvEncoding | null = null;
  private offset = 0;
  private tail = new Uint8Array(0);
  private readonly head = new HeadSample();

  get detected(): CsvEncoding | null {
    return this.encoding;
  }

  /** `decideNow`: detect the encoding on what has arrived, even if less than the usual sample. */
  decode(chunk: Uint8Array, final = false, decideNow = false): string {
    let bytes = chunk;
    if (!this.decoder) {
      const head = this.head.add(chunk, final || decideNow);
      if (!head) return '';
      const { encoding, bomBytes } = detectEncoding(head);
      this.encoding = encoding;
      this.decoder = encoding === 'windows-1252' ? new Windows1252Decoder() : new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
      bytes = head.subarray(bomBytes);
      this.offset = bomBytes;
    }
    try {
      const text = this.decoder.decode(bytes, { stream: !final });
      this.remember(bytes);
      return text;
    } catch {
      const joined = new Uint8Array(this.tail.length + bytes.length);
      joined.set(this.tail);
      joined.set(bytes, this.tail.length);
      const at = Math.max(0, invalidUtf8Offset(joined, !final));
      throw invalidUtf8Error(this.offset - this.tail.length + at, joined[at]);
    }
  }

  private remember(bytes: Uint8Array): void {
    this.offset += bytes.length;
    this.tail = bytes.length >= 3 ? bytes.slice(bytes.length - 3) : bytes.slice();
  }
}

function invalidUtf8Error(offset: number, byte: number | undefined): CsvError {
  return new CsvError(
    `The file is not valid UTF-8: byte ${offset} (0x${byte?.toString(16).padStart(2, '0') ?? '??'}) cannot be decoded; save it as UTF-8`,
    null,
    null,
  );
}

const EMPTY = new Uint8Array(0);
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
/** ASCII fields this short are built from their char codes: cheaper than a TextDecoder call. */
const SHORT_FIELD = 24;
/** Up to this length appending chars makes a flat string (V8 links longer ones as pieces). */
const FLAT_CONCAT = 12;
const charCodes: number[] = [];

/**
 * A byte stream in any accepted encoding as UTF-8 bytes, chunk by chunk, with the encoding decided as
 * CsvTextDecoder decides it. UTF-8 passes through undecoded (utf8Text validates each field read as text); other
 * encodings are decoded and encoded again. A returned array may be the caller's chunk: copy what is kept.
 */
export class CsvUtf8Input {
  private readonly head = new HeadSample();
  private decided = false;
  private transcoder: CsvTextDecoder | null = null;
  /** File offset of the first byte returned: the length of a UTF-8 byte order mark. */
  skipped = 0;

  push(chunk: Uint8Array, final: boolean): Uint8Array {
    if (this.decided) return this.transcoder ? utf8Encoder.encode(this.transcoder.decode(chunk, final)) : chunk;
    const bytes = this.head.add(chunk, final);
    if (!bytes) return EMPTY;
    this.decided = true;
    const { encoding, bomBytes } = detectEncoding(bytes);
    if (encoding === 'utf-8') {
      this.skipped = bomBytes;
      return bytes.subarray(bomBytes);
    }
    this.transcoder = new CsvTextDecoder();
    return utf8Encoder.encode(this.transcoder.decode(bytes, final, true));
  }
}

/** Text as UTF-8 bytes. */
export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/**
 * The text of `bytes[start, end)`, UTF-8; an invalid byte is an error naming its offset in the file, given the
 * file offset of `bytes[0]`.
 */
export function utf8Text(bytes: Uint8Array, start: number, end: number, fileOffset: number): string {
  if (end - start <= SHORT_FIELD) {
    const ascii = end - start <= FLAT_CONCAT ? asciiByChars(bytes, start, end) : asciiByCodes(bytes, start, end);
    if (ascii !== null) return ascii;
  }
  try {
    return utf8Decoder.decode(bytes.subarray(start, end));
  } catch {
    const at = start + Math.max(0, invalidUtf8Offset(bytes.subarray(start, end)));
    throw invalidUtf8Error(fileOffset + at, bytes[at]);
  }
}

/** The text of ASCII bytes appended char by char (V8 keeps strings this short flat), or null at a non-ASCII byte. */
function asciiByChars(bytes: Uint8Array, start: number, end: number): string | null {
  let text = '';
  for (let i = start; i < end; i++) {
    if (bytes[i] >= 0x80) return null;
    text += String.fromCharCode(bytes[i]);
  }
  return text;
}

/**
 * The text of ASCII bytes in one call on a plain array, or null at a non-ASCII byte: a flat string, which Number()
 * and Map keys read faster than the linked pieces appending makes of longer strings.
 */
function asciiByCodes(bytes: Uint8Array, start: number, end: number): string | null {
  const n = end - start;
  for (let i = 0; i < n; i++) {
    if (bytes[start + i] >= 0x80) return null;
    charCodes[i] = bytes[start + i];
  }
  charCodes.length = n;
  return String.fromCharCode.apply(null, charCodes);
}

/** Windows-1252's characters for bytes 0x80-0x9F (the rest are Latin-1, i.e. the byte's own code point). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const CP1252 = Uint16Array.from({ length: 256 }, (_, b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH.charCodeAt(b - 0x80) : b));

/** Node's own windows-1252 decoder reads 0x80-0x9F as Latin-1 controls on some versions, so map the bytes here. */
class Windows1252Decoder {
  private readonly utf16 = new TextDecoder('utf-16le');

  decode(bytes?: Uint8Array): string {
    if (!bytes || bytes.length === 0) return '';
    const units = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) units[i] = CP1252[bytes[i]];
    return this.utf16.decode(units);
  }
}

/** A stream's first chunks, gathered until the encoding can be decided on them. */
class HeadSample {
  private chunks: Uint8Array[] = [];
  private length = 0;

  /**
   * Adds a chunk; returns the chunks so far as one array once they reach the sample size (or at once when `complete`:
   * the stream ends or the caller decides now), else null. Once returned, the sample is handed over.
   */
  add(chunk: Uint8Array, complete: boolean): Uint8Array | null {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length < DIALECT_SAMPLE_BYTES && !complete) return null;
    const chunks = this.chunks;
    this.chunks = [];
    if (chunks.length === 1) return chunks[0];
    const head = new Uint8Array(this.length);
    let at = 0;
    for (const c of chunks) {
      head.set(c, at);
      at += c.length;
    }
    return head;
  }
}

/** Decodes the first bytes of a file, which may end inside a character (that character is left out). */
export function decodeCsvSample(bytes: Uint8Array): string {
  return new CsvTextDecoder().decode(bytes, false, true);
}

/** Decodes a whole file's bytes (see CsvTextDecoder). */
export function decodeCsvBytes(bytes: Uint8Array): string {
  return new CsvTextDecoder().decode(bytes, true);
}

/**
 * The delimiter of a CSV from its first lines: the candidate that splits the header into the most fields while
 * every sampled line has the same count (quotes respected). Without a consistent one, the most frequent in the
 * header; a single-column file is comma separated.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = sampleLines(text);
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  let bestConsistent = false;
  for (const d of CSV_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, d));
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const consistent = counts.every((c) => c === header);
    if ((consistent && !bestConsistent) || (consistent === bestConsistent && header > bestCount)) {
      best = d;
      bestCount = header;
      bestConsistent = consistent;
    }
  }
  return best;
}

/** Up to SAMPLE_LINES non-empty lines; a line cut at the end of the text is left out when others exist. */
function sampleLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < SAMPLE_LINES; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) {
      const line = text.slice(start, i).replace(/\r$/, '');
      if (line !== '') lines.push(line);
      start = i + 1;
    }
  }
  if (lines.length === 0) lines.push(text.slice(start));
  return lines;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  const code = delimiter.charCodeAt(0);
  let count = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === code && !quoted) count++;
  }
  return count;
}
