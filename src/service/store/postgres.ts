import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool, types, type ClientBase, type PoolClient, type QueryConfig, type QueryResultRow } from 'pg';
import { POSTGRES_MIGRATIONS } from './migrations';
import { postgresFileStore } from './postgresFiles';
import { parseTarget, startupError } from './postgresErrors';
import { isSelect } from './readCache';
import { SharedReads } from './sharedReads';
import type { Database, FileStore, Params, Queryable, Row, SqlValue } from './sql';

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** The server cancels any statement that runs longer (default 30 s). */
  statementTimeoutMs?: number;
  /** Connecting, or waiting for a free pooled connection, fails after this long (default 10 s). */
  connectTimeoutMs?: number;
}

const TRANSACTION_ATTEMPTS = 8;
const RETRY_BASE_MS = 5;
const RETRY_CAP_MS = 500;
/** serialization_failure and deadlock_detected: the transaction did nothing and may simply run again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MIGRATION_LOCK = 'xmodels schema migrations';
const TRANSLATION_CACHE_LIMIT = 2000;
const PREPARED_STATEMENT_LIMIT = 500;
/** feature_not_supported, which PostgreSQL raises for "cached plan must not change result type". */
const STALE_PLAN_CODE = '0A000';

const OID = { bool: 16, int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

/**
 * Values come back as SQLite returns them: numbers for COUNT(*), SUM and BIGINT columns (not strings, never BigInt),
 * 1/0 for booleans, and dates as the server's text.
 */
const typeParsers: Record<number, (text: string) => unknown> = {
  [OID.bool]: (text) => (text === 't' ? 1 : 0),
  [OID.int8]: Number,
  [OID.numeric]: Number,
  [OID.date]: String,
  [OID.timestamp]: String,
  [OID.timestamptz]: String,
};

const rowTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format ?? 'text') === 'text' && typeParsers[oid] ? typeParsers[oid] : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

const translations = new Map<string, string>();

/**
 * The statement with its `?` placeholders numbered `$1`, `$2`, ... in order; a `?` inside a string literal, quoted
 * identifier or comment stays as it is.
 */
