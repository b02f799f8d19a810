import assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { XModelsApiError, XModelsClient } from '../../../src/client';
import { closedPort, startProxy, startServer, type Loopback, type LoopbackProxy } from './loopback';
import { API_KEY } from './mockService';
import { hostedNetworkOptions } from '../../../src/connection/vscodeNetwork';

const health = { status: 'ok', version: '1.0.0', local: true, features: [] };

async function failure(promise: Promise<unknown>): Promise<XModelsApiError> {
  const error = await promise.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof XModelsApiError, `expected XModelsApiError, got ${String(error)}`);
  return error;
}

/** Runs `create` with one environment variable set (proxies are resolved when a client is created). */
function withEnv<T>(name: string, value: string, create: () => T): T {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return create();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}

describe('client: network failures and proxies on loopback', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()?.();
  });

  function client(options: Partial<ConstructorParameters<typeof XModelsClient>[0]> & { baseUrl: string }): XModelsClient {
    const c = new XModelsClient({ apiKey: API_KEY, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 }, proxy: null, ...options });
    cleanup.push(() => c.close());
    return c;
  }

  async function service(): Promise<Loopback & { requests: { url: string; apiKey: string | undefined }[] }> {
    const requests: { url: string; apiKey: string | undefined }[] = [];
    const server = await startServer((req, res) => {
      requests.push({ url: req.url ?? '', apiKey: req.headers.api_key as string | undefined });
      const body = req.url === '/v1/teams' ? [{ team_id: 'team-1', team_name: 'Research' }] : health;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    cleanup.push(server.close);
    return { ...server, requests };
  }

  async function proxy(credentials?: string): Promise<LoopbackProxy> {
    const p = await startProxy(credentials);
    cleanup.push(p.close);
    return p;
  }

  it('says the connection was refused and what to check', async () => {
    const port = await closedPort();
    const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).health());
    assert.equal(error.code, 'CONNECTION_REFUSED');
    assert.equal(error.status, 0);
    assert.match(error.message, new RegExp(`Could not connect to http://127.0.0.1:${port}: the connection was refused`));
    assert.match(error.message, /Check that the XModels service is running/);
  });

  it('says a host name did not resolve', async () => {
    const dispatcher = new Agent({
      connect: {
        lookup: ((_host, _options, callback) =>
          callback(Object.assign(new Error('getaddrinfo ENOTFOUND xmodels.invalid'), { code: 'ENOTFOUND' }), '', 4)) as LookupFunction,
      },
    });
    cleanup.push(() => dispatcher.close());
    const error = await failure(client({ baseUrl: 'http://xmodels.invalid:8080', dispatcher }).health());
    assert.equal(error.code, 'DNS_ERROR');
    assert.match(error.message, /Could not find the host xmodels\.invalid/);
  });

  it('times out when the service accepts but never answers', async () => {
    const silent = await startServer(() => undefined);
    cleanup.push(silent.close);
    const error = await failure(client({ baseUrl: silent.url, timeoutMs: 200 }).health());
    assert.equal(error.code, 'TIMEOUT');
    assert.match(error.message, /did not answer within/);
  });

  it('reports a TLS failure when https meets a plain HTTP port', async () => {
    const plain = await service();
    const error = await failure(client({ baseUrl: plain.url.replace('http:', 'https:') }).health());
    assert.equal(error.code, 'TLS_ERROR');
    assert.match(error.message, /secure connection to https:\/\/127\.0\.0\.1:\d+ failed/);
    assert.match(error.message, /right scheme \(http or https\)/);
  });

  it('sends requests through an explicit proxy', async () => {
    const target = await service();
    const p = await proxy();
    const result = await client({ baseUrl: target.url, proxy: p.url }).health();
    assert.equal(result.status, 'ok');
    assert.equal(p.log.length, 1);
    assert.equal(p.log[0].method, 'CONNECT');
    assert.equal(p.log[0].target, `127.0.0.1:${target.port}`);
    assert.deepEqual(target.requests.map((r) => r.url), ['/v1/health']);
  });

  it('passes credentials from the proxy URL and explains a 407', async () => {
    const target = await service();
    const p = await proxy('ada:s3cret');
    const [host] = p.url.split('//').slice(1);
    const teams = await client({ baseUrl: target.url, proxy: `http://ada:s3cret@${host}` }).teams();
    assert.deepEqual(teams, [{ team_id: 'team-1', team_name: 'Research' }]);
    assert.equal(p.log[0].authorization, `Basic ${Buffer.from('ada:s3cret').toString('base64')}`);
    assert.equal(target.requests.at(-1)?.apiKey, API_KEY);

    const error = await failure(client({ baseUrl: target.url, proxy: p.url }).health());
    assert.equal(error.code, 'PROXY_AUTH_REQUIRED');
    assert.match(error.message, new RegExp(`The proxy ${p.url} asked for credentials`));
    assert.ok(!error.message.includes('s3cret'));
  });

  it("follows VS Code's http.proxy, http.proxyAuthorization and http.noProxy through a proxy that requires credentials", async () => {
    const target = await service();
    const p = await proxy('ada:s3cret');
    const authorization = `Basic ${Buffer.from('ada:s3cret').toString('base64')}`;
    const http = { proxy: p.url, noProxy: [], proxyStrictSSL: true, proxyAuthorization: authorization, systemCertificates: true };
    const options = hostedNetworkOptions('', http, () => []);
    const teams = await client({ baseUrl: target.url, ...options }).teams();
    assert.deepEqual(teams, [{ team_id: 'team-1', team_name: 'Research' }]);
    assert.equal(p.log.length, 1, 'the request went through the proxy');
    assert.equal(p.log[0].authorization, authorization);

    const bypass = hostedNetworkOptions('', { ...http, noProxy: ['127.0.0.1'] }, () => []);
    await client({ baseUrl: target.url, ...bypass }).health();
    assert.equal(p.log.length, 1, 'a host in http.noProxy bypasses the proxy');

    const withoutCredentials = hostedNetworkOptions('', { ...http, proxyAuthorization: null }, () => []);
    assert.equal((await failure(client({ baseUrl: target.url, ...withoutCredentials }).health())).code, 'PROXY_AUTH_REQUIRED');
  });

  it("maps VS Code's certificate settings: OS certificates added, verification off only with proxyStrictSSL false", () => {
    const http = { proxy: '', noProxy: ['x.test'], proxyStrictSSL: false, proxyAuthorization: 'Basic x', systemCertificates: true };
    assert.deepEqual(hostedNetworkOptions('', http, () => ['PEM']), { proxy: undefined, tls: { ca: ['PEM'], rejectUnauthorized: false } });
    const own = hostedNetworkOptions('http://own:1', { ...http, proxy: 'http://vscode:2', proxyStrictSSL: true, systemCertificates: false }, () => ['PEM']);
    assert.deepEqual(own, { proxy: 'http://own:1', tls: {} }, "XModels' own proxy setting wins, without VS Code's exceptions");
  });

  it('uses HTTP_PROXY from the environment for a non-loopback host', async () => {
    const target = await service();
    const p = await proxy();
    const c = withEnv('HTTP_PROXY', p.url, () => client({ baseUrl: `http://xmodels.test:${target.port}`, proxy: undefined, noProxy: '' }));
    assert.equal((await c.health()).status, 'ok');
    assert.deepEqual(p.log.map((l) => [l.method, l.target]), [['CONNECT', `xmodels.test:${target.port}`]]);
  });

  it('never sends loopback traffic to a proxy from the environment', async () => {
    const target = await service();
    const p = await proxy();
    await withEnv('HTTP_PROXY', p.url, () => client({ baseUrl: target.url, proxy: undefined })).health();
    assert.equal(p.log.length, 0);
    assert.equal(target.requests.length, 1);
  });

  it('does not retry a refused POST', async () => {
    const port = await closedPort();
    let retries = 0;
    const c = client({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 3, baseDelayMs: 1 }, onRetry: () => retries++ });
    await failure(c.datasets.upload({ csv_content: 'a,b\n1,2\n' }));
    assert.equal(retries, 0);
    await failure(c.datasets.list());
    assert.equal(retries, 3);
  });
});
