import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Parses a CSV file chunk by chunk (memory bounded by the columns, not the text). For worker threads. */
export function parseCsvFile(csvPath: string): { frame: DataFrame; header: string[] } {
  const builder = new CsvFrameBuilder();
  const fd = openSync(csvPath, 'r');
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) builder.push(chunk.subarray(0, n));
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

/**
 * Rows [start, end) of an upload's stored frame (`rows` picks them from the frame's row count), read at their
 * offsets rather than the whole file; null when the file is not an upload or has no stored frame yet. For worker
 * threads.
 */
export function loadFrameRowsSync(csvPath: string, rows: (nRows: number) => [number, number]): { frame: DataFrame; nRows: number } | null {
  if (!isStoredDataset(csvPath)) return null;
  let fd: number;
  try {
    fd = openSync(framePath(csvPath), 'r');
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
  try {
    const read = (length: number, position: number) => {
      const bytes = Buffer.allocUnsafeSlow(length);
      for (let done = 0; done < length; ) {
        const n = readSync(fd, bytes, done, length - done, position + done);
        if (n === 0) throw new Error('A stored dataset frame ends early');
        done += n;
      }
      return bytes;
    };
    const head = read(12, 0);
    if (head.subarray(0, 8).toString('ascii') !== MAGIC) throw new Error('Not a stored dataset frame');
    const headerLength = head.readUInt32LE(8);
    const { rows: nRows, columns } = JSON.parse(read(headerLength, 12).toString('utf8')) as { rows: number; columns: ColumnHeader[] };
    const [start, end] = rows(nRows);
    let offset = pad8(12 + headerLength);
    const built = columns.map((c): Column => {
      const width = c.storage === 'number' ? Float64Array.BYTES_PER_ELEMENT : Int32Array.BYTES_PER_ELEMENT;
      const { buffer } = read((end - start) * width, offset + start * width);
      offset += pad8(nRows * width);
      return c.storage === 'number'
        ? numberColumn(c.name, new Float64Array(buffer), c.type as 'numeric' | 'date')
        : categoryColumn(c.name, new Int32Array(buffer), c.levels ?? [], c.type as 'categorical' | 'boolean' | 'id');
    });
    return { frame: new DataFrame(built, end - start), nRows };
  } finally {
    closeSync(fd);
  }
}

