import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import busboy from 'busboy';
import type * as z from 'zod';
import { ApiError, badRequest, invalid, payloadTooLarge } from '../base/errors';
import { pendingPath } from '../base/scratchFiles';
import { parseWith } from '../http/body';
import { datasetPath, saveStream } from '../datasetFiles/files';

export interface ReceivedUpload {
  datasetId: string;
  path: string;
  size: number;
  /** The uploaded file's own name, when the client sent one. */
  fileName: string | null;
  /** Text fields of a multipart form. */
  fields: Record<string, string>;
  /**
   * The marker that says the dataset is not registered yet, so that the next start removes its files if the service
   * is killed first; removed once the dataset is registered or its files are gone (`settleUpload`).
   */
  pending: string;
}

/** A multipart form's fields, its file (`file`) among them; any other field is a 422 naming it. */
type FormSchema = z.ZodObject;

/** Bodies taken as the file itself; whether it is CSV or Parquet is read from its bytes, not from this type. */
const FILE_TYPES = /^(text\/csv|application\/csv|text\/plain|application\/vnd\.apache\.parquet|application\/octet-stream)\b/i;

/** Reads the rest of the request so the client can read our error response instead of a reset connection. */
function drain(incoming: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (incoming.readableEnded) return resolve();
    incoming.on('end', resolve).on('error', () => resolve()).on('close', resolve);
    incoming.resume();
  });
}

/** What a multipart form may hold besides its file: its text fields are a few names and a JSON config. */
const FORM_LIMITS = { fields: 10, fieldBytes: 1024 * 1024, fieldNameBytes: 100 };

const formOverLimit = (detail: string) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', detail, 'Send the file as the form field "file" and only the text fields the endpoint takes (GET /v1/openapi.json).');

async function receiveMultipart(incoming: IncomingMessage, target: string, limitBytes: number, form: FormSchema) {
  const fields = new Map<string, string>();
  let saved: Promise<number> | null = null;
  let fileName: string | null = null;
  const otherFiles: string[] = [];
  let overLimit: ApiError | null = null;
  const parser = busboy({
    headers: incoming.headers,
    limits: { files: 1, fields: FORM_LIMITS.fields, fieldSize: FORM_LIMITS.fieldBytes, fieldNameSize: FORM_LIMITS.fieldNameBytes },
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated) overLimit ??= formOverLimit(`A form field's name is longer than ${FORM_LIMITS.fieldNameBytes} bytes, the limit.`);
      if (info.valueTruncated) overLimit ??= formOverLimit(`The form field ${name} is longer than ${FORM_LIMITS.fieldBytes} bytes, the limit.`);
      fields.set(name, value);
    });
    parser.on('fieldsLimit', () => (overLimit ??= formOverLimit(`The form has more than ${FORM_LIMITS.fields} text fields, the limit.`)));
    parser.on('filesLimit', () => (overLimit ??= formOverLimit('The form has more than one file, the limit.')));
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || saved) {
        otherFiles.push(name);
        stream.resume();
        return;
      }
      fileName = info.filename || null;
      saved = saveStream(stream, target, limitBytes);
      saved.catch(() => stream.resume());
    });
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  incoming.pipe(parser);
  try {
    await finished;
  } catch (error) {
    await drain(incoming);
    throw badRequest(`The multipart body could not be read: ${(error as Error).message}.`, 'Send multipart/form-data with a "file" part.');
  }
  // The file is written (or refused) before anything else is decided, so that a refusal removes all of it.
  const size = saved ? await (saved as Promise<number>) : null;
  if (overLimit) throw overLimit;
  const files = Object.fromEntries([...(size === null ? [] : ['file']), ...otherFiles].map((name) => [name, fileName ?? name]));
  parseWith(form, { ...Object.fromEntries(fields), ...files });
  if (size === null) throw invalid('file', 'The multipart body has no "file" part.', 'Attach the CSV or Parquet file as the form field "file".');
  return { size, fields: Object.fromEntries(fields), fileName };
}

/**
 * Streams an uploaded CSV or Parquet file (multipart `file` part, or the body itself) to the datasets folder. Over `limitBytes`,
 * or over a form's limits, it answers 413 and keeps nothing; a form field `form` does not name is a 422.
 */
export async function receiveUpload(
  incoming: IncomingMessage,
  dataDir: string,
  limitBytes: number,
  options: { form: FormSchema; multipartOnly?: boolean },
): Promise<ReceivedUpload> {
  const datasetId = randomUUID();
  const path = datasetPath(dataDir, datasetId);
  const pending = pendingPath(path);
  writeFileSync(pending, '');
  const type = incoming.headers['content-type'] ?? '';
  const declared = Number(incoming.headers['content-length'] ?? NaN);
  try {
    if (declared > limitBytes + 64 * 1024) throw payloadTooLarge(limitBytes);
    if (/^multipart\/form-data/i.test(type)) {
      const received = await receiveMultipart(incoming, path, limitBytes, options.form);
      return { datasetId, path, pending, ...received };
    }
    if (!options.multipartOnly && FILE_TYPES.test(type)) {
      const size = await saveStream(incoming, path, limitBytes);
      return { datasetId, path, pending, size, fileName: null, fields: {} };
    }
    throw badRequest(
      `The upload must be multipart/form-data${options.multipartOnly ? '' : ', text/csv or application/vnd.apache.parquet'}, got ${type ? `"${type}"` : 'no Content-Type'}.`,
      'Send the CSV or Parquet file as the multipart form field "file".',
    );
  } catch (error) {
    rmSync(path, { force: true });
    rmSync(pending, { force: true });
    await drain(incoming);
    if (error instanceof ApiError) throw error;
    throw badRequest(`The upload could not be read: ${(error as Error).message}.`);
  }
}

/** Ends an upload's pending state: after its dataset is registered, or with its file removed (`discard`). */
export function settleUpload(upload: ReceivedUpload, options: { discard?: boolean } = {}): void {
  if (options.discard) rmSync(upload.path, { force: true });
  rmSync(upload.pending, { force: true });
}
