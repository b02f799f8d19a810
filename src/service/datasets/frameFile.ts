import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { CsvFrameBuilder, DataFrame, categoryColumn, numberColumn, type Column } from '../../engine';
import { isMissingFile } from '../json';

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

export function decodeFrame(bytes: Buffer): DataFrame {
  if (bytes.subarray(0, 8).toString('ascii') !== MAGIC) throw new Error('Not a stored dataset frame');
  const headerLength = bytes.readUInt32LE(8);
  const { rows, columns } = JSON.parse(bytes.subarray(12, 12 + headerLength).toString('utf8')) as { rows: number; columns: ColumnHeader[] };
  let offset = pad8(12 + headerLength);
  const view = <T extends Float64Array | Int32Array>(Type: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number }) => {
    const byteLength = rows * Type.BYTES_PER_ELEMENT;
    const start = bytes.byteOffset + offset;
    offset += pad8(byteLength);
    const aligned = start % Type.BYTES_PER_ELEMENT === 0;
    return aligned ? new Type(bytes.buffer, start, rows) : new Type(bytes.buffer.slice(start, start + byteLength), 0, rows);
  };
  const built = columns.map((c): Column =>
    c.storage === 'number'
      ? numberColumn(c.name, view(Float64Array), c.type as 'numeric' | 'date')
      : categoryColumn(c.name, view(Int32Array), c.levels ?? [], c.type as 'categorical' | 'boolean' | 'id'),
  );
  return new DataFrame(built, rows);
}

/** Writes the frame beside its CSV (via a temporary name, so a reader never sees half a file). */
export function writeFrameFile(csvPath: string, frame: DataFrame): void {
  const target = framePath(csvPath);
  const fd = openSync(`${target}.part`, 'w');
  try {
    for (const part of encodeFrame(frame)) for (let done = 0; done < part.length; ) done += writeSync(fd, part, done);
  } finally {
    closeSync(fd);
  }
  renameSync(`${target}.part`, target);
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
  const fd = openSync(csvPath, 'r');
  let builder: CsvFrameBuilder;
  try {
    builder = new CsvFrameBuilder({ expected: { rows: estimatedRows(fd), bytes: fstatSync(fd).size } });
    eachChunk(fd, (chunk) => builder.push(chunk));
  } finally {
    closeSync(fd);
  }
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

/** Reads a stored frame without blocking the event loop; null when the dataset has none yet. */
export async function readFrameFile(csvPath: string): Promise<DataFrame | null> {
  try {
    return decodeFrame(await readFile(framePath(csvPath)));
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
}
