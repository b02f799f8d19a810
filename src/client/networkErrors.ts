import { ErrorCodes, XModelsApiError } from './errors';

export interface NetworkContext {
  /** Origin of the service, without credentials. */
  origin: string;
  /** Origin of the proxy in use, without credentials. */
  proxy: string | undefined;
  timeoutMs: number;
}

const refused = new Set(['ECONNREFUSED']);
const dns = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const timeouts = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const resets = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH']);
const tlsCodes = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'UND_ERR_PRX_TLS',
]);

/** Codes worth another attempt on an idempotent call: the request may never have reached the service. */
export function isTransientNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && (refused.has(code) || resets.has(code) || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'EAI_AGAIN');
}

/** Turns a low-level failure into an error whose message says what happened and what to try. */
export function networkError(error: unknown, ctx: NetworkContext): XModelsApiError {
  const code = errorCode(error) ?? '';
  const message = String((error as Error | undefined)?.message ?? '');
  const via = ctx.proxy ? ` through the proxy ${ctx.proxy}` : '';
  const proxy = ctx.proxy ?? 'in use';
  const make = (errorCode: string, detail: string, suggestion: string) =>
    new XModelsApiError({ status: 0, code: errorCode, detail, suggestion, cause: error });

  const proxyStatus = /Proxy (?:response \((\d+)\)|Authentication Required \((\d+)\))/.exec(message);
  if (proxyStatus) {
    const status = Number(proxyStatus[1] ?? proxyStatus[2]);
    if (status === 407) {
      return make(
        ErrorCodes.proxyAuth,
        `The proxy ${proxy} asked for credentials (407 Proxy Authentication Required).`,
        'Put the user name and password in the proxy URL (http://user:password@host:port) or check the proxy settings.',
      );
    }
    return make(
      ErrorCodes.proxy,
      `The proxy ${proxy} refused to forward the request to ${ctx.origin} (HTTP ${status}).`,
      'Check the proxy settings, or add the service host to NO_PROXY if it should be reached directly.',
    );
  }
  if (refused.has(code)) {
    return ctx.proxy
      ? make(ErrorCodes.connectionRefused, `Could not connect to the proxy ${ctx.proxy}: the connection was refused.`, 'Check the proxy URL and that the proxy is running.')
      : make(
          ErrorCodes.connectionRefused,
          `Could not connect to ${ctx.origin}: the connection was refused.`,
          'Check that the XModels service is running and that the URL and port are right.',
        );
  }
  if (dns.has(code)) {
    const host = hostOf(ctx.proxy ?? ctx.origin);
    return make(
      ErrorCodes.dns,
      `Could not find the host ${host}: the name did not resolve (${code}).`,
      'Check the URL for typos and that your network (or VPN) is connected.',
    );
  }
  if (timeouts.has(code)) {
    const phase = code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT' ? 'accept the connection' : 'answer';
    return make(
      ErrorCodes.timeout,
      `${ctx.origin}${via} did not ${phase} within ${Math.round(ctx.timeoutMs / 1000)} s.`,
      'Try again; if it keeps happening, check your network and proxy settings or raise the timeout.',
    );
  }
  if (tlsCodes.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) {
    return make(
      ErrorCodes.tls,
      `The secure connection to ${ctx.origin}${via} failed: ${message || code}.`,
      'Check that the URL uses the right scheme (http or https). If your network inspects TLS traffic, add its certificate authority with NODE_EXTRA_CA_CERTS.',
    );
  }
  if (resets.has(code)) {
    return make(
      ErrorCodes.connectionReset,
      `The connection to ${ctx.origin}${via} closed before the answer arrived.`,
      'Try again; check that the service is still running.',
    );
  }
  return make(
    ErrorCodes.network,
    `The request to ${ctx.origin}${via} failed: ${message || code || 'unknown network error'}.`,
    'Check your network connection and the service URL.',
  );
}

/** Node and undici put the code on the error, on its cause, or (for happy-eyeballs connects) on the first of several. */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof candidate.code === 'string' && candidate.code !== 'UND_ERR' && candidate.code !== 'UND_ERR_INVALID_ARG' && candidate.code !== 'UND_ERR_ABORTED') {
      return candidate.code;
    }
    current = candidate.cause ?? candidate.errors?.[0];
  }
  return undefined;
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}
