import assert from 'node:assert/strict';
import {
  LatestRequests,
  PANEL_METHODS,
  parseHostMessage,
  parseWebviewMessage,
  Preloads,
  RequestTracker,
  VIEW_TYPES,
} from '../../../src/views/protocol';

describe('views: message protocol', () => {
  it('accepts ready and requests for the methods the panel has', () => {
    assert.deepEqual(parseWebviewMessage('profile', { kind: 'ready' }), { kind: 'ready' });
    const request = { kind: 'request', id: 3, method: 'refit', params: { feature: 'age' } };
    assert.deepEqual(parseWebviewMessage('profile', request), request);
  });

  it('rejects a method another panel has, and malformed ids and params', () => {
    assert.equal(parseWebviewMessage('evaluation', { kind: 'request', id: 1, method: 'refit', params: {} }), undefined);
    assert.equal(parseWebviewMessage('profile', { kind: 'request', id: -1, method: 'load', params: {} }), undefined);
    assert.equal(parseWebviewMessage('profile', { kind: 'request', id: 1.5, method: 'load', params: {} }), undefined);
    assert.equal(parseWebviewMessage('profile', { kind: 'request', id: 1, method: 'load', params: 'x' }), undefined);
    assert.equal(parseWebviewMessage('profile', { kind: 'request', id: 1, method: 'toString', params: {} }), undefined);
    assert.equal(parseWebviewMessage('profile', null), undefined);
    assert.equal(parseWebviewMessage('profile', { kind: 'init', args: {} }), undefined);
  });

  it('accepts init with arguments and well-formed responses from the host only', () => {
    assert.deepEqual(parseHostMessage({ kind: 'init', args: { versionId: 'v' } }), { kind: 'init', args: { versionId: 'v' } });
    assert.equal(parseHostMessage({ kind: 'init' }), undefined);
    assert.ok(parseHostMessage({ kind: 'response', id: 1, ok: true, result: null }));
    assert.ok(parseHostMessage({ kind: 'response', id: 1, ok: false, error: { message: 'no' } }));
    assert.equal(parseHostMessage({ kind: 'response', id: 1, ok: false, error: 'no' }), undefined);
    assert.equal(parseHostMessage({ kind: 'response', id: '1', ok: true, result: 1 }), undefined);
  });

  it('names a distinct view type and at least a load method for every panel', () => {
    const types = Object.values(VIEW_TYPES);
    assert.equal(new Set(types).size, types.length);
    for (const methods of Object.values(PANEL_METHODS)) assert.ok(methods.includes('load' as never));
  });

  it('gives each request its own id and settles it once with its result or error', async () => {
    const tracker = new RequestTracker();
    const first = tracker.start<number>();
    const second = tracker.start<number>();
    assert.notEqual(first.id, second.id);
    assert.equal(tracker.size, 2);
    assert.equal(tracker.settle({ kind: 'response', id: second.id, ok: false, error: { message: 'Refit failed: bad weight' } }), true);
    assert.equal(tracker.settle({ kind: 'response', id: first.id, ok: true, result: 42 }), true);
    assert.equal(await first.result, 42);
    await assert.rejects(second.result, { message: 'Refit failed: bad weight' });
    assert.equal(tracker.settle({ kind: 'response', id: first.id, ok: true, result: 1 }), false);
    assert.equal(tracker.size, 0);
  });

  it('treats only the latest request of a channel as current', () => {
    const latest = new LatestRequests();
    latest.begin('load', 1);
    assert.equal(latest.isCurrent('load', 1), true);
    latest.begin('load', 2);
    latest.begin('refit', 3);
    assert.equal(latest.isCurrent('load', 1), false);
    assert.equal(latest.isCurrent('load', 2), true);
    assert.equal(latest.isCurrent('refit', 3), true);
    assert.equal(latest.isCurrent('copy', 3), false);
  });

  it('accepts init with a preloaded answer naming its method and parameters', () => {
    const init = { kind: 'init', args: { versionId: 'v' }, preloaded: { method: 'load', params: { versionId: 'v' }, result: { a: 1 } } };
    assert.deepEqual(parseHostMessage(init), init);
    assert.equal(parseHostMessage({ ...init, preloaded: { params: { versionId: 'v' }, result: 1 } }), undefined);
    assert.equal(parseHostMessage({ ...init, preloaded: { method: 'load', params: 'v', result: 1 } }), undefined);
  });

  it('answers the first request for a preload\u2019s method and parameters from it, once', () => {
    const preloads = new Preloads();
    preloads.keep({ method: 'load', params: { versionId: 'v' }, result: 'data' });
    assert.equal(preloads.take('load', { versionId: 'w' }), undefined, 'other parameters');
    assert.equal(preloads.take('refit', { versionId: 'v' }), undefined, 'another method');
    assert.deepEqual(preloads.take('load', { versionId: 'v' }), { result: 'data' });
    assert.equal(preloads.take('load', { versionId: 'v' }), undefined, 'a Retry asks the host again');
  });
});
