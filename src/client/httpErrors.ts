import type { z } from 'zod';
import { ErrorCodes, XModelsApiError, type XModelsErrorField } from './errors';
import { parseJsonWithNonFinite } from '../engine';

const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'VALIDATION_ERROR',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

const suggestionByStatus: Record<number, string> = {
  401: 'Check the API key: the service did not accept it.',
  403: 'Choose a team that your API key may use.',
  413: 'Upload a smaller file.',
  429: 'Wait for a running job to finish, then try again.',
  502: 'The service or a gateway in front of it is not answering; try again in a moment.',
  503: 'The service is busy or restarting; try again in a moment.',
  504: 'The service or a gateway in front of it is not answering; try again in a moment.',
};

interface ContractErrorBody {
  detail?: unknown;
  error?: { code?: unknown; message?: unknown; suggestion?: unknown; fields?: unknown };
}

/**
 * Builds the error for a non-2xx answer. Understands the contract's `{detail, error: {code, message, suggestion,
 * fields}}`, a hosted `{detail: "..."}`, FastAPI's `{detail: [{loc, msg}]}` and bodies that are not JSON at all.
 */
export function errorFromResponse(
  status: number,
  bodyText: string,
  request: string,
  redact: (text: string) => string,
): XModelsApiError {
  const body = parseErrorBody(bodyText);
  const fields = fieldsOf(body);
  const detail =
    stringOr(body?.detail) ??
    stringOr(body?.error?.message) ??
    (fields.length ? fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ') : undefined) ??
    plainTextDetail(bodyText) ??
    `${request} failed with HTTP ${status}.`;
  return new XModelsApiError({
    status,
    code: stringOr(body?.error?.code) ?? codeByStatus[status] ?? (status >= 500 ? 'SERVER_ERROR' : 'HTTP_ERROR'),
    detail: redact(detail),
    suggestion: stringOr(body?.error?.suggestion) ?? suggestionByStatus[status],
    fields: fields.map((f) => ({ path: f.path, message: redact(f.message) })),
  });
}

function parseErrorBody(text: string): ContractErrorBody | undefined {
  try {
    const parsed = parseJsonWithNonFinite(text, 'null');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ContractErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

function fieldsOf(body: ContractErrorBody | undefined): XModelsErrorField[] {
  if (Array.isArray(body?.error?.fields)) {
    return body.error.fields.flatMap((f: { path?: unknown; message?: unknown }) =>
      typeof f?.message === 'string' ? [{ path: String(f.path ?? ''), message: f.message }] : [],
    );
  }
  if (Array.isArray(body?.detail)) {
    return body.detail.flatMap((d: { loc?: unknown; msg?: unknown }) =>
      typeof d?.msg === 'string' ? [{ path: fastApiPath(d.loc), message: d.msg }] : [],
    );
  }
  return [];
}

/** FastAPI locations start with where the value came from (`body`, `query`, `path`, `header`); the rest is the field. */
function fastApiPath(loc: unknown): string {
  if (!Array.isArray(loc)) return '';
  const parts = ['body', 'query', 'path', 'header'].includes(String(loc[0])) && loc.length > 1 ? loc.slice(1) : loc;
  return formatPath(parts as PropertyKey[]);
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out ? `${out}.${String(part)}` : String(part);
  }, '');
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function plainTextDetail(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || trimmed.startsWith('<')) return undefined;
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}

/** Parses a 2xx body against its schema; a mismatch names the field paths that differ. */
export function parseResponse<S extends z.ZodType>(schema: S, bodyText: string, request: string): z.output<S> {
  let json: unknown;
  try {
    json = parseJsonWithNonFinite(bodyText, 'null');
  } catch (error) {
    throw new XModelsApiError({
      status: 0,
      code: ErrorCodes.invalidResponse,
      detail: `The answer to ${request} is not JSON (${(error as Error).message}).`,
      suggestion: 'Check that the service URL points to an XModels service.',
      cause: error,
    });
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  const listed = fields
    .slice(0, 3)
    .map((f) => `${f.path || '(body)'}: ${f.message}`)
    .join('; ');
  const more = fields.length > 3 ? ` (and ${fields.length - 3} more)` : '';
  throw new XModelsApiError({
    status: 0,
    code: ErrorCodes.invalidResponse,
    detail: `The answer to ${request} does not match the contract at ${listed}${more}.`,
    suggestion: 'Check that the service is an XModels service of a compatible version.',
    fields,
  });
}
