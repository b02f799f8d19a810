import { abortedError } from './errors';

export interface BackoffPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Delay before retry number `attempt` (0-based): the server's Retry-After when it sent one (capped at `maxDelayMs`),
 * else exponential backoff with jitter, so clients that failed together do not retry together.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | undefined,
  policy: BackoffPolicy,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  const fromHeader = retryAfter === undefined ? undefined : parseRetryAfterMs(retryAfter, now);
  if (fromHeader !== undefined) return Math.min(fromHeader, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Retry-After is either a number of seconds or an HTTP date. */
export function parseRetryAfterMs(value: string, now: number = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, rejecting with a cancellation error as soon as `signal` fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(what, signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(what, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
