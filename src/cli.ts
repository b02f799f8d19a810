import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { XModelsClient, type CopyReport } from './client';
import { answerAdminRequest, submitAdminRequest, type AdminRequest } from './service/store/adminRequests';
import { clearStaleLock, liveServicePid } from './service/store/database';
import { openPostgres } from './service/store/postgres';
import type { Database } from './service/store/sql';
import { SqliteDatabase } from './service/store/sqlite';
import type { KeyListing } from './service/store/teams';
import { DEFAULT_UPLOAD_LIMIT_BYTES, isLoopbackHost, localUsername, startService } from './service/server';
import { connectionsFromEnvironment, parseConnectionDefinitions, type ConnectionTarget } from './service/sources/connectionUrl';
import { loadDuckDb } from './service/sources/duckdbSource';
import { llmEndpointsFrom } from './service/textgen/policy';

/** Each command's synopsis, as `xmodels COMMAND --help` prints it. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `  xmodels serve [--host 127.0.0.1] [--port 0] [--data-dir DIR] [--database postgres://…] [--allow-remote]
                [--upload-limit-mb 512] [--max-pending-jobs 16] [--job-lease-s 30]
                [--connection NAME=URL]… [--allow-connection-api] [--connection-host HOST]… [--max-rows-in-memory 2000000]
                [--llm-endpoint URL]…`,
  keys: `  xmodels keys create (--data-dir DIR | --database postgres://…) --team NAME
  xmodels keys list (--data-dir DIR | --database postgres://…)
  xmodels keys revoke (--data-dir DIR | --database postgres://…) --key-id ID`,
  'copy-model': `  xmodels copy-model --from URL --from-key-env VAR --to URL --to-key-env VAR --model ID
                     [--from-team ID] [--to-team ID] [--into MODEL_ID | --name NAME] [--with-datasets]`,
};
const NOTES = `--database (or XMODELS_DATABASE_URL) keeps everything in PostgreSQL, shared by any number of replicas.
--connection (or XMODELS_CONNECTIONS, NAME=URL pairs separated by spaces) names a database whose tables can be
datasets: URL postgres://user:password@host:5432/db, duckdb:///absolute/path.db or duckdb::memory:.
--allow-connection-api lets callers of a service started with --allow-remote or --database add connections; those
reach public addresses only, or a host named by --connection-host (or XMODELS_CONNECTION_HOSTS), whatever its address.
--llm-endpoint (or XMODELS_LLM_ENDPOINTS, URLs separated by spaces) is a text-generation endpoint autotrain may call
for callers of a service started with --allow-remote or --database, whatever its address.
copy-model copies a model with every version (and, with --with-datasets, the uploaded datasets they were fitted
on) from one service to another, as a new model or into MODEL_ID; the API keys are read from the environment
variables the --…-key-env options name, never from the command line. It prints the report as JSON.
--help (or -h) after a command prints its usage.`;
/** The usage of `command` when it is one, else of every command. */
const usage = (command?: string) => `Usage:\n${command && command in COMMAND_USAGE ? COMMAND_USAGE[command] : Object.values(COMMAND_USAGE).join('\n')}\n${NOTES}`;
const HELP = new Set(['--help', '-h']);

class UsageError extends Error {}

type Flags = Record<string, string | true | string[]>;

/** `value` options once, `values` options any number of times (collected in order), `flag`s without a value. */
function parseFlags(args: string[], known: Record<string, 'value' | 'values' | 'flag'>): Flags {
  const out: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].startsWith('--') ? args[i].slice(2).split(/=(.*)/s, 2) : [args[i]];
    const kind = known[name];
    if (!kind) throw new UsageError(`Unknown option ${args[i]}.`);
    if (kind === 'flag') out[name] = true;
    else {
      const value = inline ?? args[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
      out[name] = kind === 'values' ? [...((out[name] as string[] | undefined) ?? []), value] : value;
    }
  }
  return out;
}

function dataDirOf(flags: Flags): string {
  const dir = typeof flags['data-dir'] === 'string' ? flags['data-dir'] : (process.env.XMODELS_DATA_DIR ?? resolve(homedir(), '.xmodels'));
  return resolve(dir);
}

/** The PostgreSQL URL from --database or XMODELS_DATABASE_URL; undefined for the embedded SQLite store. */
function databaseUrlOf(flags: Flags): string | undefined {
  const url = typeof flags.database === 'string' ? flags.database : process.env.XMODELS_DATABASE_URL || undefined;
  if (url !== undefined && !/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError(`--database must be a PostgreSQL URL such as postgres://user:password@host:5432/db (got one starting ${JSON.stringify(url.split(':')[0])}).`);
  }
  return url;
}

/**
 * The operator's connections (--connection, else XMODELS_CONNECTIONS), checked: a bad name or URL is a usage error
 * naming it, and so is a DuckDB URL on an installation without DuckDB's package.
 */
