import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { Database as WasmDatabase } from 'node-sqlite3-wasm';
import { Client as PgClient } from 'pg';
import { DB_FILE } from '../../../src/service/store/database';
import { testCluster } from './postgresCluster';

export const REPO = resolve(__dirname, '../../..');
export const DATASETS = join(REPO, 'media', 'datasets');

let built: Promise<string> | null = null;

/** The packages the bundles load from node_modules at run time (scripts/nodeBundle.mjs). */
async function runtimePackages(): Promise<string[]> {
  return ((await import(pathToFileURL(join(REPO, 'scripts/nodeBundle.mjs')).href)) as { RUNTIME_PACKAGES: string[] }).RUNTIME_PACKAGES;
}

/**
 * The bundles live in a temp dir, outside the repository: they find the packages left out of them through NODE_PATH
 * (a test that empties it sees an installation without them).
 */
const RUNTIME_ENV = { NODE_PATH: join(REPO, 'node_modules') };

/** Bundles the CLI and the worker threads (as esbuild.mjs does for dist/) into a temp dir, once per run. */
export function buildService(): Promise<string> {
  built ??= (async () => {
    const out = mkdtempSync(join(tmpdir(), 'xmodels-service-build-'));
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
    await esbuild.build({
      entryPoints: {
        cli: join(REPO, 'src/cli.ts'),
        'training.worker': join(REPO, 'src/service/training/training.worker.ts'),
        'fit.worker': join(REPO, 'src/engine/fit/fit.worker.ts'),
      },
      outdir: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: await runtimePackages(),
      logLevel: 'error',
    });
    copyFileSync(join(REPO, 'node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm'), join(out, 'node-sqlite3-wasm.wasm'));
    return out;
  })();
  return built;
}

export interface ServiceProcess {
  url: string;
  apiKey: string;
  teamId: string;
  dataDir: string;
  /** The JSON line it printed once listening. */
  printed: { url: string; api_key?: string; team_id: string };
  /** The PostgreSQL URL it runs on; undefined on SQLite. */
  database?: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** kill -9 and wait. */
  kill9(): Promise<void>;
}

/**
 * The backend every service of the run uses: the embedded SQLite store, or PostgreSQL (a fresh database of the test
 * cluster per data dir) when XMODELS_TEST_BACKEND=postgres; `npm test` runs the service suite both ways.
 */
export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.XMODELS_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

const databaseOfDataDir = new Map<string, string>();
/** PostgreSQL prints the default key only on the start that created it; later starts of the database reuse it. */
const keyOfDatabase = new Map<string, string>();

async function databaseFor(dataDir: string, explicit: string | undefined): Promise<string | undefined> {
  const url = explicit ?? databaseOfDataDir.get(dataDir) ?? (TEST_BACKEND === 'postgres' ? await (await testCluster()).createDatabase() : undefined);
  if (url !== undefined) databaseOfDataDir.set(dataDir, url);
  return url;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'xmodels-data-'));
}

