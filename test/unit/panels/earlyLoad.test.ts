import assert from 'node:assert/strict';
import { EarlyLoad } from '../../../src/panels/earlyLoad';

function startLoad(result: Promise<unknown> = Promise.resolve('data')) {
  const seen: { signal?: AbortSignal; calls: number } = { calls: 0 };
  const early = new EarlyLoad({ versionId: 'v1', modelId: 'm1' }, (signal) => {
    seen.calls++;
    seen.signal = signal;
    return result;
  });
  return { early, seen };
}

describe('a panel\u2019s early load', () => {
  it('starts at once and is taken over by the first load request with the same parameters, once', async () => {
    const { early, seen } = startLoad();
    assert.equal(seen.calls, 1);
    const taken = early.takeOver({ versionId: 'v1', modelId: 'm1' });
    assert.ok(taken);
    assert.equal(await taken.result, 'data');
    assert.equal(taken.controller.signal, seen.signal);
    assert.equal(early.takeOver({ versionId: 'v1', modelId: 'm1' }), undefined, 'a Retry loads afresh');
    early.abort();
    assert.equal(seen.signal?.aborted, false, 'closing the panel leaves the request that took it over to its owner');
  });

  it('is aborted when the first request asks for something else, or the panel closes first', () => {
    const other = startLoad();
    assert.equal(other.early.takeOver({ versionId: 'v2' }), undefined);
    assert.equal(other.seen.signal?.aborted, true);
    const closed = startLoad();
    closed.early.abort();
    assert.equal(closed.seen.signal?.aborted, true);
  });

  it('keeps a failure for the request that takes it over, without an unhandled rejection before', async () => {
    const { early } = startLoad(Promise.reject(new Error('service unreachable')));
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(early.takeOver({ versionId: 'v1', modelId: 'm1' })!.result, /service unreachable/);
  });

  it('gives its result to post before the webview asks, and still to the request that takes it over', async () => {
    const { early, seen } = startLoad();
    assert.equal(await early.preload(), 'data');
    const taken = early.takeOver({ versionId: 'v1', modelId: 'm1' });
    assert.equal(await taken?.result, 'data', 'a page that missed the preload asks and gets the same result');
    assert.equal(seen.calls, 1, 'loaded once');
    assert.equal(early.preload(), undefined, 'nothing to post once a request has it');
  });
});
