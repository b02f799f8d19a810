import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { Database as WasmDatabase } from 'node-sqlite3-wasm';
import { DB_FILE } from './database';
import { MIGRATIONS } from './migrations';
import type { Database, Params, Queryable, Row } from './sql';
import { isSelect, ReadCache } from './readCache';
import { StatementCache } from './sqliteStatements';

const BUSY_RETRY_MS = 10_000;
const READ_CACHE_BYTES = 16 * 1024 * 1024;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export interface SqliteOptions {
  /**
   * Hold the database lock for the connection's lifetime (the service): the WASM build otherwise creates and removes
   * a lock directory around every statement and re-reads the schema, which caps reads at a few thousand a second.
   */
  exclusive?: boolean;
}

function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
}

/** Hands the connection to one transaction at a time, in arrival order. */
class Mutex {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  get locked(): boolean {
    return this.held;
  }

  async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

/** The connection's statements, run at once. */
interface Statements {
  all(sql: string, params?: Params): Row[];
  get(sql: string, params?: Params): Row | null;
  run(sql: string, params?: Params): number;
}

/** The statements of one open transaction; they run at once, since the transaction holds the connection. */
class SqliteTransaction implements Queryable {
  readonly dialect = 'sqlite';
  open = true;

  constructor(private readonly db: Statements) {}

  private check(): void {
    if (!this.open) throw new Error('A statement was run on a transaction that has already ended.');
  }

  async all(sql: string, params?: Params): Promise<Row[]> {
    this.check();
    return this.db.all(sql, params);
  }

  async get(sql: string, params?: Params): Promise<Row | null> {
    this.check();
    return this.db.get(sql, params);
  }

  async run(sql: string, params?: Params): Promise<number> {
    this.check();
    return this.db.run(sql, params);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    this.check();
    return fn(this);
  }
}

/**
 * The embedded SQLite database: one synchronous connection shared by every request. An exclusive database takes the
 * lock once, when it opens, and never waits again; a shared one (the CLI without a running service) retries while
 * the lock is busy. A statement is synchronous, so it never interleaves with another; a transaction spans awaits,
 * so while one is open every statement from outside it waits.
 */
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite';
  readonly files = null;
  private readonly db: WasmDatabase;
  private readonly statements: StatementCache;
  /** Only for an exclusive database: nothing else can change it, so every change goes through here and clears it. */
  private readonly reads: ReadCache | null;
  private retries = true;
  private readonly mutex = new Mutex();
  /** The transaction the current async context runs in, to refuse a statement that would wait for itself. */
  private readonly context = new AsyncLocalStorage<SqliteTransaction>();

  constructor(dataDir: string, options: SqliteOptions = {}) {
    this.db = this.retry(() => new WasmDatabase(join(dataDir, DB_FILE)));
    this.statements = new StatementCache(this.db);
    this.retry(() => this.db.exec(`PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;${options.exclusive ? ' PRAGMA locking_mode = EXCLUSIVE;' : ''}`));
    this.migrate();
    // A write takes the exclusive lock now, while waiting is still part of opening.
    if (options.exclusive) this.retry(() => this.db.exec('BEGIN IMMEDIATE; COMMIT;'));
    this.retries = !options.exclusive;
    this.reads = options.exclusive ? new ReadCache(READ_CACHE_BYTES) : null;
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
    const current = Number(this.now.get('SELECT MAX(version) AS v FROM schema_migrations')?.v ?? 0);
    MIGRATIONS.forEach((sql, index) => {
      const version = index + 1;
      if (version <= current) return;
      this.begin();
      try {
        this.db.exec(sql);
        this.db.run('INSERT INTO schema_migrations (version, applied) VALUES (?, ?)', [version, new Date().toISOString()]);
        this.commit();
      } catch (error) {
        this.rollback();
        throw error;
      }
    });
  }

  private begin(): void {
    this.retry(() => this.db.exec('BEGIN IMMEDIATE'));
  }

  private commit(): void {
    this.retry(() => this.db.exec('COMMIT'));
  }

  private rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  /** Runs at once, whatever transaction is open. Every `get` query returns one row at most (a key or LIMIT 1). */
  private readonly now: Statements = {
    all: (sql, params) => this.retry(() => this.statements.all(sql, params)),
    get: (sql, params) => this.retry(() => this.statements.all(sql, params)[0] ?? null),
    run: (sql, params) => this.retry(() => this.statements.run(sql, params)),
  };

  /** Runs `statement` when no transaction is open: at once when none is, else after the ones open or waiting. */
  private async outside<T>(statement: () => T): Promise<T> {
    if (!this.mutex.locked) return statement();
    if (this.context.getStore()?.open) {
      throw new Error('A statement inside a transaction was run on the database instead of the transaction; it would wait for itself.');
    }
    await this.mutex.acquire();
    try {
      return statement();
    } finally {
      this.mutex.release();
    }
  }

  /**
   * Committed rows: a SELECT's from the read cache when it has them, since no transaction is open when this runs.
   * Another statement that returns rows (UPDATE … RETURNING) writes, so it runs and clears the cache.
   */
  private read(sql: string, params?: Params): Row[] {
    const query = () => this.now.all(sql, params);
    if (!isSelect(sql)) return this.written(query);
    return this.reads ? this.reads.all(sql, params, query) : query();
  }

  private written<T>(statement: () => T): T {
    try {
      return statement();
    } finally {
      this.reads?.clear();
    }
  }

  all(sql: string, params?: Params): Promise<Row[]> {
    return this.outside(() => this.read(sql, params));
  }

  get(sql: string, params?: Params): Promise<Row | null> {
    return this.outside(() => this.read(sql, params)[0] ?? null);
  }

  run(sql: string, params?: Params): Promise<number> {
    return this.outside(() => this.written(() => this.now.run(sql, params)));
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.context.getStore()?.open) {
      throw new Error('A transaction was started on the database inside another transaction; call transaction on that transaction to join it.');
    }
    await this.mutex.acquire();
    const tx = new SqliteTransaction(this.now);
    try {
      this.begin();
      try {
        const result = await this.context.run(tx, () => fn(tx));
        this.commit();
        return result;
      } catch (error) {
        this.rollback();
        throw error;
      }
    } finally {
      tx.open = false;
      this.reads?.clear();
      this.mutex.release();
    }
  }

  /** Closes the connection once an open transaction has ended; statements after that fail. */
  async close(): Promise<void> {
    await this.mutex.acquire();
    try {
      if (this.db.isOpen) {
        this.reads?.clear();
        this.statements.clear();
        this.db.close();
      }
    } finally {
      this.mutex.release();
    }
  }
}
