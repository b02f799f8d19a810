import type { Context } from 'hono';
import * as z from 'zod';
import { IGNORED_FIELDS, ignoredFieldsOf } from '../../contract';
import { ApiError, badRequest, invalid, validationError } from '../base/errors';
import { jsonLimitProblem, type JsonLimitProblem } from './jsonLimits';
import type { AppEnv } from './types';

/** The body's 400 (too deep) or 413 (too many items) for a JSON limit it is over. */
function bodyOverLimit(problem: JsonLimitProblem): ApiError {
  const detail = `The body ${problem.detail}.`;
  if (problem.limit === 'depth') return badRequest(detail, 'Send the values less deeply nested: no request of this service needs more than a dozen levels.');
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', detail, 'Send fewer items in one request; upload large data as a dataset (POST /v1/datasets) and give its dataset_id.');
}

/**
 * Parses a JSON body: 400 for a wrong content type, malformed JSON or JSON nested too deep, 413 for a container of
 * too many items, 422 when it does not match `schema`. The ignored fields the schema accepts (`IGNORED_FIELDS`) are
 * taken out of the value and named in the response's warnings (see `sendJson`) and in `requestWarnings`.
 */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw badRequest(
      `The body must be JSON (Content-Type: application/json), got ${type ? `"${type}"` : 'no Content-Type'}.`,
      'Send the request body as JSON with Content-Type: application/json.',
    );
  }
  const text = await c.req.text();
  const problem = jsonLimitProblem(text);
  if (problem) throw bodyOverLimit(problem);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}.`, 'Check the JSON syntax of the body.');
  }
  const body = parseWith(schema, value);
  const fields = body as Record<string, unknown>;
  const warnings: string[] = [];
  for (const name of ignoredFieldsOf(schema)) {
    if (fields[name] !== undefined && fields[name] !== null) warnings.push(`${name} is ignored: ${IGNORED_FIELDS[name]}.`);
    delete fields[name];
  }
  if (warnings.length) c.set('requestWarnings', warnings);
  return body;
}

/** What the request's body held that was ignored, in words for the response's warnings. */
export function requestWarnings(c: Context<AppEnv>): string[] {
  return c.get('requestWarnings') ?? [];
}

/** JSON text that is not the whole body (a JSON string inside a form or a field): 422 naming `field` when unreadable. */
export function parseJsonField(text: string, field: string, parse: (text: string) => unknown = JSON.parse): unknown {
  const problem = jsonLimitProblem(text);
  if (problem) throw invalid(field, `${field} ${problem.detail}.`);
  try {
    return parse(text);
  } catch {
    throw invalid(field, `${field} is a string but not valid JSON (starts with ${JSON.stringify(text.slice(0, 30))}).`);
  }
}

/**
 * Validates a value against a schema, 422 naming the field and value on failure; an unknown field's 422 names the
 * known field it was probably meant to be.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, at: readonly PropertyKey[] = []): z.output<S> {
  const knownFields = new WeakMap<string[], string[]>();
  const result = schema.safeParse(value, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys' && issue.inst instanceof z.ZodObject) knownFields.set(issue.keys, Object.keys(issue.inst.shape));
      return undefined;
    },
  });
  if (!result.success) throw validationError(result.error, value, (keys) => knownFields.get(keys) ?? [], at);
  return result.data;
}

/**
 * Sends `body` after checking it against the response schema, so the wire never drifts from the contract. A response
 * with `warnings` also names the request's ignored fields there.
 */
export function sendJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S, body: z.input<S>, status: 200 | 202 = 200) {
  const ignored = requestWarnings(c);
  const withWarnings =
    ignored.length && schema instanceof z.ZodObject && 'warnings' in schema.shape
      ? { ...(body as object), warnings: [...ignored, ...(((body as { warnings?: string[] }).warnings) ?? [])] }
      : body;
  const checked = schema.parse(withWarnings);
  return c.json(checked as object, status);
}
