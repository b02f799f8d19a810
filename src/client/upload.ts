import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCodes, XModelsApiError } from './errors';
import type { RequestBody } from './transport';

/** CSV to send: a file streamed from disk, or text already in memory. */
export type CsvSource = { path: string } | { content: string; fileName: string };

/** A `multipart/form-data` body whose file part streams from disk; text fields come first. */
export async function multipartBody(fileField: string, source: CsvSource, fields: Record<string, string | undefined> = {}): Promise<RequestBody> {
  const boundary = `----xmodels${randomBytes(12).toString('hex')}`;
  const fileName = 'path' in source ? basename(source.path) : source.fileName;
  const head = Buffer.from(
    Object.entries(fields)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(fileField)}"; filename="${quote(fileName)}"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = 'path' in source ? { size: await readableFileSize(source.path), path: source.path } : undefined;
  const inline = 'content' in source ? Buffer.from(source.content) : undefined;
  return {
    kind: 'stream',
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + (file?.size ?? inline?.length ?? 0) + tail.length,
    content: Readable.from(
      (async function* () {
        yield head;
        if (file) yield* createReadStream(file.path);
        else if (inline) yield inline;
        yield tail;
      })(),
      { objectMode: false },
    ),
  };
}

export const PARQUET_TYPE = 'application/vnd.apache.parquet';

/** Whether the bytes start as a Parquet file does (`PAR1`); the service reads the format from the bytes the same way. */
export function startsAsParquet(head: Uint8Array): boolean {
  return head.length >= 4 && Buffer.from(head.subarray(0, 4)).toString('latin1') === 'PAR1';
}

/** A data file's body streamed from disk: `application/vnd.apache.parquet` when its bytes are Parquet, else `text/csv`. */
export async function dataFileBody(path: string): Promise<RequestBody> {
  const size = await readableFileSize(path);
  const handle = await open(path, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return { kind: 'stream', contentType: startsAsParquet(head) ? PARQUET_TYPE : 'text/csv', length: size, content: createReadStream(path) };
}

/** Checks up front that the path is a readable file, so a typo fails before any request with a clear sentence. */
async function readableFileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('it is not a file');
    return info.size;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message;
    throw new XModelsApiError({
      status: 0,
      code: ErrorCodes.fileNotReadable,
      detail: `Cannot read the data file ${path}: ${reason}.`,
      suggestion: 'Check the file path.',
      fields: [{ path: 'file_path', message: reason }],
      cause: error,
    });
  }
}

function quote(value: string): string {
  return value.replace(/[\r\n"]/g, (ch) => encodeURIComponent(ch));
}
