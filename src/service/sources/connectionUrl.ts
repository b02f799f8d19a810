import { isAbsolute } from 'node:path';
import { ConnectionNameSchema, connectionKindOf, DUCKDB_FILE_PREFIX, DUCKDB_MEMORY_URL, type ConnectionKind } from '../../contract';
import { redactUrl } from '../store/postgresErrors';

export interface ConnectionTarget {
  kind: ConnectionKind;
  /** The URL as given: it may hold a password, so it is kept in memory and never shown or stored. */
  url: string;
  /** A DuckDB database file, or `:memory:`. */
  duckdbPath?: string;
}

/** What a connection URL points at, or an error naming the (redacted) URL and the forms it may take. */
export function parseConnectionUrl(url: string): ConnectionTarget {
  const kind = connectionKindOf(url);
  if (kind === 'postgres') {
    if (!URL.canParse(url) || new URL(url).pathname.length <= 1) {
      throw new Error(`The connection URL ${redactUrl(url)} is not a PostgreSQL URL: write it as postgres://user:password@host:5432/database.`);
    }
    return { kind: 'postgres', url };
  }
  if (url === DUCKDB_MEMORY_URL) return { kind: 'duckdb', url, duckdbPath: ':memory:' };
  if (kind === 'duckdb') {
    const path = decodeURIComponent(url.slice(DUCKDB_FILE_PREFIX.length));
    if (!isAbsolute(path)) throw new Error(`The DuckDB URL ${url} names no absolute path: write it as duckdb:///absolute/path.db (three slashes).`);
    return { kind: 'duckdb', url, duckdbPath: path };
  }
  throw new Error(
    `The connection URL ${redactUrl(url)} is neither postgres://… nor duckdb:///absolute/path.db nor duckdb::memory:.`,
  );
}

/** A connection's name checked (what requests, datasets and logs show instead of its URL). */
export function checkConnectionName(name: string): string {
  if (!ConnectionNameSchema.safeParse(name).success) {
    throw new Error(`The connection name ${JSON.stringify(name)} is not valid: use a letter, then up to 62 letters, digits, _ or -.`);
  }
  return name;
}

/**
 * The `NAME=URL` definitions of `serve --connection` and of XMODELS_CONNECTIONS (separated by whitespace), each
 * checked; an error names the bad one (its URL redacted). A name given twice is an error too.
 */
export function parseConnectionDefinitions(definitions: readonly string[]): Map<string, ConnectionTarget> {
  const out = new Map<string, ConnectionTarget>();
  for (const definition of definitions) {
    const equals = definition.indexOf('=');
    if (equals < 0) throw new Error(`The connection ${JSON.stringify(redactUrl(definition))} has no name: write NAME=URL.`);
    const name = checkConnectionName(definition.slice(0, equals));
    if (out.has(name)) throw new Error(`The connection ${name} is defined twice.`);
    out.set(name, parseConnectionUrl(definition.slice(equals + 1)));
  }
  return out;
}

/** The whitespace-separated `NAME=URL` pairs of XMODELS_CONNECTIONS. */
export const connectionsFromEnvironment = (value: string | undefined): string[] => (value ?? '').split(/\s+/).filter((pair) => pair !== '');