export function numberPlaceholders(sql: string): string {
  const cached = translations.get(sql);
  if (cached !== undefined) return cached;
  let out = '';
  let n = 0;
  let i = 0;
  const copyUntil = (end: string) => {
    const stop = sql.indexOf(end, i);
    const next = stop < 0 ? sql.length : stop + end.length;
    out += sql.slice(i, next);
    i = next;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // A doubled quote inside a literal ends one quoted run and starts the next, which copies it unchanged.
      out += c;
      i++;
      copyUntil(c);
    } else if (c === '-' && sql[i + 1] === '-') {
      copyUntil('\n');
    } else if (c === '/' && sql[i + 1] === '*') {
      copyUntil('*/');
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (translations.size >= TRANSLATION_CACHE_LIMIT) translations.clear();
  translations.set(sql, out);
  return out;
}

/** Booleans as 1/0 (flags are INTEGER columns on both backends); other values as pg sends them. */
function toParams(params: Params | undefined): unknown[] {
  return (params ?? []).map((value: SqlValue) => (typeof value === 'boolean' ? Number(value) : value));
}

const statementNames = new Map<string, string>();

/**
 * The statement as a named prepared statement: each pooled connection has the server parse and plan it once, then
 * only binds and runs it. The service's statements are its own constant texts, so there are few; past the limit a
 * new text runs unnamed, parsed and planned every time.
 */
function toQuery(sql: string, params: Params | undefined): QueryConfig {
  const text = numberPlaceholders(sql);
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < PREPARED_STATEMENT_LIMIT) {
    name = `xmodels_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values: toParams(params) };
}

function isStalePreparedStatement(error: unknown): boolean {
  return (error as { code?: unknown }).code === STALE_PLAN_CODE;
}

function isRetryable(error: unknown): boolean {
  return RETRYABLE_CODES.has(String((error as { code?: unknown }).code ?? ''));
}

/** Full jitter on an exponential backoff, so transactions that collided do not collide again in step. */
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt);
}

type QueryResult<R> = { rows: R[]; rowCount: number | null };

abstract class PostgresQueryable implements Queryable {
  readonly dialect = 'postgres' as const;

  protected abstract query<R extends QueryResultRow>(query: QueryConfig): Promise<QueryResult<R>>;

  async all(sql: string, params?: Params): Promise<Row[]> {
    return (await this.query<Row>(toQuery(sql, params))).rows;
  }

  async get(sql: string, params?: Params): Promise<Row | null> {
    return (await this.all(sql, params))[0] ?? null;
  }

  async run(sql: string, params?: Params): Promise<number> {
    return (await this.query(toQuery(sql, params))).rowCount ?? 0;
  }

  abstract transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** One open transaction on one pooled connection; usable only until it commits or rolls back. */
class TransactionQueryable extends PostgresQueryable {
  private open = true;
  /** Set when a statement failed in a way that makes the whole transaction worth running again. */
  retryable = false;

  constructor(private readonly client: PoolClient) {
    super();
  }

  protected async query<R extends QueryResultRow>(query: QueryConfig): Promise<QueryResult<R>> {
    if (!this.open) throw new Error('This transaction has already ended; run the query on the database or inside a new transaction.');
    try {
      return await this.client.query<R>(query);
    } catch (error) {
      if (isRetryable(error)) this.retryable = true;
      throw error;
    }
  }

  end(): void {
    this.open = false;
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

export class PostgresDatabase extends PostgresQueryable implements Database {
  readonly files: FileStore;
  private readonly reads = new SharedReads();

  constructor(private readonly pool: Pool) {
    super();
    this.files = postgresFileStore(this);
  }

  /** A SELECT outside a transaction shares its query with identical ones (`SharedReads`); any other runs alone. */
  override all(sql: string, params?: Params): Promise<Row[]> {
    if (!isSelect(sql)) return super.all(sql, params);
    return this.reads.all(sql, params, () => super.all(sql, params));
  }

  protected async query<R extends QueryResultRow>(query: QueryConfig): Promise<QueryResult<R>> {
    try {
      return await this.pool.query<R>(query);
    } catch (error) {
      // A connection's prepared statement whose result columns a later migration (another replica's) changed
      // fails from then on; the text alone still runs.
      if (!query.name || !isStalePreparedStatement(error)) throw error;
      return this.pool.query<R>({ text: query.text, values: query.values });
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      const tx = new TransactionQueryable(client);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        if (!(tx.retryable || isRetryable(error)) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      } finally {
        tx.end();
        // A connection that could not roll back is in an unknown state: the pool closes it instead of reusing it.
        client.release(broken);
      }
      await sleep(backoffMs(attempt));
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * Applies the migrations the database does not have yet, all in one transaction under an advisory lock, so replicas
 * that start together apply each exactly once: the others wait for the lock, then find nothing left to do. The
 * transaction is READ COMMITTED (PostgreSQL's default) on purpose: its statements after the lock see what the
 * replica that held it before committed, which a serializable snapshot, taken at the first statement, would not.
 */
async function migrate(client: ClientBase, migrations: readonly string[]): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)');
    const { rows } = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
    const current = Number(rows[0]?.v ?? 0);
    for (let version = current + 1; version <= migrations.length; version++) {
      await client.query(migrations[version - 1]);
      await client.query('INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)', [version, new Date().toISOString()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the PostgreSQL database at `url` and brings its schema up to date. A failure to connect or to create the
 * schema rejects with one sentence saying what happened and what to do, naming the URL without its password.
 * `migrations` is the schema to apply; only tests pass another one.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}, migrations: readonly string[] = POSTGRES_MIGRATIONS): Promise<PostgresDatabase> {
  const target = parseTarget(url);
  const connection = { connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000, types: rowTypes };
  // Migrating has its own connection without a statement timeout: a long migration, or waiting for another replica's,
  // must not fail the start. Ending it also closes a socket a failed login left open (pg leaves it to the server).
  const migrator = new Client(connection);
  try {
    await migrator.connect();
    await migrate(migrator, migrations);
  } catch (error) {
    throw startupError(error, target);
  } finally {
    await migrator.end().catch(() => undefined);
  }
  const pool = new Pool({ ...connection, max: options.poolSize ?? 10, statement_timeout: options.statementTimeoutMs ?? 30_000 });
  // An idle connection the server closed (restart, idle timeout) is dropped by the pool and replaced on next use;
  // without a listener the error would end the process.
  pool.on('error', () => undefined);
  return new PostgresDatabase(pool);
}
