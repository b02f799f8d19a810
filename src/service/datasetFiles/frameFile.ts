import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CsvFrameBuilder, DataFrame, EngineError, categoryColumn, numberColumn, takeColumn, type Column } from '../../engine';
import { isMissingFile } from '../base/json';
import { partPath } from '../base/scratchFiles';

/**
 * A dataset parsed once, stored next to its CSV as `<id>.frame` so training, prediction and profiling never parse
 * text again. Layout (all numbers little-endian):
 *
 *   bytes 0-7    ASCII "XMFRAME1"
 *   bytes 8-11   uint32: length H of the header
 *   next H bytes UTF-8 JSON {rows, columns: [{name, type, storage, levels?}]}
 *   zero padding to a multiple of 8
 *   per column, in header order: rows × float64 ('number': NaN = missing, dates as epoch ms) or
 *   rows × int32 ('category': index into levels, -1 = missing), each padded to a multiple of 8
 */
const MAGIC = 'XMFRAME1';
const READ_CHUNK = 1024 * 1024;
const QUOTE = 34;
const LF = 10;
const CR = 13;

interface ColumnHeader {
  name: string;
  type: Column['type'];
  storage: Column['storage'];
  levels?: readonly string[];
}

const pad8 = (n: number) => (n + 7) & ~7;

export const framePath = (csvPath: string) => csvPath.replace(/\.csv$/, '') + '.frame';

/** What storing a dataset's frame (or inspecting a CSV) tells of it. */
export interface IngestOutcome {
  rows: number;
  columns: string[];
  /** The header as written, before names are trimmed and made unique. */
  header: string[];
}

export function encodeFrame(frame: DataFrame): Uint8Array[] {
  const columns: ColumnHeader[] = frame.columns.map((c) =>
    c.storage === 'number' ? { name: c.name, type: c.type, storage: c.storage } : { name: c.name, type: c.type, storage: c.storage, levels: c.levels },
  );
  const header = Buffer.from(JSON.stringify({ rows: frame.nRows, columns }), 'utf8');
  const head = Buffer.alloc(pad8(12 + header.length));
  head.write(MAGIC, 0, 'ascii');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 12);
  const parts: Uint8Array[] = [head];
  for (const c of frame.columns) {
    const data = c.storage === 'number' ? c.values : c.codes;
    parts.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    const padding = pad8(data.byteLength) - data.byteLength;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  return parts;
}

interface FrameLayout {
  rows: number;
  columns: ColumnHeader[];
  /** Per column, where its values start. */
  offsets: number[];
}

/** The header and column offsets of stored frame bytes (`head` holds at least the header). */
function frameLayout(head: Buffer): FrameLayout {
  if (head.subarray(0, 8).toString('ascii') !== MAGIC) throw new Error('Not a stored dataset frame');
  const headerLength = head.readUInt32LE(8);
  const { rows, columns } = JSON.parse(head.subarray(12, 12 + headerLength).toString('utf8')) as { rows: number; columns: ColumnHeader[] };
  let offset = pad8(12 + headerLength);
  const offsets = columns.map((c) => {
    const start = offset;
    offset += pad8(rows * elementSize(c));
    return start;
  });
  return { rows, columns, offsets };
}

const elementSize = (c: ColumnHeader) => (c.storage === 'number' ? Float64Array : Int32Array).BYTES_PER_ELEMENT;

function columnOver(c: ColumnHeader, buffer: ArrayBufferLike, byteOffset: number, rows: number): Column {
  return c.storage === 'number'
    ? numberColumn(c.name, new Float64Array(buffer, byteOffset, rows), c.type as 'numeric' | 'date')
    : categoryColumn(c.name, new Int32Array(buffer, byteOffset, rows), c.levels ?? [], c.type as 'categorical' | 'boolean' | 'id');
}

