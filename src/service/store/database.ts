import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { MIGRATIONS } from './migrations';

export type Row = Record<string, string | number | bigint | Uint8Array | null>;
export type Params = Record<string, string | number | boolean | null> | Array<string | number | boolean | null>;

const DB_FILE = 'xmodels.db';
const PID_FILE = 'service.pid';
const BUSY_RETRY_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export interface StoreOptions {
  /**
   * Hold the database lock for the connection's lifetime (the service): the WASM build otherwise creates and removes
   * a lock directory around every statement and re-reads the schema, which caps reads at a few thousand a second.
   */
  exclusive?: boolean;
}

function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live service that owns the data dir, or null. */
export function liveServicePid(dataDir: string): number | null {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid) ? pid : null;
}

/**
 * The WASM SQLite build locks the database by creating the directory `<db>.lock`; a killed process leaves it
 * behind and every later write would stay busy. Remove it when no live process owns the data dir.
 */
export function clearStaleLock(dataDir: string): void {
  if (liveServicePid(dataDir) !== null) return;
  rmSync(join(dataDir, `${DB_FILE}.lock`), { recursive: true, force: true });
}

export function claimDataDir(dataDir: string): void {
  const owner = liveServicePid(dataDir);
  if (owner !== null) {
    throw new Error(`Another XModels service (pid ${owner}) is using the data dir ${dataDir}; stop it or pick another --data-dir.`);
  }
  clearStaleLock(dataDir);
  writeFileSync(join(dataDir, PID_FILE), String(process.pid));
}

export function releaseDataDir(dataDir: string): void {
  const file = join(dataDir, PID_FILE);
  if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
}

/**
 * A synchronous SQLite connection with migrations and transactions. An exclusive store takes the lock once, when it
 * opens, and never waits again; a shared one (the CLI without a running service) retries while the lock is busy.
 */
export class Store {
  private readonly db: Database;
  private readonly retries: boolean;

  constructor(dataDir: string, options: StoreOptions = {}) {
    this.retries = true;
    this.db = this.retry(() => new Database(join(dataDir, DB_FILE)));
    this.retry(() => this.db.exec(`PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;${options.exclusive ? ' PRAGMA locking_mode = EXCLUSIVE;' : ''}`));
    this.migrate();
    // A write takes the exclusive lock now, while waiting is still part of opening.
    if (options.exclusive) this.retry(() => this.db.exec('BEGIN IMMEDIATE; COMMIT;'));
    this.retries = !options.exclusive;
  }

  private retry<T>(fn: () => T): T {
    if (!this.retries) return fn();
    const deadline = Date.now() + BUSY_RETRY_MS;
    for (;;) {
      try {
        return fn();
      } catch (error) {
        if (!isLocked(error) || Date.now() > deadline) throw error;
        Atomics.wait(sleeper, 0, 0, 5);
      }
    }
  }

  private migrate(): void {
    this.retry(() => this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)'));
    const row = this.get('SELECT MAX(version) AS v FROM schema_migrations');
    const current = Number(row?.v ?? 0);
    MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      if (version <= current) return;
      this.transaction(() => {
        this.db.exec(sql);
        this.db.run('INSERT INTO schema_migrations (version, applied) VALUES (?, ?)', [version, new Date().toISOString()]);
      });
    });
  }

  all(sql: string, params?: Params): Row[] {
    return this.retry(() => this.db.all(sql, params) as Row[]);
  }

  get(sql: string, params?: Params): Row | null {
    return this.retry(() => this.db.get(sql, params) as Row | null);
  }

  run(sql: string, params?: Params): number {
    return this.retry(() => this.db.run(sql, params).changes);
  }

  /** Runs `fn` in one transaction: everything it writes is committed together or not at all. */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.retry(() => this.db.exec('BEGIN IMMEDIATE'));
    try {
      const result = fn();
      this.retry(() => this.db.exec('COMMIT'));
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
