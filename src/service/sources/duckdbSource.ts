import type * as DuckDb from '@duckdb/node-api';
import { duckdbDialect } from './duckdbDialect';
import { subquery } from './relation';
import { cancellable, SourceError, type QueryOptions, type SourceColumnInfo, type SourceTableInfo, type SqlSource } from './source';

type DuckDbModule = typeof DuckDb;

let loaded: Promise<DuckDbModule> | null = null;

/**
 * DuckDB's Node package, loaded at its first use: it carries a native binary, so the CLI bundle leaves it out and a
 * service installed without it still runs (its DuckDB connections then fail with `missing-package`).
 */
export function loadDuckDb(): Promise<DuckDbModule> {
  // require rather than import(): the CommonJS bundles resolve it as Node resolves their other packages (NODE_PATH too).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= Promise.resolve().then(() => require('@duckdb/node-api') as DuckDbModule).catch((error: unknown) => {
    loaded = null;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SourceError(
      'missing-package',
      `DuckDB connections need the @duckdb/node-api package, which is missing from this installation (${reason}): install it beside the service (npm install @duckdb/node-api), or use a PostgreSQL connection.`,
    );
  });
  return loaded;
}

const TABLES_SQL = `
  SELECT schema_name AS "schema", table_name AS "table", estimated_size AS rows_estimate
    FROM duckdb_tables() WHERE NOT internal AND database_name = current_database()
  UNION ALL
  SELECT schema_name, view_name, NULL FROM duckdb_views() WHERE NOT internal AND database_name = current_database()
  ORDER BY 1, 2`;

/**
 * A DuckDB database file (opened read-only) or an in-memory database whose SQL reads local Parquet and CSV files.
 * The database is open only while statements run, so another program may write the file between them; every
 * statement runs on a connection of its own, which cancelling interrupts, and must be a SELECT.
 */
export class DuckDbSource implements SqlSource {
  readonly kind = 'duckdb';
  readonly dialect = duckdbDialect;
  private instance: Promise<DuckDb.DuckDBInstance> | null = null;
  private users = 0;

  /**
   * `path` is the database file, or `:memory:`; `limits` bound the memory DuckDB itself takes in the service's process
   * (sorts and joins beyond it spill to `tempDirectory`).
   */
  constructor(
    private readonly path: string,
    private readonly limits: { memoryLimit: string; tempDirectory: string } | null = null,
  ) {}

  async test(options?: QueryOptions): Promise<void> {
    await this.query('SELECT 1 AS ok', [], options);
  }

