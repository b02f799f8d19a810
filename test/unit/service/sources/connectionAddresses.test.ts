import assert from 'node:assert/strict';
import { createServer, isIP, type Server } from 'node:net';
import { Connections } from '../../../../src/service/sources/connections';
import { parseConnectionUrl } from '../../../../src/service/sources/connectionUrl';
import { SourceError } from '../../../../src/service/sources/source';
import { publicOnlyLookup, type LookupAll } from '../../../../src/service/textgen/addresses';

/** A TCP listener on 127.0.0.1 that counts the connections it gets (it speaks no PostgreSQL). */
async function listener(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, connections: () => count };
}

/** A resolver answering for made-up names: `mixed.example` with a public address after a loopback one. */
const resolve: LookupAll = (name, _options, callback) => {
  const answers: Record<string, string[]> = {
    'mixed.example': ['127.0.0.1', '93.184.216.34'],
    'mixed-late.example': ['93.184.216.34', '127.0.0.1'],
    'loopback.example': ['127.0.0.1'],
  };
  callback(null, (answers[name] ?? []).map((address) => ({ address, family: isIP(address) })));
};

async function failure(connections: Connections, url: string): Promise<SourceError> {
  const error = await connections.add('added', parseConnectionUrl(url)).then(
    () => assert.fail(`${url} was added`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SourceError, String(error));
  return error;
}

describe('service: where a connection added through the API may reach', function () {
  this.timeout(30_000);
  let target: Awaited<ReturnType<typeof listener>>;

  before(async () => {
    target = await listener();
  });
  after(() => new Promise<void>((done) => target.server.close(() => done())));

  it('refuses every loopback, private and IPv6-carried form of an address, as a literal or in a DNS answer, before connecting', async () => {
    const connections = new Connections(new Map(), { lookup: publicOnlyLookup(resolve), allowedHosts: [] });
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /the host 127\.0\.0\.1 is a loopback address/],
      ['[::ffff:127.0.0.1]', /is a loopback address/],
      ['[::127.0.0.1]', /is an IPv6 address that carries an IPv4 address/],
      ['[64:ff9b::7f00:1]', /is a NAT64 address of 127\.0\.0\.1 \(a loopback address\)/],
      ['[64:ff9b::a9fe:a9fe]', /is a NAT64 address of 169\.254\.169\.254 \(a cloud metadata address\)/],
      ['[64:ff9b:1::a00:1]', /carries an IPv4 address/],
      ['[2002:7f00:1::1]', /carries an IPv4 address/],
      ['[2001::7f00:1]', /carries an IPv4 address/],
      ['[::ffff:0:127.0.0.1]', /carries an IPv4 address/],
      ['[fec0::1]', /is a site-local address/],
      ['10.1.2.3', /is a private address/],
      ['169.254.169.254', /is a cloud metadata address/],
      ['mixed.example', /the host mixed\.example resolves to 127\.0\.0\.1, a loopback address/],
      ['mixed-late.example', /resolves to 127\.0\.0\.1, a loopback address/],
      ['loopback.example', /resolves to 127\.0\.0\.1/],
    ];
    for (const [host, problem] of cases) {
      const error = await failure(connections, `postgres://reader:secret@${host}:${target.port}/db`);
      assert.equal(error.failure, 'forbidden', `${host}: ${error.message}`);
      assert.match(error.message, problem, host);
    }
    const socket = await failure(connections, 'postgres://reader:secret@localhost/db?host=/var/run/postgresql');
    assert.equal(socket.failure, 'forbidden');
    assert.match(socket.message, /is reached through the Unix socket \/var\/run\/postgresql\/\.s\.PGSQL\.5432, on this machine/);
    assert.equal(target.connections(), 0, 'no connection reached the listener');
    assert.deepEqual(connections.list(), [], 'nothing was added');
  });

  it('connects a host the operator allows, whatever its address, and any host on the local service', async () => {
    const cases: [Connections, string[]][] = [
      [new Connections(new Map(), { lookup: publicOnlyLookup(resolve), allowedHosts: ['127.0.0.1', '::FFFF:127.0.0.1'] }), ['127.0.0.1', '[::ffff:127.0.0.1]']],
      [new Connections(new Map(), null), ['127.0.0.1', '[::ffff:127.0.0.1]']],
    ];
    for (const [connections, hosts] of cases) {
      const before = target.connections();
      for (const host of hosts) {
        const error = await failure(connections, `postgres://reader:secret@${host}:${target.port}/db`);
        assert.equal(error.failure, 'connect', error.message);
      }
      assert.equal(target.connections(), before + 2, 'the listener was reached');
    }
  });

  it('keeps an operator\u2019s --connection as configured: it is never checked', async () => {
    const operator = new Connections(new Map([['warehouse', parseConnectionUrl(`postgres://reader:secret@127.0.0.1:${target.port}/db`)]]), {
      lookup: publicOnlyLookup(resolve),
      allowedHosts: [],
    });
    const before = target.connections();
    const warehouse = operator.find('warehouse');
    await assert.rejects(warehouse?.source.test() ?? Promise.resolve(), (error: unknown) => error instanceof SourceError && error.failure === 'connect');
    assert.equal(target.connections(), before + 1);
    await operator.close();
  });
});
