/** One field of a validation failure: a dotted path (`test_size`, `partitions.0.columns`) and what is wrong with it. */
export interface XModelsErrorField {
  path: string;
  message: string;
}

export interface XModelsApiErrorInit {
  /** HTTP status; 0 when no response arrived (network failure, cancellation, bad argument, bad response body). */
  status: number;
  code: string;
  detail: string;
  suggestion?: string;
  fields?: XModelsErrorField[];
  cause?: unknown;
}

/**
 * Every failure of the client: an HTTP error answer, a network failure, a cancelled call, an argument rejected before
 * sending, a response that does not match the contract, or a training job that failed. `message` is `detail` followed
 * by `suggestion`, so it can be shown to a user as it is.
 */
export class XModelsApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly suggestion: string | undefined;
  readonly fields: XModelsErrorField[];

  constructor(init: XModelsApiErrorInit) {
    super(init.suggestion ? `${init.detail} ${init.suggestion}` : init.detail, { cause: init.cause });
    this.name = 'XModelsApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.suggestion = init.suggestion;
    this.fields = init.fields ?? [];
  }

  /** True for a call that ended because its `AbortSignal` fired (a user cancel, not a failure to report). */
  get cancelled(): boolean {
    return this.code === ErrorCodes.aborted;
  }
}

/** The `code` values the client itself produces (the service adds its own, such as `VALIDATION_ERROR`). */
export const ErrorCodes = {
  aborted: 'ABORTED',
  invalidArgument: 'INVALID_ARGUMENT',
  invalidResponse: 'INVALID_RESPONSE',
  connectionRefused: 'CONNECTION_REFUSED',
  connectionReset: 'CONNECTION_RESET',
  dns: 'DNS_ERROR',
  timeout: 'TIMEOUT',
  tls: 'TLS_ERROR',
  proxyAuth: 'PROXY_AUTH_REQUIRED',
  proxy: 'PROXY_ERROR',
  network: 'NETWORK_ERROR',
  fileNotReadable: 'FILE_NOT_READABLE',
  trainingFailed: 'TRAINING_FAILED',
  trainingCancelled: 'TRAINING_CANCELLED',
} as const;

export function invalidArgument(detail: string, path?: string): XModelsApiError {
  return new XModelsApiError({
    status: 0,
    code: ErrorCodes.invalidArgument,
    detail,
    fields: path ? [{ path, message: detail }] : [],
  });
}

export function abortedError(what: string, cause?: unknown): XModelsApiError {
  return new XModelsApiError({ status: 0, code: ErrorCodes.aborted, detail: `${what} was cancelled.`, cause });
}