export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = await buildService();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(dir, 'cli.js'), ...args], { cwd: REPO, env: { ...process.env, ...RUNTIME_ENV, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/**
 * Spawns `node cli.js serve` on loopback with a real database and waits for its JSON line: SQLite in `dataDir`, or
 * the PostgreSQL database `database` (by default, on the PostgreSQL backend, the one this data dir was first given).
 */
export async function startService(
  options: { dataDir?: string; database?: string; args?: string[]; env?: Record<string, string> } = {},
): Promise<ServiceProcess> {
  const dir = await buildService();
  const dataDir = options.dataDir ?? tempDataDir();
  const database = await databaseFor(dataDir, options.database);
  const args = [...(database ? ['--database', database] : []), ...(options.args ?? [])];
  const child = spawn(process.execPath, [join(dir, 'cli.js'), 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: REPO,
    env: { ...process.env, ...RUNTIME_ENV, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', AZURE_OPENAI_API_KEY: '', AZURE_OPENAI_ENDPOINT: '', ...options.env },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = await new Promise<string>((resolveLine, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      resolveLine(l);
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(line) as { url: string; api_key?: string; team_id: string };
  if (database && info.api_key) keyOfDatabase.set(database, info.api_key);
  const apiKey = info.api_key ?? (database ? keyOfDatabase.get(database) : undefined);
  if (!apiKey) throw new Error(`the service printed no api_key and none is known for its database: ${line}`);
  return {
    url: info.url,
    apiKey,
    printed: info,
    database,
    teamId: info.team_id,
    dataDir,
    child,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The CLI options that name a service's store: its PostgreSQL database, or its data dir. */
export function storeArgs(service: ServiceProcess): string[] {
  return service.database ? ['--database', service.database] : ['--data-dir', service.dataDir];
}

/** Everything a service's database holds, as text: the SQLite files, or every row of every PostgreSQL table. */
export async function storedText(service: ServiceProcess): Promise<string> {
  if (!service.database) {
    return readdirSync(service.dataDir)
      // The running service holds the database lock (the directory xmodels.db.lock) for its lifetime.
      .filter((f) => f.startsWith('xmodels.db') && statSync(join(service.dataDir, f)).isFile())
      .map((f) => readFileSync(join(service.dataDir, f)).toString('latin1'))
      .join('');
  }
  const db = new PgClient({ connectionString: service.database });
  await db.connect();
  try {
    const tables = await db.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
    const rows: string[] = [];
    for (const table of tables.rows) {
      for (const r of (await db.query<{ row: string }>(`SELECT t::text AS row FROM "${table.name}" t`)).rows) rows.push(r.row);
    }
    return rows.join('\n');
  } finally {
    await db.end();
  }
}

/**
 * How many rows each table of the service's store holds (on PostgreSQL also `dataset_files bytes`, the dataset bytes
 * it keeps there). SQLite is read from a copy of the database file, which the running service holds locked.
 */
export async function storedRowCounts(service: ServiceProcess): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (!service.database) {
    const copy = mkdtempSync(join(tmpdir(), 'xmodels-rows-'));
    copyFileSync(join(service.dataDir, DB_FILE), join(copy, DB_FILE));
    const db = new WasmDatabase(join(copy, DB_FILE));
    try {
      const tables = db.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'") as { name: string }[];
      for (const { name } of tables) counts[name] = Number((db.get(`SELECT COUNT(*) AS n FROM "${name}"`) as { n: number }).n);
    } finally {
      db.close();
      removeDir(copy);
    }
    return counts;
  }
  const db = new PgClient({ connectionString: service.database });
  await db.connect();
  try {
    const tables = await db.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
    for (const { name } of tables.rows) counts[name] = Number((await db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${name}"`)).rows[0].n);
    counts['dataset_files bytes'] = Number((await db.query<{ n: string }>('SELECT COALESCE(SUM(length(bytes)), 0) AS n FROM dataset_files')).rows[0].n);
    return counts;
  } finally {
    await db.end();
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by the assertions
type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small JSON client for the tests: the key goes in the api_key header unless `key` is null. */
export function client(url: string, apiKey: string) {
  return async function call<T = Json>(
    method: string,
    path: string,
    options: { json?: unknown; body?: string | FormData | Buffer; contentType?: string; key?: string | null; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const key = options.key === undefined ? apiKey : options.key;
    if (key !== null) headers.api_key = key;
    let body: string | FormData | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    if (options.contentType) headers['content-type'] = options.contentType;
    const res = await fetch(`${url}${path}`, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}

export type Call = ReturnType<typeof client>;

export function mkdir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ServiceFixture {
  service: ServiceProcess;
  call: Call;
}

/** Starts one service for the enclosing describe block (before) and stops it with its data dir (after). */
export function useService(args: string[] = []): ServiceFixture {
  const fixture = {} as ServiceFixture;
  before(async () => {
    fixture.service = await startService({ args });
    fixture.call = client(fixture.service.url, fixture.service.apiKey);
  });
  after(async () => {
    await fixture.service.stop();
    removeDir(fixture.service.dataDir);
  });
  return fixture;
}
