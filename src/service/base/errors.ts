import type { z } from 'zod';
import { closestName, isIgnoredField, type ErrorBody, type ErrorCode, type ErrorField } from '../../contract';

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
    'Upload a smaller file, or start the service with a larger --upload-limit-mb.',
  );

export const jsonBodyTooLarge = (limitBytes: number) =>
  new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The JSON body is larger than the limit of ${limitBytes} bytes.`,
    'Upload large data as a dataset (POST /v1/datasets) and give its dataset_id instead of csv_content.',
  );

/** JSON text of `value` cut after about `room` characters, without writing out the rest of a large value. */
function jsonPreview(value: unknown, room: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(typeof value === 'string' ? value.slice(0, room) : value) ?? String(value);
  const array = Array.isArray(value);
  let text = array ? '[' : '{';
  for (const [key, item] of Object.entries(value)) {
    if (text.length >= room) return `${text}...`;
    text += `${text.length > 1 ? ',' : ''}${array ? '' : `${JSON.stringify(key)}:`}${jsonPreview(item, room - text.length)}`;
  }
  return `${text}${array ? ']' : '}'}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = jsonPreview(value, 61);
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

/** A 422 names at most this many fields (a body can hold a hundred thousand wrong items). */
const MAX_FIELDS = 20;

/**
 * The issues to report, each with its whole path: a union's issues are those of its closest member (the one with
 * the fewest), and unknown fields come first, since a misspelt field also makes the one it meant look missing.
 */
function reportedIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): z.core.$ZodIssue[] {
  const flat = issues.flatMap((issue): z.core.$ZodIssue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    const closest = issue.errors.reduce((best, member) => (member.length < best.length ? member : best));
    return reportedIssues(closest, path);
  });
  return [...flat.filter((i) => i.code === 'unrecognized_keys'), ...flat.filter((i) => i.code !== 'unrecognized_keys')];
}

const pathText = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** The known field an unknown `key` was probably meant to be (ignored fields are never meant). */
const meantField = (key: string, known: readonly string[]) => closestName(key, known.filter((name) => !isIgnoredField(name)));

/** `key`, and the known field it was probably meant to be. */
function unknownField(key: string, known: readonly string[]): string {
  const meant = meantField(key, known);
  return meant ? `${key} (did you mean ${meant}?)` : key;
}

/**
 * The sentence for unknown fields of one object, which also names the fields it lacks that no unknown field seems
 * to mean (an autotrain body without its `req` envelope, say).
 */
function unknownFieldsDetail(
  unknown: z.core.$ZodIssueUnrecognizedKeys,
  issues: readonly z.core.$ZodIssue[],
  known: readonly string[],
  input: unknown,
  at: readonly PropertyKey[],
): string {
  const named = unknown.keys.slice(0, 10).map((key) => unknownField(key, known));
  const more = unknown.keys.length > named.length ? ` and ${unknown.keys.length - named.length} more` : '';
  const where = unknown.path.length ? pathText(unknown.path) : 'The body';
  const meant = new Set(unknown.keys.map((key) => meantField(key, known)));
  const missing = issues
    .filter((i) => i.path.length === unknown.path.length + 1 && pathText(i.path.slice(0, -1)) === pathText(unknown.path))
    .map((i) => String(i.path[i.path.length - 1]))
    .filter((name) => !meant.has(name) && valueAt(input, [...unknown.path.slice(at.length), name]) === undefined);
  const lacking = missing.length ? `; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required` : '';
  return `${where} has ${unknown.keys.length === 1 ? 'an unknown field' : `${unknown.keys.length} unknown fields`}: ${named.join(', ')}${more}${lacking}.`;
}

/**
 * A 422 whose detail names the first offending field and its value. `knownFields` gives, for an unknown-field
 * issue's `keys`, the fields its object does know (see `parseWith`), for a "did you mean"; `at` is where `input`
 * sits in the request, when it is not the whole body.
 */
export function validationError(
  error: z.ZodError,
  input: unknown,
  knownFields: (keys: string[]) => readonly string[] = () => [],
  at: readonly PropertyKey[] = [],
): ApiError {
  const issues = reportedIssues(error.issues, at);
  const fields = issues
    .flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.slice(0, MAX_FIELDS).map((key) => ({
            path: pathText([...issue.path, key]),
            message: `unknown field: ${unknownField(key, knownFields(issue.keys))}`,
          }))
        : [{ path: pathText(issue.path) || '(body)', message: issue.message }],
    )
    .slice(0, MAX_FIELDS);
  const first = issues[0];
  let detail: string;
  if (first.code === 'unrecognized_keys') {
    detail = unknownFieldsDetail(first, issues, knownFields(first.keys), input, at);
  } else {
    const path = fields[0].path;
    const value = valueAt(input, first.path.slice(at.length));
    detail =
      value === undefined
        ? `${path} is required (${first.message}).`
        : `${path} ${first.message.charAt(0).toLowerCase()}${first.message.slice(1)} (got ${describeValue(value)}).`;
  }
  const suggestion =
    first.code === 'unrecognized_keys'
      ? 'Correct or remove the field: GET /v1/openapi.json lists the fields of every request.'
      : 'Fix the field named in the message and retry.';
  return new ApiError(422, 'VALIDATION_ERROR', detail, suggestion, fields);
}
