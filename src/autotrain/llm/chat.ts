import type { LlmEndpoint } from './textgen';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

export interface ChatAnswer {
  /** One text per returned choice. */
  contents: string[];
  usage: ChatUsage | null;
}

export class ChatError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ChatError';
  }
}

const RETRY_DELAYS_MS = [250, 1000];

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Network failures in the service's own words (the endpoint's host is named beside them). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

function networkReason(error: unknown): string {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code !== 'string') return 'the connection failed';
  if (/CERT|TLS|SSL/.test(code)) return 'its TLS certificate was not accepted';
  return NETWORK_REASONS[code] ?? `the connection failed with ${code}`;
}

function hostOf(endpoint: LlmEndpoint): string {
  return new URL(endpoint.url).host;
}

function abortError(timeout: AbortSignal, endpoint: LlmEndpoint): ChatError {
  return new ChatError(timeout.aborted ? `the text generation call timed out after ${endpoint.timeoutMs} ms` : 'the text generation call was cancelled');
}

function requestBody(endpoint: LlmEndpoint, messages: ChatMessage[], jsonMode: boolean): string {
  return JSON.stringify({
    model: endpoint.model,
    messages,
    ...endpoint.params,
    ...(jsonMode ? { response_format: { type: 'json_object' } } : {}),
  });
}

function parseAnswer(payload: unknown): ChatAnswer {
  const choices = (payload as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw new ChatError('the chat-completions answer has no choices');
  const contents = choices.map((choice) => {
    const content = (choice as { message?: { content?: unknown } })?.message?.content;
    return typeof content === 'string' ? content : '';
  });
  const usage = (payload as { usage?: ChatUsage }).usage ?? null;
  return { contents, usage };
}

/**
 * One chat-completions call with a timeout, backing off on 429 and 5xx. In JSON mode it asks for
 * `response_format: json_object` and repeats the call without it when the server rejects that with a 400.
 * Failures are described in the service's own words: an error body of the endpoint is never repeated.
 */
export async function chatComplete(
  endpoint: LlmEndpoint,
  messages: ChatMessage[],
  options: { json?: boolean; signal?: AbortSignal } = {},
): Promise<ChatAnswer> {
  const timeout = AbortSignal.timeout(endpoint.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let jsonMode = options.json ?? false;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await (endpoint.fetch ?? fetch)(endpoint.url, {
        method: 'POST',
        headers: endpoint.headers,
        body: requestBody(endpoint, messages, jsonMode),
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw abortError(timeout, endpoint);
      if (err instanceof ChatError) throw err;
      throw new ChatError(`the text generation endpoint ${hostOf(endpoint)} could not be reached (${networkReason(err)})`);
    }
    if (response.status === 400 && jsonMode) {
      await response.body?.cancel();
      jsonMode = false;
      continue;
    }
    if ((response.status === 429 || response.status >= 500) && attempt < RETRY_DELAYS_MS.length) {
      await response.body?.cancel();
      await sleep(RETRY_DELAYS_MS[attempt], signal).catch(() => undefined);
      if (signal.aborted) throw abortError(timeout, endpoint);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ChatError(`the text generation endpoint ${hostOf(endpoint)} answered HTTP ${response.status}`, response.status);
    }
    let payload: unknown;
    try {
      payload = await response.json();
    } catch {
      if (signal.aborted) throw abortError(timeout, endpoint);
      throw new ChatError(`the text generation endpoint ${hostOf(endpoint)} answered with a body that is not JSON`);
    }
    return parseAnswer(payload);
  }
}