async function operatorConnections(flags: Flags): Promise<Map<string, ConnectionTarget>> {
  const given = Array.isArray(flags.connection) ? flags.connection : connectionsFromEnvironment(process.env.XMODELS_CONNECTIONS);
  let connections: Map<string, ConnectionTarget>;
  try {
    connections = parseConnectionDefinitions(given);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (--connection NAME=URL or XMODELS_CONNECTIONS)`);
  }
  if ([...connections.values()].some((c) => c.kind === 'duckdb')) {
    await loadDuckDb().catch((error: unknown) => {
      throw new UsageError((error as Error).message);
    });
  }
  return connections;
}

function llmEndpoints(flags: Flags): string[] {
  try {
    return llmEndpointsFrom(Array.isArray(flags['llm-endpoint']) ? flags['llm-endpoint'] : undefined, process.env.XMODELS_LLM_ENDPOINTS);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (--llm-endpoint URL or XMODELS_LLM_ENDPOINTS)`);
  }
}


async function serveCommand(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    host: 'value',
    port: 'value',
    'data-dir': 'value',
    database: 'value',
    'allow-remote': 'flag',
    'upload-limit-mb': 'value',
    'max-pending-jobs': 'value',
    'job-lease-s': 'value',
    connection: 'values',
    'allow-connection-api': 'flag',
    'connection-host': 'values',
    'max-rows-in-memory': 'value',
    'llm-endpoint': 'values',
  });
  const host = typeof flags.host === 'string' ? flags.host : '127.0.0.1';
  if (!isLoopbackHost(host) && !flags['allow-remote']) {
    throw new UsageError(`Refusing to listen on ${host}: it is not a loopback address. Pass --allow-remote to expose the service on the network.`);
  }
  const port = Number(flags.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${String(flags.port)}).`);
  const limitMb = flags['upload-limit-mb'] ?? process.env.XMODELS_UPLOAD_LIMIT_MB;
  const uploadLimitBytes = limitMb === undefined ? DEFAULT_UPLOAD_LIMIT_BYTES : Number(limitMb) * 1024 * 1024;
  if (!(uploadLimitBytes > 0)) throw new UsageError(`--upload-limit-mb must be a positive number (got ${String(limitMb)}).`);
  const maxPendingJobs = flags['max-pending-jobs'] === undefined ? undefined : Number(flags['max-pending-jobs']);
  if (maxPendingJobs !== undefined && !(Number.isInteger(maxPendingJobs) && maxPendingJobs >= 0)) {
    throw new UsageError(`--max-pending-jobs must be a whole number (got ${String(flags['max-pending-jobs'])}).`);
  }
  const jobLeaseSeconds = flags['job-lease-s'] === undefined ? undefined : Number(flags['job-lease-s']);
  if (jobLeaseSeconds !== undefined && !(Number.isFinite(jobLeaseSeconds) && jobLeaseSeconds > 0)) {
    throw new UsageError(`--job-lease-s must be a positive number of seconds (got ${String(flags['job-lease-s'])}).`);
  }
  const maxRowsInMemory = flags['max-rows-in-memory'] === undefined ? undefined : Number(flags['max-rows-in-memory']);
  if (maxRowsInMemory !== undefined && !(Number.isInteger(maxRowsInMemory) && maxRowsInMemory > 0)) {
    throw new UsageError(`--max-rows-in-memory must be a positive whole number (got ${String(flags['max-rows-in-memory'])}).`);
  }
  const databaseUrl = databaseUrlOf(flags);
  const teamServer = Boolean(flags['allow-remote'] || databaseUrl);
  const service = await startService({
    host,
    port,
    dataDir: dataDirOf(flags),
    databaseUrl,
    uploadLimitBytes,
    maxPendingJobs,
    jobLeaseSeconds,
    connections: await operatorConnections(flags),
    // Connections sent over HTTP carry credentials: only the local service's own caller may send them, unless allowed.
    connectionApi: Boolean(flags['allow-connection-api']) || !teamServer,
    // On a team server they reach public addresses only, or the hosts the operator names.
    callerConnectionAddresses: !teamServer,
    connectionHosts: Array.isArray(flags['connection-host']) ? flags['connection-host'] : (process.env.XMODELS_CONNECTION_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
    maxRowsInMemory,
    llmEndpoints: llmEndpoints(flags),
    // A caller of the local service chooses its own text-generation endpoint; on a team server the operator does.
    callerLlmEndpoints: !teamServer,
  });
  process.stdout.write(`${JSON.stringify({ url: service.url, api_key: service.apiKey, team_id: service.teamId })}\n`);
  const shutdown = (signal: string) => {
    process.stderr.write(`received ${signal}, shutting down\n`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** Carries out the command on `db`, then closes it. */
async function answerAndClose(db: Database, request: AdminRequest): Promise<unknown> {
  try {
    return await answerAdminRequest(db, request);
  } finally {
    await db.close();
  }
}

/**
 * PostgreSQL is opened directly, whatever runs on it. A running service holds a SQLite database, so it carries out
 * the command; otherwise the CLI opens the file itself.
 */
async function adminCommand(flags: Flags, request: AdminRequest): Promise<unknown> {
  const databaseUrl = databaseUrlOf(flags);
  if (databaseUrl !== undefined) return answerAndClose(await openPostgres(databaseUrl), request);
  const dataDir = dataDirOf(flags);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (liveServicePid(dataDir) !== null) return submitAdminRequest(dataDir, request);
  clearStaleLock(dataDir);
  return answerAndClose(new SqliteDatabase(dataDir), request);
}

async function keysCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  if (action === 'create') {
    const flags = parseFlags(rest, { 'data-dir': 'value', database: 'value', team: 'value' });
    if (typeof flags.team !== 'string' || flags.team.trim() === '') throw new UsageError('keys create needs --team NAME.');
    print(await adminCommand(flags, { command: 'keys create', team: flags.team.trim(), username: localUsername() }));
  } else if (action === 'list') {
    const flags = parseFlags(rest, { 'data-dir': 'value', database: 'value' });
    for (const key of (await adminCommand(flags, { command: 'keys list' })) as KeyListing[]) print(key);
  } else if (action === 'revoke') {
    const flags = parseFlags(rest, { 'data-dir': 'value', database: 'value', 'key-id': 'value' });
    if (typeof flags['key-id'] !== 'string') throw new UsageError('keys revoke needs --key-id ID (from keys list).');
    const keyId = flags['key-id'].trim().toLowerCase();
    const outcome = await adminCommand(flags, { command: 'keys revoke', keyId });
    if (outcome === 'unknown') throw new UsageError(`No key has the id ${keyId}; keys list shows the ids.`);
    if (outcome === 'ambiguous') throw new UsageError(`Several keys start with ${keyId}; give more of the id.`);
    print({ revoked: keyId });
  } else throw new UsageError(`Unknown keys action ${action ?? '(none)'}.`);
}

/** The API key in the environment variable an option names (keys never go on a command line, where `ps` shows them). */
function keyFromEnvironment(flags: Flags, option: string): string {
  const name = flags[option];
  if (typeof name !== 'string') throw new UsageError(`copy-model needs --${option} VAR, the environment variable that holds the API key.`);
  const key = process.env[name];
  if (!key) throw new UsageError(`The environment variable ${name} (--${option}) is not set: export the API key in it.`);
  return key;
}

function requiredValue(flags: Flags, option: string, what: string): string {
  const value = flags[option];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`copy-model needs --${option} ${what}.`);
  return value.trim();
}

const hadTrouble = (report: CopyReport) => [...report.versions, ...report.datasets].some((item) => item.status === 'failed' || item.status === 'cancelled');

/** Copies a model between two services; Ctrl-C stops it after the version being stored, and the report says what was copied. */
async function copyModelCommand(args: string[]): Promise<void> {
  const flags = parseFlags(args, {
    from: 'value',
    'from-key-env': 'value',
    'from-team': 'value',
    to: 'value',
    'to-key-env': 'value',
    'to-team': 'value',
    model: 'value',
    into: 'value',
    name: 'value',
    'with-datasets': 'flag',
  });
  if (flags.into !== undefined && flags.name !== undefined) throw new UsageError('Give --into (an existing model) or --name (a new model), not both.');
  const clientOf = (side: 'from' | 'to') => {
    const team = flags[`${side}-team`];
    return new XModelsClient({
      baseUrl: requiredValue(flags, side, 'URL'),
      apiKey: keyFromEnvironment(flags, `${side}-key-env`),
      teamId: typeof team === 'string' ? team : undefined,
    });
  };
  const model = requiredValue(flags, 'model', 'ID');
  const [source, target] = [clientOf('from'), clientOf('to')];
  const stop = new AbortController();
  const interrupt = () => {
    process.stderr.write('copy-model: stopping after the version being stored\n');
    stop.abort();
  };
  process.once('SIGINT', interrupt);
  try {
    const report = await source.models.copyTo(target, model, {
      into: typeof flags.into === 'string' ? flags.into : undefined,
      name: typeof flags.name === 'string' ? flags.name : undefined,
      withDatasets: flags['with-datasets'] === true,
      signal: stop.signal,
      onProgress: ({ step, steps, message }) => process.stderr.write(`copy-model: [${step}/${steps}] ${message}\n`),
    });
    process.stdout.write(`${JSON.stringify(report)}\n`);
    if (hadTrouble(report)) process.exitCode = 1;
  } finally {
    process.off('SIGINT', interrupt);
    await Promise.all([source.close(), target.close()]);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (argv.some((arg) => HELP.has(arg))) {
    process.stdout.write(`${usage(command)}\n`);
    return;
  }
  if (command === 'serve') return serveCommand(args);
  if (command === 'keys') return keysCommand(args);
  if (command === 'copy-model') return copyModelCommand(args);
  throw new UsageError(`Unknown command ${command ?? '(none)'}.`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`xmodels: ${error.message}\n${usage(process.argv[2])}`);
    process.exit(2);
  }
  console.error(`xmodels: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
