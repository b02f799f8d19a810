import type { ConnectionKind } from '../../contract';
import type { SqlDialect } from './dialect';


/** A column of a query's result as the database describes it. */
export interface SourceColumnInfo {
  name: string;
  /** The database's type name. */
  type: string;
  /** How the service reads it (the dialect's `readAs`); null for a type no model can use. */
  readAs: 'as-is' | 'text' | null;
}

export interface SourceTableInfo {
  schema: string;
  table: string;
  rowsEstimate: number | null;
}

export interface QueryOptions {
  /** Aborting it cancels the statement running in the database. */
  signal?: AbortSignal;
}

/** Why a source failed (`forbidden`: an address the service does not connect to for its callers); the service turns each into its HTTP answer. */
export type SourceFailure = 'connect' | 'forbidden' | 'missing-package' | 'not-found' | 'query' | 'cancelled';

export class SourceError extends Error {
  constructor(
    readonly failure: SourceFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/**
 * A database whose rows a dataset reads where they live. Every statement runs read-only (a read-only transaction,
 * or a read-only database) and must be a single query; parameters are `$1`, `$2`…
 */
export interface SqlSource {
  readonly kind: ConnectionKind;
  readonly dialect: SqlDialect;
  /** Connects and runs a trivial query; a SourceError of `connect` says what failed. */
  test(options?: QueryOptions): Promise<void>;
  /** A small result, whole (counts, listings). */
  query(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<Record<string, unknown>[]>;
  /** The rows of a query in batches of about `batchRows`, each row its values in column order; never all at once. */
  stream(sql: string, params: readonly unknown[], options: QueryOptions & { batchRows: number }): AsyncIterable<unknown[][]>;
  /** The columns a query returns, without running it over the rows. */
  describe(sql: string, options?: QueryOptions): Promise<SourceColumnInfo[]>;
  /** The tables and views it can read. */
  tables(options?: QueryOptions): Promise<SourceTableInfo[]>;
  /** Runs statements that write (a table of predictions) in one transaction: all of them, or none. */
  write(statements: readonly string[], options?: QueryOptions): Promise<void>;
  close(): Promise<void>;
}

/** Calls `cancel` when `signal` aborts while `run` runs; a statement cancelled so fails with `cancelled`. */
export async function cancellable<T>(signal: AbortSignal | undefined, cancel: () => void, run: () => Promise<T>): Promise<T> {
  if (signal?.aborted) throw new SourceError('cancelled', 'The query was cancelled before it started.');
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await run();
  } catch (error) {
    if (signal?.aborted) throw new SourceError('cancelled', 'The query was cancelled.');
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
