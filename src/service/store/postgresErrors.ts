/** Turns a failure to open the PostgreSQL database into one sentence that says what happened and what to do. */

/** The database URL as it may be shown: the password (in the user info or a `password` parameter) replaced. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

interface Target {
  /** The URL without its password. */
  shown: string;
  host: string;
  port: string;
  user: string;
  database: string;
}

/** What the URL points at, or an error naming the malformed URL. */
export function parseTarget(url: string): Target {
  const shown = redactUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malformed(shown);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw malformed(shown);
  const param = (name: string) => parsed.searchParams.get(name) ?? '';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || param('dbname');
  if (!database) throw malformed(shown);
  return {
    shown,
    host: decodeURIComponent(parsed.hostname) || param('host') || 'localhost',
    port: parsed.port || param('port') || '5432',
    user: decodeURIComponent(parsed.username) || param('user') || process.env.PGUSER || 'the current user',
    database,
  };
}

function malformed(shown: string): Error {
  return new Error(`The database URL ${shown} is not a PostgreSQL URL: write it as postgres://user:password@host:port/database.`);
}

function codeOf(error: unknown): string {
  return String((error as { code?: unknown }).code ?? '');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The message for an error met while connecting to the database or creating its schema. */
export function startupError(error: unknown, target: Target): Error {
  const { shown, host, port, user, database } = target;
  const at = `PostgreSQL at ${host}:${port}`;
  const message = messageOf(error);
  switch (codeOf(error)) {
    case 'ECONNREFUSED':
      return new Error(`Cannot connect to ${at} (connection refused): start the server or fix the host and port in the database URL ${shown}.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(`Cannot connect to ${at}: the host ${host} was not found; fix the host in the database URL ${shown}.`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new Error(`Cannot connect to ${at} (${message}): check the host and port in the database URL ${shown} and that the network lets you reach it.`);
    case '28P01':
    case '28000':
      return new Error(`${at} refused the login of user "${user}" (${message}): fix the user name or password in the database URL ${shown}.`);
    case '3D000':
      return new Error(`The database "${database}" does not exist on ${at}: create it (CREATE DATABASE "${database}") or fix the database name in the URL ${shown}.`);
    case '42501':
      return new Error(
        `User "${user}" may not create the XModels tables in database "${database}" on ${at} (${message}): ` +
          `grant it CREATE on the schema (GRANT CREATE ON SCHEMA public TO "${user}") or connect as the database owner.`,
      );
  }
  if (/timeout|timed out/i.test(message)) {
    return new Error(`Cannot connect to ${at}: no answer in time; check the host and port in the database URL ${shown} and that the server is up.`);
  }
  if (/client password must be/i.test(message)) {
    return new Error(`${at} asks user "${user}" for a password and the database URL ${shown} has none: add it (postgres://user:password@host:port/database).`);
  }
  return new Error(`Cannot open the database ${shown} on ${at}: ${message.replace(/\s+/g, ' ')}.`);
}

/**
 * Whether PostgreSQL refused a text it cannot store: a NUL character (in text, or escaped in JSON) or a byte
 * sequence that is not UTF-8. The input's fault, never the service's: a 422, not a 500.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
