import type { z } from 'zod';
import type { ErrorBody, ErrorCode, ErrorField } from '../contract';

/** An error that becomes an HTTP response with the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly suggestion?: string,
    readonly fields?: ErrorField[],
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** The same error, naming the request field that held the bad value. */
  withField(path: string): ApiError {
    return new ApiError(this.status, this.code, this.detail, this.suggestion, [{ path, message: this.detail }]);
  }

  toBody(): ErrorBody {
    return {
      detail: this.detail,
      error: {
        code: this.code,
        message: this.detail,
        ...(this.suggestion ? { suggestion: this.suggestion } : {}),
        ...(this.fields ? { fields: this.fields } : {}),
      },
    };
  }
}

export const badRequest = (detail: string, suggestion?: string) => new ApiError(400, 'BAD_REQUEST', detail, suggestion);

export const unauthorized = (detail: string) =>
  new ApiError(401, 'UNAUTHORIZED', detail, 'Send the key in the api_key header (or Authorization: Bearer <key>).');

export const forbidden = (teamId: string) =>
  new ApiError(403, 'FORBIDDEN', `This API key may not use team ${teamId}.`, 'Use one of the teams GET /v1/teams lists.');

export const notFound = (kind: string, id: string) =>
  new ApiError(404, 'NOT_FOUND', `${kind} ${id} was not found.`, `Check the ${kind.toLowerCase()} id; list them to see what exists.`);

export const conflict = (detail: string, suggestion?: string) => new ApiError(409, 'CONFLICT', detail, suggestion);

export const invalid = (field: string, detail: string, suggestion?: string) =>
  new ApiError(422, 'VALIDATION_ERROR', detail, suggestion, [{ path: field, message: detail }]);

export const tooManyJobs = (limit: number) =>
  new ApiError(
    429,
    'TOO_MANY_JOBS',
    `Too many training jobs are waiting (limit ${limit}).`,
    'Wait for a running job to finish, or cancel one, then try again.',
  );

export const payloadTooLarge = (limitBytes: number) =>
  new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The upload is larger than the limit of ${limitBytes} bytes.`,
    'Upload a smaller file, or start the service with a larger --upload-limit.',
  );

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** A 422 whose detail names the first offending field and its value. */
export function validationError(error: z.ZodError, input: unknown): ApiError {
  const fields = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  const first = error.issues[0];
  const path = fields[0].path;
  let detail: string;
  if (first.code === 'unrecognized_keys') {
    detail = `${path === '(body)' ? 'The body' : path} has unknown field(s) ${first.keys.join(', ')}.`;
  } else {
    const value = valueAt(input, first.path);
    detail =
      value === undefined
        ? `${path} is required (${first.message}).`
        : `${path} ${first.message.charAt(0).toLowerCase()}${first.message.slice(1)} (got ${describeValue(value)}).`;
  }
  return new ApiError(422, 'VALIDATION_ERROR', detail, 'Fix the field named in the message and retry.', fields);
}