export function decodeFrame(bytes: Buffer): DataFrame {
  const { rows, columns, offsets } = frameLayout(bytes);
  const built = columns.map((c, k) => {
    const start = bytes.byteOffset + offsets[k];
    const size = elementSize(c);
    return start % size === 0 ? columnOver(c, bytes.buffer, start, rows) : columnOver(c, bytes.buffer.slice(start, start + rows * size), 0, rows);
  });
  return new DataFrame(built, rows);
}

/**
 * A stored frame read a column at a time from its file, so that a caller taking some of its rows (a train/test
 * split) holds those rows only, never the whole frame beside them. For worker threads.
 */
export class StoredFrame {
  private constructor(
    private readonly path: string,
    private readonly layout: FrameLayout,
  ) {}

  /** The upload's stored frame; null for a file that is not an upload or has no frame yet. */
  static open(csvPath: string): StoredFrame | null {
    if (!isStoredDataset(csvPath)) return null;
    try {
      return withOpenFile(framePath(csvPath), (fd) => {
        const lead = Buffer.alloc(12);
        readFully(fd, lead, 0);
        const head = Buffer.alloc(12 + lead.readUInt32LE(8));
        readFully(fd, head, 0);
        return new StoredFrame(framePath(csvPath), frameLayout(head));
      });
    } catch (error) {
      if (isMissingFile(error)) return null;
      throw error;
    }
  }

  get nRows(): number {
    return this.layout.rows;
  }

  get names(): string[] {
    return this.layout.columns.map((c) => c.name);
  }

  has(name: string): boolean {
    return this.layout.columns.some((c) => c.name === name);
  }

  /** The named columns, each read into an array of its own. */
  select(names: readonly string[]): DataFrame {
    const columns = withOpenFile(this.path, (fd) =>
      names.map((name) => {
        const k = this.layout.columns.findIndex((c) => c.name === name);
        if (k < 0) throw new EngineError(`Unknown column ${name}; columns are: ${this.names.join(', ')}`, name);
        const bytes = new Uint8Array(this.byteLength(this.layout.columns[k]));
        readFully(fd, bytes, this.layout.offsets[k]);
        return columnOver(this.layout.columns[k], bytes.buffer, 0, this.nRows);
      }),
    );
    return new DataFrame(columns, this.nRows);
  }

  /** The rows at the given indices, in that order (as DataFrame.take), reading each column once into one buffer. */
  take(rows: ArrayLike<number>): DataFrame {
    const buffer = new Uint8Array(this.nRows * Float64Array.BYTES_PER_ELEMENT);
    const taken = withOpenFile(this.path, (fd) =>
      this.layout.columns.map((c, k) => {
        readFully(fd, buffer.subarray(0, this.byteLength(c)), this.layout.offsets[k]);
        return takeColumn(columnOver(c, buffer.buffer, 0, this.nRows), rows);
      }),
    );
    return new DataFrame(taken, rows.length);
  }

  /** Rows [start, end), each column's read at its offset into an array of its own. */
  rowRange(start: number, end: number): DataFrame {
    const columns = withOpenFile(this.path, (fd) =>
      this.layout.columns.map((c, k) => {
        const size = elementSize(c);
        const bytes = new Uint8Array((end - start) * size);
        readFully(fd, bytes, this.layout.offsets[k] + start * size);
        return columnOver(c, bytes.buffer, 0, end - start);
      }),
    );
    return new DataFrame(columns, end - start);
  }

  private byteLength(c: ColumnHeader): number {
    return this.nRows * elementSize(c);
  }
}

function withOpenFile<T>(path: string, read: (fd: number) => T): T {
  const fd = openSync(path, 'r');
  try {
    return read(fd);
  } finally {
    closeSync(fd);
  }
}

/** Fills `target` from the file at `position`; a file that ends first is not a whole stored frame. */
function readFully(fd: number, target: Uint8Array, position: number): void {
  for (let done = 0; done < target.length; ) {
    const n = readSync(fd, target, done, target.length - done, position + done);
    if (n === 0) throw new Error('The stored dataset frame is cut short');
    done += n;
  }
}

