/**
 * The storage interface the service is written against, with two backends: the embedded SQLite file (the default)
 * and PostgreSQL (a team server, any number of replicas).
 *
 * SQL written for it is portable between the two: `?` placeholders (the PostgreSQL backend numbers them), TEXT for
 * JSON and ISO timestamps, INTEGER for flags, and `rowid` as the insertion-order tie-breaker (the PostgreSQL schema
 * declares a `rowid` identity column on the tables that are listed in insertion order).
 */
export type Row = Record<string, string | number | bigint | Uint8Array | null>;
export type SqlValue = string | number | boolean | null | Uint8Array;
export type Params = SqlValue[];

export type Dialect = 'sqlite' | 'postgres';

/** What store modules query through: the database itself or one open transaction. */
export interface Queryable {
  readonly dialect: Dialect;
  /** The rows a statement returns: a SELECT's, or a write's with RETURNING (which runs every time). */
  all(sql: string, params?: Params): Promise<Row[]>;
  /** The first row a statement returns, as `all`. */
  get(sql: string, params?: Params): Promise<Row | null>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
  /**
   * Runs `fn` in one transaction: everything it writes is committed together or not at all. Called on an open
   * transaction, `fn` joins it. PostgreSQL transactions are serializable and retried on a serialization failure or
   * deadlock, so `fn` may run more than once and must do nothing but database work.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

/**
 * Dataset bytes kept in the database, so replicas share them without a shared disk. Keys are
 * `<dataset id>/<file name>`; each replica keeps local copies in its data dir as a cache.
 */
export interface FileStore {
  /** Copies the local file at `path` into the database under `key`, replacing what was there; streamed in chunks. */
  upload(key: string, path: string): Promise<void>;
  /** Writes the bytes stored under `key` to `path` (a temp file renamed into place); false when there are none. */
  download(key: string, path: string): Promise<boolean>;
  /** Removes every file whose key starts with `prefix`. */
  remove(prefix: string): Promise<void>;
}

export interface Database extends Queryable {
  /** Null for SQLite: there the data dir itself holds the dataset files. */
  readonly files: FileStore | null;
  close(): Promise<void>;
}
