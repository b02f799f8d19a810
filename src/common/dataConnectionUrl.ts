import { connectionKindOf, DUCKDB_FILE_PREFIX, DUCKDB_MEMORY_URL } from '../contract/connections';
import { l10n } from '../l10n/l10n';

/**
 * What is wrong with the shape of a connection URL, said so the user knows what to fix, or undefined when it has
 * one of the forms the service takes. The message never repeats the URL (it may hold a password).
 */
export function dataConnectionUrlProblem(value: string): string | undefined {
  const url = value.trim();
  if (!url) return l10n.t('Enter a URL: postgres://user:password@host:5432/database, duckdb:///absolute/path.db or duckdb::memory:.');
  switch (connectionKindOf(url)) {
    case 'postgres':
      return postgresProblem(url);
    case 'duckdb':
      return duckdbProblem(url);
    default:
      return l10n.t('Start the URL with postgres:// (PostgreSQL) or duckdb: (DuckDB), e.g. duckdb:///absolute/path.db.');
  }
}

function postgresProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return l10n.t('This is not a valid URL: write it as postgres://user:password@host:5432/database (encode @, : and / in the password as %40, %3A and %2F).');
  const parsed = new URL(url);
  if (!parsed.hostname) return l10n.t('Add the host: postgres://user:password@host:5432/database.');
  if (parsed.pathname.length <= 1) return l10n.t('Add the database name after the host: postgres://user:password@host:5432/database.');
  return undefined;
}

function duckdbProblem(url: string): string | undefined {
  if (url === DUCKDB_MEMORY_URL) return undefined;
  const path = url.slice(DUCKDB_FILE_PREFIX.length);
  if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)) {
    return l10n.t('Give the database file as an absolute path after duckdb:// (three slashes on Linux and macOS): duckdb:///absolute/path.db, or duckdb::memory:.');
  }
  if (path.endsWith('/')) return l10n.t('Name the database file, not a folder: duckdb:///absolute/path.db.');
  return undefined;
}

/** The password in a URL's user info (as written and decoded), so the log can mask it; empty when there is none. */
export function dataConnectionSecrets(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { password } = new URL(url);
  if (!password) return [];
  const decoded = safeDecode(password);
  return decoded === password ? [password] : [password, decoded];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
