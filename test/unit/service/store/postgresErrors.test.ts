import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { openPostgres } from '../../../../src/service/store/postgres';
import { redactUrl } from '../../../../src/service/store/postgresErrors';
import { testCluster, type TestCluster } from '../postgresCluster';

/** Opening `url` fails with one sentence matching `expected`, which never shows `secret` nor looks like a stack. */
async function assertStartupError(url: string, expected: RegExp, secret: string, options = {}): Promise<void> {
  await assert.rejects(openPostgres(url, options), (error: Error) => {
    assert.match(error.message, expected);
    assert.ok(!error.message.includes(secret), `the message shows the password: ${error.message}`);
    assert.doesNotMatch(error.message, /\n|\bat .+:\d+:\d+/);
    return true;
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

describe('store: PostgreSQL startup errors', function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let url: URL;

  before(async () => {
    cluster = await testCluster();
    url = new URL(await cluster.createDatabase());
  });

  const withUrl = (change: (copy: URL) => void) => {
    const copy = new URL(url);
    change(copy);
    return copy.toString();
  };

  it('hides the password of a URL it shows', () => {
    assert.equal(redactUrl('postgres://ann:s3cr%40t@db:5432/x'), 'postgres://ann:***@db:5432/x');
    assert.equal(redactUrl('postgres://db/x?user=ann&password=s3cret&sslmode=require'), 'postgres://db/x?user=ann&password=***&sslmode=require');
    assert.equal(redactUrl('postgres://ann@db/x'), 'postgres://ann@db/x');
  });

  it('names a malformed URL without its password', async () => {
    await assertStartupError('not a url', /The database URL not a url is not a PostgreSQL URL: write it as postgres:\/\/user:password@host:port\/database\./, 'x');
    await assertStartupError('mysql://ann:hunter2@db:3306/x', /The database URL mysql:\/\/ann:\*\*\*@db:3306\/x is not a PostgreSQL URL/, 'hunter2');
    await assertStartupError('postgres://ann:hunter2@db:5432', /The database URL postgres:\/\/ann:\*\*\*@db:5432 is not a PostgreSQL URL/, 'hunter2');
  });

  it('says when nothing listens on the host and port', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    await assertStartupError(
      `postgres://ann:hunter2@127.0.0.1:${port}/x`,
      new RegExp(`^Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port} \\(connection refused\\): start the server or fix the host and port`),
      'hunter2',
    );
  });

  it('says when the host does not exist', async () => {
    await assertStartupError('postgres://ann:hunter2@no-such-host.invalid:5432/x', /^Cannot connect to PostgreSQL at no-such-host\.invalid:5432: the host no-such-host\.invalid was not found; fix the host/, 'hunter2');
  });

  it('says when the server does not answer in time', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    const port = await listen(silent);
    try {
      await assertStartupError(`postgres://ann:hunter2@127.0.0.1:${port}/x`, /^Cannot connect to PostgreSQL at 127\.0\.0\.1:\d+: no answer in time/, 'hunter2', {
        connectTimeoutMs: 300,
      });
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('says when the password is wrong or missing', async () => {
    await assertStartupError(
      withUrl((copy) => (copy.password = 'wrong-password')),
      new RegExp(`refused the login of user "${cluster.user}" \\(password authentication failed for user "${cluster.user}"\\): fix the user name or password`),
      'wrong-password',
    );
    await assertStartupError(
      withUrl((copy) => (copy.password = '')),
      new RegExp(`asks user "${cluster.user}" for a password and the database URL postgres://${cluster.user}@.* has none`),
      cluster.password,
    );
  });

  it('says when the database does not exist', async () => {
    await assertStartupError(
      withUrl((copy) => (copy.pathname = '/no_such_db')),
      /^The database "no_such_db" does not exist on PostgreSQL at .*: create it \(CREATE DATABASE "no_such_db"\) or fix the database name/,
      cluster.password,
    );
  });

  it('says when the user may not create the tables', async () => {
    const locked = new URL(await cluster.createDatabase({ ownedByAdmin: true }));
    const name = locked.pathname.slice(1);
    await cluster.admin(['REVOKE CREATE ON SCHEMA public FROM PUBLIC'], name);
    await assertStartupError(
      locked.toString(),
      new RegExp(`^User "${cluster.user}" may not create the XModels tables in database "${name}" .*\\(permission denied for schema public\\): grant it CREATE`),
      cluster.password,
    );
  });
});