/** Writes the frame beside its CSV (via a temporary name, so a reader never sees half a file). */
export function writeFrameFile(csvPath: string, frame: DataFrame): void {
  const target = framePath(csvPath);
  const temporary = partPath(target);
  const fd = openSync(temporary, 'w');
  try {
    for (const part of encodeFrame(frame)) for (let done = 0; done < part.length; ) done += writeSync(fd, part, done);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
}

const UPLOADS_MARKER = '.xmodels-uploads';

/** Marks a data dir's datasets folder as the service's own, whichever database the service runs on. */
export function markUploadsFolder(datasetsFolder: string): void {
  mkdirSync(datasetsFolder, { recursive: true });
  writeFileSync(join(datasetsFolder, UPLOADS_MARKER), '');
}

/** A CSV in a service data dir's datasets folder (an upload), as opposed to a bundled sample that is never written. */
export function isStoredDataset(csvPath: string): boolean {
  return existsSync(join(dirname(csvPath), UPLOADS_MARKER));
}

/** Calls `use` with each chunk of the file in order (one reused buffer: a chunk is only valid during its call). */
function eachChunk(fd: number, use: (chunk: Buffer) => void): void {
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  for (let at = 0, n = readSync(fd, chunk, 0, READ_CHUNK, at); n > 0; at += n, n = readSync(fd, chunk, 0, READ_CHUNK, at)) use(chunk.subarray(0, n));
}

/**
 * The data rows of a CSV file, estimated as its non-empty lines after the header, not counting line ends inside
 * quotes; a stray quote (or lines ended by CR alone) makes it wrong, which costs a copy. Reading the file once more
 * costs far less than growing its columns as rows arrive and copying them to their final size.
 */
function estimatedRows(fd: number): number {
  let lines = 0;
  let quoted = false;
  let lineHasText = false;
  eachChunk(fd, (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === LF && !quoted) {
        if (lineHasText) lines++;
        lineHasText = false;
      } else if (c !== CR) {
        lineHasText = true;
        if (c === QUOTE) quoted = !quoted;
      }
    }
  });
  if (lineHasText) lines++;
  return Math.max(0, lines - 1);
}

/** Parses a CSV file chunk by chunk (memory bounded by the columns, not the text). For worker threads. */
export function parseCsvFile(csvPath: string): { frame: DataFrame; header: string[] } {
  const builder = withOpenFile(csvPath, (fd) => {
    const parsing = new CsvFrameBuilder({ expected: { rows: estimatedRows(fd), bytes: fstatSync(fd).size } });
    eachChunk(fd, (chunk) => parsing.push(chunk));
    return parsing;
  });
  const frame = builder.finish();
  return { frame, header: builder.header ?? [] };
}

/**
 * A CSV file's frame: an upload's stored frame, converted now for a dataset uploaded before frames existed; other
 * files are parsed. For worker threads.
 */
export function loadFrameSync(csvPath: string): DataFrame {
  if (!isStoredDataset(csvPath)) return parseCsvFile(csvPath).frame;
  try {
    return decodeFrame(readFileSync(framePath(csvPath)));
  } catch (error) {
    if (!isMissingFile(error)) throw error;
  }
  const { frame } = parseCsvFile(csvPath);
  writeFrameFile(csvPath, frame);
  return frame;
}

/**
 * Rows [start, end) of an upload's stored frame (`rows` picks them from the frame's row count), read at their
 * offsets rather than the whole file; null when the file is not an upload or has no stored frame yet. For worker
 * threads.
 */
export function loadFrameRowsSync(csvPath: string, rows: (nRows: number) => [number, number]): { frame: DataFrame; nRows: number } | null {
  const stored = StoredFrame.open(csvPath);
  if (!stored) return null;
  const [start, end] = rows(stored.nRows);
  return { frame: stored.rowRange(start, end), nRows: stored.nRows };
}
