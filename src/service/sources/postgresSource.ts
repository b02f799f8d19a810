import type { LookupFunction } from 'node:net';
import { Client, Pool, type PoolClient, type PoolConfig } from 'pg';
import { ForbiddenAddressError } from '../textgen/addresses';
import { parseTarget, startupError } from '../store/postgresErrors';
import { checkedSockets } from './checkedSocket';
import { postgresDialect } from './postgresDialect';
import { subquery } from './relation';
import { cancellable, SourceError, type QueryOptions, type SourceColumnInfo, type SourceTableInfo, type SqlSource } from './source';

const CONNECT_TIMEOUT_MS = 10_000;
const POOL_SIZE = 4;
/** undefined_table, undefined_column, undefined_function, invalid_schema_name: a name in the query is wrong. */
const NOT_FOUND_CODES = new Set(['42P01', '42703', '42883', '3F000']);
const CANCELED_CODE = '57014';
const CONNECT_CODES = /^(28|3D|08)|^E[A-Z]+$/;

const TABLES_SQL = `
  SELECT n.nspname AS schema, c.relname AS table,
    CASE WHEN c.relkind IN ('r', 'm', 'p') AND c.reltuples >= 0 THEN c.reltuples::bigint END AS rows_estimate
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
    AND n.nspname NOT LIKE 'pg\\_toast%' AND has_table_privilege(c.oid, 'SELECT')
  ORDER BY 1, 2`;

const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? '');

/**
 * A PostgreSQL database through a small pool of the `pg` driver. Every statement runs in a READ ONLY transaction
 * (with its session in UTC, so timestamps read alike wherever the service runs); rows are fetched from a server-side
 * cursor; cancelling runs pg_cancel_backend on the statement's backend.
 */
type TransactionMode = 'READ ONLY' | 'READ WRITE';

export class PostgresSource implements SqlSource {
  readonly kind = 'postgres';
  readonly dialect = postgresDialect;
  private readonly config: PoolConfig;
  private readonly pool: Pool;

  /** With `lookup`, every connection reaches only the addresses it lets through (see `checkedSockets`). */
  constructor(
    private readonly url: string,
    lookup?: LookupFunction,
  ) {
    this.config = {
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      options: '-c TimeZone=UTC',
      application_name: 'xmodels-source',
      ...(lookup ? { stream: checkedSockets(lookup) } : {}),
    };
    this.pool = new Pool({ ...this.config, max: POOL_SIZE, idleTimeoutMillis: 30_000 });
    // An idle pooled connection that the server drops is removed from the pool; the next query opens another.
    this.pool.on('error', () => undefined);
  }

  async test(options?: QueryOptions): Promise<void> {
    await this.query('SELECT 1 AS ok', [], options);
  }

  async query(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<Record<string, unknown>[]> {
    return this.readOnly(options, async (client) => (await client.query(sql, [...params])).rows as Record<string, unknown>[]);
  }

  async *stream(sql: string, params: readonly unknown[], options: QueryOptions & { batchRows: number }): AsyncIterable<unknown[][]> {
    const session = await this.begin('READ ONLY', options.signal);
    try {
      await session.run((client) => client.query({ text: `DECLARE xmodels_rows NO SCROLL CURSOR FOR ${sql}`, values: [...params] }));
      for (;;) {
        const { rows } = await session.run((client) => client.query({ text: `FETCH ${options.batchRows} FROM xmodels_rows`, rowMode: 'array' }));
        if (rows.length === 0) break;
        yield rows as unknown[][];
      }
      await session.commit();
    } finally {
      await session.end();
    }
  }

  async describe(sql: string, options?: QueryOptions): Promise<SourceColumnInfo[]> {
    return this.readOnly(options, async (client) => {
      const { fields } = await client.query(`SELECT * FROM ${subquery(sql)} LIMIT 0`);
      const types = await client.query<{ oid: number; name: string; category: string }>(
        'SELECT oid::int AS oid, format_type(oid, NULL) AS name, typcategory AS category FROM pg_type WHERE oid = ANY($1)',
        [fields.map((f) => f.dataTypeID)],
      );
      const byOid = new Map(types.rows.map((t) => [t.oid, t]));
      return fields.map((f) => {
        const type = byOid.get(f.dataTypeID) ?? { name: `oid ${f.dataTypeID}`, category: 'X' };
        return { name: f.name, type: type.name, readAs: postgresDialect.readAs(type.name, type.category) };
      });
    });
  }

  async tables(options?: QueryOptions): Promise<SourceTableInfo[]> {
    const rows = await this.query(TABLES_SQL, [], options);
    return rows.map((r) => ({ schema: String(r.schema), table: String(r.table), rowsEstimate: r.rows_estimate == null ? null : Number(r.rows_estimate) }));
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  async write(statements: readonly string[], options?: QueryOptions): Promise<void> {
    await this.inTransaction('READ WRITE', options, async (client) => {
      for (const statement of statements) await client.query(statement);
    });
  }

  /** Runs `use` in a READ ONLY transaction on a pooled connection, cancelling its statement when `signal` aborts. */
  private readOnly<T>(options: QueryOptions | undefined, use: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.inTransaction('READ ONLY', options, use);
  }

  private async inTransaction<T>(mode: TransactionMode, options: QueryOptions | undefined, use: (client: PoolClient) => Promise<T>): Promise<T> {
    const session = await this.begin(mode, options?.signal);
    try {
      const result = await session.run(use);
      await session.commit();
      return result;
    } finally {
      await session.end();
    }
  }

  /**
   * A transaction on a pooled connection. Its statements (`run`) fail with SourceErrors; while one runs, `signal`
   * aborting cancels it. `end` rolls back what was not committed and returns the connection.
   */
  private async begin(mode: TransactionMode, signal: AbortSignal | undefined) {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.connectError(error);
    });
    let open = false;
    let broken = false;
    const run = async <T>(statement: (client: PoolClient) => Promise<T>): Promise<T> => {
      try {
        return await cancellable(signal, () => void this.cancelBackend(pid), () => statement(client));
      } catch (error) {
        throw this.queryError(error);
      }
    };
    let pid = 0;
    try {
      pid = Number((await run((c) => c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))).rows[0].pid);
      await run((c) => c.query(`BEGIN ${mode}`));
      open = true;
    } catch (error) {
      client.release(true);
      throw error;
    }
    return {
      run,
      commit: async () => {
        await run((c) => c.query('COMMIT'));
        open = false;
      },
      end: async () => {
        if (open) await client.query('ROLLBACK').catch(() => (broken = true));
        client.release(broken);
      },
    };
  }

  /** Cancels the backend's running statement from a connection of its own (the pool may be busy). */
  private async cancelBackend(pid: number): Promise<void> {
    const canceller = new Client(this.config);
    try {
      await canceller.connect();
      await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
    } catch {
      // The statement runs on; the caller has stopped waiting for it anyway.
    } finally {
      await canceller.end().catch(() => undefined);
    }
  }

  private connectError(error: unknown): SourceError {
    const target = parseTarget(this.url);
    if (error instanceof ForbiddenAddressError) return new SourceError('forbidden', `the host ${target.host} ${error.problem}`);
    return new SourceError('connect', startupError(error, target).message);
  }

  private queryError(error: unknown): unknown {
    if (error instanceof SourceError) return error;
    const code = codeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    if (code === CANCELED_CODE) return new SourceError('cancelled', 'The query was cancelled.');
    if (CONNECT_CODES.test(code)) return this.connectError(error);
    return new SourceError(NOT_FOUND_CODES.has(code) ? 'not-found' : 'query', `PostgreSQL: ${message}`);
  }
}
