import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { Agent, ProxyAgent, request, type Dispatcher } from './undici';
import type { z } from 'zod';
import { abortedError, invalidArgument, XModelsApiError } from './errors';
import { errorFromResponse, parseResponse } from './httpErrors';
import { isTransientNetworkError, networkError, type NetworkContext } from './networkErrors';
import { resolveProxy } from './proxy';
import { retryDelayMs, sleep, type BackoffPolicy } from './retry';

export interface XModelsClientOptions {
  /** Service address, e.g. `http://127.0.0.1:8765` or `https://api.example.com`. A path in it is kept. */
  baseUrl: string;
  apiKey: string;
  /** Prefix of every operation path (default `/v1`; some hosted deployments use `/v1/client`). */
  pathPrefix?: string;
  /** Team for every call (the `team_id` header); the key's default team when omitted. */
  teamId?: string;
  /** Proxy URL (`http://user:pass@host:port`); `null` connects directly; omitted reads HTTPS_PROXY/HTTP_PROXY. */
  proxy?: string | null;
  /** Hosts that bypass the proxy (NO_PROXY syntax); omitted reads NO_PROXY. */
  noProxy?: string;
  /** The `Proxy-Authorization` value (e.g. `Basic …`) for a proxy whose URL carries no credentials. */
  proxyAuthorization?: string;
  /** TLS to the service and the proxy: extra trusted certificates (added to Node's own) and whether to verify. */
  tls?: { ca?: readonly string[]; rejectUnauthorized?: boolean };
  /** How long to wait for a connection, the response headers, or the next chunk of a body (default 120 s). */
  timeoutMs?: number;
  /** An undici dispatcher to send through instead of the client's own keep-alive agent (tests, custom TLS). */
  dispatcher?: Dispatcher;
  /** Retries of idempotent calls (GET, PUT, DELETE) after connection errors, 429 and 503. */
  retry?: Partial<BackoffPolicy>;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (info: RetryInfo) => void;
  /**
   * The service is this machine's local service (loopback, embedded store): a local file to train or predict on is
   * registered by its path and read where it lies (POST /v1/datasets {source: {file}}) instead of being uploaded.
   */
  filesInPlace?: boolean;
}

export interface RetryInfo {
  request: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

/** Options every method takes last. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** A response body that is not JSON, to be read as a stream. */
export interface DownloadedBody {
  content: Readable;
  /** Its size in bytes, when the service said. */
  length: number | undefined;
  contentType: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RequestBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'stream'; contentType: string; length?: number; content: Readable | Uint8Array };

export interface RequestSpec<S extends z.ZodType | undefined> {
  method: HttpMethod;
  /** Path below the prefix, segments already encoded (`models/abc`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: RequestBody;
  /** Schema of the 2xx body; undefined for answers without one (204). */
  schema: S;
  signal?: AbortSignal;
  /** Sends no `api_key` (health). */
  anonymous?: boolean;
}

type Result<S> = S extends z.ZodType ? z.output<S> : undefined;

const defaultPolicy: BackoffPolicy = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };
const retryableStatuses = new Set([429, 503]);

/** Sends requests: URL building, headers, proxy, timeouts, retries, error mapping and response validation. */
export class Transport {
  readonly pathPrefix: string;
  /** See XModelsClientOptions.filesInPlace. */
  readonly filesInPlace: boolean;
  teamId: string | undefined;
  private readonly base: URL;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly policy: BackoffPolicy;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly network: NetworkContext;
  private readonly onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(options: XModelsClientOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    if (!options.apiKey) throw invalidArgument('apiKey is empty: pass the API key of the service.', 'apiKey');
    this.apiKey = options.apiKey;
    this.pathPrefix = normalizePrefix(options.pathPrefix ?? '/v1');
    this.filesInPlace = options.filesInPlace ?? false;
    this.teamId = options.teamId || undefined;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.policy = { ...defaultPolicy, ...options.retry };
    this.onRetry = options.onRetry;
    const proxy = options.dispatcher ? undefined : resolveProxy(this.base, options);
    this.network = { origin: this.base.origin, proxy: proxy && safeOrigin(proxy), timeoutMs: this.timeoutMs };
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher = options.dispatcher ?? this.createDispatcher(proxy, options);
  }

  /** Closes the client's own connections (an injected dispatcher is left to its owner). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  async send<S extends z.ZodType | undefined>(spec: RequestSpec<S>): Promise<Result<S>> {
    const label = `${spec.method} ${this.pathPrefix}/${spec.path}`;
    const text = await this.readBody(await this.exchange(spec, label), label, spec.signal);
    return (spec.schema ? parseResponse(spec.schema, text, label) : undefined) as Result<S>;
  }

  /** GETs a body that is text, not JSON (a report), whole. */
  async getText(path: string, query: RequestSpec<undefined>['query'], options: CallOptions | undefined): Promise<string> {
    const spec = { method: 'GET' as const, path, query, schema: undefined, signal: options?.signal };
    const label = `GET ${this.pathPrefix}/${path}`;
    return this.readBody(await this.exchange(spec, label), label, spec.signal);
  }

  /** GETs a body that is not JSON (a file) as a stream, with its length and content type. */
  async download(path: string, options: CallOptions | undefined): Promise<DownloadedBody> {
    const spec = { method: 'GET' as const, path, schema: undefined, signal: options?.signal };
    const response = await this.exchange(spec, `GET ${this.pathPrefix}/${path}`);
    const length = Number(headerValue(response.headers['content-length']));
    return {
      content: response.body,
      length: Number.isInteger(length) && length >= 0 ? length : undefined,
      contentType: headerValue(response.headers['content-type']) ?? 'application/octet-stream',
    };
  }

