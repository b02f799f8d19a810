import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, validationError } from '../errors';
import type { AppEnv } from './types';

/** Parses a JSON body: 400 for a wrong content type or malformed JSON, 422 when it does not match `schema`. */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw badRequest(
      `The body must be JSON (Content-Type: application/json), got ${type ? `"${type}"` : 'no Content-Type'}.`,
      'Send the request body as JSON with Content-Type: application/json.',
    );
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}.`, 'Check the JSON syntax of the body.');
  }
  return parseWith(schema, value);
}

/** Validates a value against a schema, 422 naming the field and value on failure. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, value);
  return result.data;
}

/** Sends `body` after checking it against the response schema, so the wire never drifts from the contract. */
export function sendJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S, body: z.input<S>, status: 200 | 202 = 200) {
  const checked = schema.parse(body);
  return c.json(checked as object, status);
}
