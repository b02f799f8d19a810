/**
 * A PostgreSQL server for the tests: a private cluster started once per test process (in a temp dir, on a free
 * loopback port, password logins only, tuned for speed rather than durability) and removed at exit, or the server
 * named by XMODELS_TEST_DATABASE_URL (a URL of a role that may create roles and databases, on a server that checks
 * passwords). Every suite gets a fresh database owned by a test role that logs in with a password.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from 'pg';

export interface TestCluster {
  host: string;
  port: number;
  /** The test role: it owns the databases createDatabase makes, and logs in with `password`. */
  user: string;
  password: string;
  /** A fresh empty database; resolves with the test role's URL of it. The admin owns it when `ownedByAdmin`. */
  createDatabase(options?: { ownedByAdmin?: boolean }): Promise<string>;
  /** Runs statements as the administrator role, in `database` (default: the server's maintenance database). */
  admin(sql: string[], database?: string): Promise<void>;
}

const TEST_ROLE = 'xmodels_test';

/** On a shared server the run drops the databases it created; a private cluster goes away with its directory. */
let dropCreatedDatabases: (() => Promise<void>) | null = null;
// Benches use the cluster outside mocha, where there is no `after`.
if (typeof after === 'function') {
  after(async () => {
    await dropCreatedDatabases?.();
  });
}

function findBinary(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', name))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length) return join(root, versions[0], 'bin', name);
  throw new Error(`The PostgreSQL tests need ${name}: install PostgreSQL (apt-get install postgresql) or set XMODELS_TEST_DATABASE_URL.`);
}

/** initdb refuses to run as root: there the server's files and processes belong to the `postgres` system user. */
function serverUser(): { command: (argv: string[]) => [string, string[]]; chown: (path: string) => void } {
  if (process.getuid?.() !== 0) return { command: ([file, ...args]) => [file, args], chown: () => undefined };
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  const [uid, gid] = [id('-u'), id('-g')];
  return {
    command: (argv) => ['runuser', ['-u', 'postgres', '--', ...argv]],
    chown: (path) => chownSync(path, uid, gid),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Server {
  host: string;
  port: number;
  adminUrl: (database?: string) => string;
}

/** A private server of its own in a temp dir, removed at exit; `settings` are more lines of its postgresql.conf. */
export async function startPrivateCluster(settings: readonly string[] = []): Promise<Server> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  const as = serverUser();
  const run = (argv: string[]) => {
    const [file, args] = as.command(argv);
    const result = spawnSync(file, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${result.stderr || result.stdout || result.error?.message}`);
  };
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-pg-'));
  as.chown(dir);
  const data = join(dir, 'data');
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  as.chown(pwfile);
  run([initdb, '-D', data, '-U', 'xmodels_admin', `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-sync', '--no-instructions']);
  rmSync(pwfile);
  const port = await freePort();
  // Durability is not needed for throwaway test data: skipping the flushes makes every commit cheap.
  appendFileSync(
    join(data, 'postgresql.conf'),
    [`listen_addresses = '127.0.0.1'`, `port = ${port}`, `unix_socket_directories = '${dir}'`, 'fsync = off', 'synchronous_commit = off',
      'full_page_writes = off', 'max_connections = 200', 'shared_buffers = 32MB', ...settings].join('\n') + '\n',
  );
  run([pgCtl, '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  process.once('exit', () => {
    const [file, args] = as.command([pgCtl, '-D', data, '-m', 'immediate', '-w', 'stop']);
    spawnSync(file, args);
    rmSync(dir, { recursive: true, force: true });
  });
  const host = '127.0.0.1';
  return { host, port, adminUrl: (database = 'postgres') => `postgres://xmodels_admin:${password}@${host}:${port}/${database}` };
}

function externalServer(url: string): Server {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    adminUrl: (database) => {
      const copy = new URL(url);
      if (database) copy.pathname = `/${database}`;
      return copy.toString();
    },
  };
}

async function asAdmin(server: Server, sql: string[], database?: string): Promise<void> {
  const client = new Client({ connectionString: server.adminUrl(database) });
  await client.connect();
  try {
    for (const statement of sql) await client.query(statement);
  } finally {
    await client.end();
  }
}

async function open(): Promise<TestCluster> {
  const external = process.env.XMODELS_TEST_DATABASE_URL;
  const server = external ? externalServer(external) : await startPrivateCluster();
  const password = randomBytes(12).toString('hex');
  // An existing role (an earlier run against the same server) gets this run's password.
  await asAdmin(server, [
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${TEST_ROLE}') THEN CREATE ROLE ${TEST_ROLE} LOGIN; END IF;
     END $$`,
    `ALTER ROLE ${TEST_ROLE} LOGIN PASSWORD '${password}'`,
  ]);
  const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const databases: string[] = [];
  if (external) dropCreatedDatabases = () => asAdmin(server, databases.map((name) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return {
    host: server.host,
    port: server.port,
    user: TEST_ROLE,
    password,
    createDatabase: async (options = {}) => {
      const name = `xmodels_test_${run}_${databases.length + 1}`;
      databases.push(name);
      await asAdmin(server, [`CREATE DATABASE ${name}${options.ownedByAdmin ? '' : ` OWNER ${TEST_ROLE}`}`]);
      return `postgres://${TEST_ROLE}:${password}@${server.host}:${server.port}/${name}`;
    },
    admin: (sql, database) => asAdmin(server, sql, database),
  };
}

let cluster: Promise<TestCluster> | null = null;

/** The test server, started on first use. */
export function testCluster(): Promise<TestCluster> {
  cluster ??= open();
  return cluster;
}
