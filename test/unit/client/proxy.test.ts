import assert from 'node:assert/strict';
import { isLoopback, matchesNoProxy, resolveProxy } from '../../../src/client/proxy';

const hosted = new URL('https://api.example.com/v1');
const local = new URL('http://127.0.0.1:8765');

describe('client: proxy resolution', () => {
  it('reads HTTPS_PROXY for https and HTTP_PROXY for http, in either case', () => {
    const env = { https_proxy: 'http://secure-proxy:3128', HTTP_PROXY: 'http://plain-proxy:3128' };
    assert.equal(resolveProxy(hosted, {}, env), 'http://secure-proxy:3128');
    assert.equal(resolveProxy(new URL('http://api.example.com'), {}, env), 'http://plain-proxy:3128');
  });

  it('never sends loopback traffic to a proxy from the environment', () => {
    assert.equal(resolveProxy(local, {}, { HTTP_PROXY: 'http://proxy:3128' }), undefined);
    assert.ok(isLoopback('localhost') && isLoopback('127.0.0.9') && isLoopback('[::1]'));
    assert.ok(!isLoopback('10.0.0.1'));
  });

  it('uses an explicit proxy even for loopback, unless NO_PROXY names the host', () => {
    assert.equal(resolveProxy(local, { proxy: 'http://proxy:1' }, {}), 'http://proxy:1');
    assert.equal(resolveProxy(local, { proxy: 'http://proxy:1', noProxy: '127.0.0.1' }, {}), undefined);
    assert.equal(resolveProxy(hosted, { proxy: null }, { HTTPS_PROXY: 'http://proxy:1' }), undefined);
  });

  it('matches NO_PROXY entries by host, domain suffix, port and wildcard', () => {
    assert.ok(matchesNoProxy(hosted, 'example.com'));
    assert.ok(matchesNoProxy(hosted, 'other.org, .example.com'));
    assert.ok(matchesNoProxy(hosted, 'api.example.com:443'));
    assert.ok(!matchesNoProxy(hosted, 'api.example.com:8443'));
    assert.ok(!matchesNoProxy(hosted, 'ample.com'));
    assert.ok(matchesNoProxy(hosted, '*'));
    assert.equal(resolveProxy(hosted, {}, { HTTPS_PROXY: 'http://proxy:1', no_proxy: 'example.com' }), undefined);
  });
});
