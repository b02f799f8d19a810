import assert from 'node:assert/strict';
import { parseRetryAfterMs, retryDelayMs, sleep } from '../../../src/client/retry';
import { XModelsApiError } from '../../../src/client';

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 2000 };

describe('client: retry delays', () => {
  it('honours Retry-After in seconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('3', now), 3000);
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:02 GMT', now), 2000);
    assert.equal(parseRetryAfterMs('soon', now), undefined);
    assert.equal(retryDelayMs(0, '1', policy, () => 0.5, now), 1000);
  });

  it('caps Retry-After at the policy maximum', () => {
    assert.equal(retryDelayMs(0, '3600', policy), 2000);
  });

  it('backs off exponentially with jitter between half and all of the ceiling', () => {
    assert.equal(retryDelayMs(0, undefined, policy, () => 0), 50);
    assert.equal(retryDelayMs(0, undefined, policy, () => 1), 100);
    assert.equal(retryDelayMs(2, undefined, policy, () => 0), 200);
    assert.equal(retryDelayMs(2, undefined, policy, () => 1), 400);
    assert.equal(retryDelayMs(10, undefined, policy, () => 1), 2000);
  });

  it('stops waiting when the signal fires', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal, 'Waiting');
    controller.abort();
    await assert.rejects(waiting, (e: XModelsApiError) => e instanceof XModelsApiError && e.code === 'ABORTED' && e.cancelled);
  });
});