  async query(sql: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<Record<string, unknown>[]> {
    return this.withConnection(options, async (connection) => (await (await this.prepare(connection, sql, params)).runAndReadAll()).getRowObjects());
  }

  async *stream(sql: string, params: readonly unknown[], options: QueryOptions & { batchRows: number }): AsyncIterable<unknown[][]> {
    const connection = await this.connect();
    const run = <T>(step: () => Promise<T>) => this.statement(options, connection, step);
    try {
      const result = await run(async () => (await this.prepare(connection, sql, params)).stream());
      let batch: unknown[][] = [];
      for (;;) {
        const chunk = await run(() => result.fetchChunk());
        if (!chunk || chunk.rowCount === 0) break;
        for (const row of chunk.getRows()) {
          batch.push(row);
          if (batch.length === options.batchRows) {
            yield batch;
            batch = [];
          }
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      this.disconnect(connection);
    }
  }

  async describe(sql: string, options?: QueryOptions): Promise<SourceColumnInfo[]> {
    const rows = await this.withConnection(options, async (connection) => {
      await this.prepare(connection, sql, []);
      return (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${subquery(sql)}`)).getRowObjects();
    });
    return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type), readAs: duckdbDialect.readAs(String(r.column_type)) }));
  }

  async tables(options?: QueryOptions): Promise<SourceTableInfo[]> {
    const rows = await this.query(TABLES_SQL, [], options);
    return rows.map((r) => ({ schema: String(r.schema), table: String(r.table), rowsEstimate: r.rows_estimate == null ? null : Number(r.rows_estimate) }));
  }

  /** Writes with a read-write database of its own, opened for these statements only; an in-memory one keeps nothing. */
  async write(statements: readonly string[], options?: QueryOptions): Promise<void> {
    if (this.path === ':memory:') throw new SourceError('query', 'DuckDB: an in-memory database keeps no table; connect to a database file (duckdb:///absolute/path.db) to write one.');
    const { DuckDBInstance } = await loadDuckDb();
    const instance = await DuckDBInstance.create(this.path);
    const connection = await instance.connect();
    try {
      await this.statement(options, connection, async () => {
        await connection.run('BEGIN TRANSACTION');
        for (const statement of statements) await connection.run(statement);
        await connection.run('COMMIT');
      });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  async close(): Promise<void> {
    // Each statement closes the database when it is the last to finish: nothing stays open.
  }

  /** The statement prepared and bound; a statement other than a SELECT is a `query` failure. */
  private async prepare(connection: DuckDb.DuckDBConnection, sql: string, params: readonly unknown[]): Promise<DuckDb.DuckDBPreparedStatement> {
    const { StatementType } = await loadDuckDb();
    const prepared = await connection.prepare(sql);
    if (prepared.statementType !== StatementType.SELECT) {
      throw new SourceError('query', `DuckDB: the statement is not a query (${StatementType[prepared.statementType]}); only a SELECT can be read.`);
    }
    if (params.length > 0) prepared.bind(params as DuckDb.DuckDBValue[]);
    return prepared;
  }

  private async withConnection<T>(options: QueryOptions | undefined, use: (connection: DuckDb.DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.connect();
    try {
      return await this.statement(options, connection, () => use(connection));
    } finally {
      this.disconnect(connection);
    }
  }

  /** Runs a step of a statement, interrupting it when `signal` aborts; DuckDB's errors become SourceErrors. */
  private async statement<T>(options: QueryOptions | undefined, connection: DuckDb.DuckDBConnection, step: () => Promise<T>): Promise<T> {
    try {
      return await cancellable(options?.signal, () => connection.interrupt(), step);
    } catch (error) {
      if (error instanceof SourceError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new SourceError(/^Catalog Error|No files found/.test(message) ? 'not-found' : 'query', `DuckDB: ${message}`);
    }
  }

  private async connect(): Promise<DuckDb.DuckDBConnection> {
    this.users++;
    try {
      const instance = await (this.instance ??= this.open());
      return await instance.connect();
    } catch (error) {
      this.release();
      throw error;
    }
  }

  private async open(): Promise<DuckDb.DuckDBInstance> {
    const { DuckDBInstance } = await loadDuckDb();
    const memory = this.path === ':memory:';
    try {
      const options: Record<string, string> = memory ? {} : { access_mode: 'READ_ONLY' };
      if (this.limits) Object.assign(options, { memory_limit: this.limits.memoryLimit, temp_directory: this.limits.tempDirectory });
      return await DuckDBInstance.create(this.path, options);
    } catch (error) {
      this.instance = null;
      const message = error instanceof Error ? error.message : String(error);
      if (/does not exist/.test(message)) throw new SourceError('connect', `The DuckDB database file ${this.path} does not exist: fix the path in the connection URL (duckdb:///absolute/path.db).`);
      throw new SourceError('connect', `The DuckDB database ${this.path} cannot be opened: ${message}`);
    }
  }

  private disconnect(connection: DuckDb.DuckDBConnection): void {
    connection.closeSync();
    this.release();
  }

  /** The last statement to finish closes the database. */
  private release(): void {
    if (--this.users > 0 || !this.instance) return;
    const instance = this.instance;
    this.instance = null;
    void instance.then((opened) => opened.closeSync(), () => undefined);
  }
}
