/** The fields of the client's XModelsApiError that the UI uses, matched by shape so this module stays pure. */
export interface ApiErrorLike {
  status: number;
  code?: string;
  detail: string;
  suggestion?: string;
}

export function isApiError(error: unknown): error is ApiErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ApiErrorLike).status === 'number' &&
    typeof (error as ApiErrorLike).detail === 'string'
  );
}

/** Client error codes (status 0) and Node error codes that mean the service cannot be reached at all. */
const unreachableCodes = new Set([
  'CONNECTION_REFUSED',
  'CONNECTION_RESET',
  'DNS_ERROR',
  'TIMEOUT',
  'TLS_ERROR',
  'PROXY_AUTH_REQUIRED',
  'PROXY_ERROR',
  'NETWORK_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
]);

/** True when the error says the service could not be reached (as opposed to an answer that reports a problem). */
export function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, status } = current as { code?: unknown; status?: unknown };
    if (typeof status === 'number' && status > 0) return false;
    if (typeof code === 'string' && unreachableCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function isUnauthorized(error: unknown): boolean {
  return isApiError(error) && error.status === 401;
}

/** A user cancel: VS Code's CancellationError, an AbortError, or the client's cancelled call. */
export function isCancellation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'Canceled' || name === 'AbortError' || code === 'ABORTED';
}

/** One line for a toast: the service's `detail` with its suggestion, or the error's message. */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    const suggestion = error.suggestion && !error.detail.includes(error.suggestion) ? ` ${error.suggestion}` : '';
    return `${error.detail}${suggestion}`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** An error whose message is already written for the user; it is logged as a warning, without a stack. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
}
