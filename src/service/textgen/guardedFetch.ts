import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { ChatError, type Fetcher } from '../../autotrain';
import { ForbiddenAddressError, forbiddenHost } from './addresses';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The caller's key goes to the host it was given for, never to another one a redirect names. */
const CREDENTIAL_HEADERS = ['authorization', 'api-key'];
const HOW_TO_ALLOW = 'this service calls such an address only when its operator allows the endpoint (serve --llm-endpoint URL or XMODELS_LLM_ENDPOINTS)';

/** Which destinations must be public addresses. */
export interface DestinationRule {
  restricts(url: URL): boolean;
}

function refusal(url: URL, first: URL, problem: string): ChatError {
  const subject = url === first ? `the text generation endpoint ${url.host}` : `the text generation endpoint ${first.host} redirected to ${url.host}, which`;
  return new ChatError(`${subject} ${problem}; ${HOW_TO_ALLOW}`);
}

function send(url: URL, init: Parameters<Fetcher>[1], headers: OutgoingHttpHeaders, lookup: LookupFunction | null): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      // A restricted call gets a connection of its own: never a pooled one opened without the lookup's check.
      { method: init.method, headers, signal: init.signal, ...(lookup ? { lookup, agent: false } : {}) },
      resolve,
    );
    request.once('error', reject);
    request.end(init.body);
  });
}

function toResponse(message: IncomingMessage, url: URL): Response {
  const status = message.statusCode ?? 0;
  if (status < 200 || status > 599) {
    message.destroy();
    throw new ChatError(`the text generation endpoint ${url.host} answered with HTTP status ${status}`);
  }
  const headers = new Headers();
  for (let i = 0; i < message.rawHeaders.length; i += 2) headers.append(message.rawHeaders[i], message.rawHeaders[i + 1]);
  const bodyless = status === 204 || status === 205 || status === 304;
  if (bodyless) message.resume();
  const body = bodyless ? null : (Readable.toWeb(message) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: message.statusMessage, headers });
}

/**
 * A `fetch` for chat-completions calls that follows redirects itself, sending the same request to each place, so that
 * every destination `rule` restricts (the first and each redirect's) is checked: an IP literal or metadata name before
 * connecting, a host name's addresses after resolving it.
 */
export function guardedFetch(rule: DestinationRule, lookup: LookupFunction): Fetcher {
  return async (input, init) => {
    const first = new URL(input);
    let url = first;
    const headers: OutgoingHttpHeaders = { ...init.headers, 'content-length': Buffer.byteLength(init.body) };
    for (let redirects = 0; ; redirects++) {
      const restricted = rule.restricts(url);
      const problem = restricted ? forbiddenHost(url) : undefined;
      if (problem) throw refusal(url, first, problem);
      let message: IncomingMessage;
      try {
        message = await send(url, init, headers, restricted ? lookup : null);
      } catch (error) {
        if (error instanceof ForbiddenAddressError) throw refusal(url, first, error.problem);
        throw error;
      }
      const location = REDIRECTS.has(message.statusCode ?? 0) ? message.headers.location : undefined;
      if (!location) return toResponse(message, url);
      message.resume();
      if (redirects === MAX_REDIRECTS) throw new ChatError(`the text generation endpoint ${first.host} redirected more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new ChatError(`the text generation endpoint ${first.host} redirected to a ${next.protocol} address, which this service does not follow`);
      }
      if (next.origin !== url.origin) {
        for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
      }
      url = next;
    }
  };
}