  /** Sends the request, retrying what may be retried; resolves with a 2xx response whose body is still to be read. */
  private async exchange(spec: RequestSpec<z.ZodType | undefined>, label: string): Promise<Dispatcher.ResponseData> {
    const idempotent = spec.method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      if (spec.signal?.aborted) throw abortedError(label, spec.signal.reason);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(this.dispatcher, this.url(spec), {
          method: spec.method,
          headers: this.headers(spec),
          body: encodeBody(spec.body),
          signal: spec.signal,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        });
      } catch (error) {
        if (spec.signal?.aborted) throw abortedError(label, error);
        if (idempotent && attempt < this.policy.maxRetries && isTransientNetworkError(error)) {
          await this.backoff(label, attempt, undefined, (error as Error).message, spec.signal);
          continue;
        }
        throw this.redacted(networkError(error, this.network));
      }
      const { statusCode } = response;
      if (idempotent && attempt < this.policy.maxRetries && retryableStatuses.has(statusCode)) {
        await response.body.dump();
        await this.backoff(label, attempt, headerValue(response.headers['retry-after']), `HTTP ${statusCode}`, spec.signal);
        continue;
      }
      if (statusCode < 200 || statusCode >= 300) {
        throw errorFromResponse(statusCode, await this.readBody(response, label, spec.signal), label, (t) => this.redact(t));
      }
      return response;
    }
  }

  get<S extends z.ZodType>(path: string, schema: S, options: CallOptions | undefined, query?: RequestSpec<S>['query']): Promise<z.output<S>> {
    return this.send({ method: 'GET', path, query, schema, signal: options?.signal }) as Promise<z.output<S>>;
  }

  postJson<S extends z.ZodType>(path: string, value: unknown, schema: S, options: CallOptions | undefined): Promise<z.output<S>> {
    return this.send({ method: 'POST', path, body: { kind: 'json', value }, schema, signal: options?.signal }) as Promise<z.output<S>>;
  }

  private async readBody(response: Dispatcher.ResponseData, label: string, signal: AbortSignal | undefined): Promise<string> {
    try {
      return await response.body.text();
    } catch (error) {
      if (signal?.aborted) throw abortedError(label, error);
      throw this.redacted(networkError(error, this.network));
    }
  }

  private async backoff(label: string, attempt: number, retryAfter: string | undefined, reason: string, signal: AbortSignal | undefined) {
    const delayMs = retryDelayMs(attempt, retryAfter, this.policy);
    this.onRetry?.({ request: label, attempt: attempt + 1, delayMs, reason: this.redact(reason) });
    await sleep(delayMs, signal, label);
  }

  private url(spec: RequestSpec<z.ZodType | undefined>): URL {
    const url = new URL(this.base);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}${this.pathPrefix}/${spec.path}`;
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  private headers(spec: RequestSpec<z.ZodType | undefined>): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'xmodels-client' };
    if (!spec.anonymous) headers.api_key = this.apiKey;
    if (this.teamId && !spec.anonymous) headers.team_id = this.teamId;
    if (spec.body?.kind === 'json') headers['content-type'] = 'application/json';
    if (spec.body?.kind === 'stream') {
      headers['content-type'] = spec.body.contentType;
      if (spec.body.length !== undefined) headers['content-length'] = String(spec.body.length);
    }
    return headers;
  }

  private createDispatcher(proxy: string | undefined, options: Pick<XModelsClientOptions, 'proxyAuthorization' | 'tls'>): Dispatcher {
    const tls = {
      ...(options.tls?.ca?.length ? { ca: [...rootCertificates, ...options.tls.ca] } : {}),
      ...(options.tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    };
    const agentOptions = {
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connect: { timeout: Math.min(this.timeoutMs, 15_000), ...tls },
    };
    if (!proxy) return new Agent(agentOptions);
    if (!URL.canParse(proxy) || !/^https?:$/.test(new URL(proxy).protocol)) {
      throw invalidArgument('The proxy setting is not a URL: use the form http://host:port (or http://user:password@host:port).', 'proxy');
    }
    const hasCredentials = new URL(proxy).username !== '';
    return new ProxyAgent({
      ...agentOptions,
      uri: proxy,
      requestTls: tls,
      proxyTls: tls,
      ...(options.proxyAuthorization && !hasCredentials ? { token: options.proxyAuthorization } : {}),
    });
  }

  /** Masks the API key wherever it could surface (a service echoing headers, a URL in a message). */
  redact(text: string): string {
    // A key of a few characters would match ordinary words; real keys are long.
    if (this.apiKey.length < 8) return text;
    return text.split(this.apiKey).join('[redacted]');
  }

  private redacted(error: XModelsApiError): XModelsApiError {
    if (!error.detail.includes(this.apiKey)) return error;
    return new XModelsApiError({ ...error, detail: this.redact(error.detail), suggestion: error.suggestion, cause: error.cause });
  }
}

function encodeBody(body: RequestBody | undefined): string | Readable | Uint8Array | undefined {
  if (!body) return undefined;
  return body.kind === 'json' ? JSON.stringify(body.value) : body.content;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalidArgument(`baseUrl "${baseUrl}" is not a URL: use a full address such as http://127.0.0.1:8765.`, 'baseUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidArgument(`baseUrl "${url.origin}" must start with http:// or https://.`, 'baseUrl');
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url;
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid proxy URL)';
  }
}

/** Segment of a path, encoded so an id can never change the route. */
export function segment(id: string): string {
  if (!id) throw invalidArgument('An id is empty: pass the id of an existing object.', 'id');
  return encodeURIComponent(id);
}
