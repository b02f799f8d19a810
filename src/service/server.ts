import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { version } from '../../package.json';
import type { ServiceContext } from './http/context';
import { datasetsDir } from './datasetFiles/files';
import { markUploadsFolder } from './datasetFiles/frameFile';
import { removeLeftovers } from './datasetFiles/leftovers';
import { PublicDatasets } from './datasetFiles/public';
import { createApp } from './routes/app';
import { registerExecutors } from './models/executors';
import { JobRunner } from './jobs/runner';
import { stderrLogger, type Logger } from './base/logger';
import { answerAdminRequest, serveAdminRequests } from './store/adminRequests';
import { openServiceDatabase } from './store/open';
import { partPath } from './base/scratchFiles';
import { Connections } from './sources/connections';
import { DuckDbSource } from './sources/duckdbSource';
import type { ConnectionTarget } from './sources/connectionUrl';
import type { Database, Queryable } from './store/sql';
import { createKey, findOrCreateTeam, identifyKey } from './store/teams';
import { publicOnlyLookup } from './textgen/addresses';
import { environmentEndpoints, LlmEndpointPolicy } from './textgen/policy';
import { Trainer } from './training/trainer';

export const DEFAULT_UPLOAD_LIMIT_BYTES = 512 * 1024 * 1024;
/** Rows of a source dataset read into memory at most: a laptop holds them (as values, then as a frame) comfortably. */
export const DEFAULT_MAX_ROWS_IN_MEMORY = 2_000_000;
/** What the embedded DuckDB over large Parquet uploads may hold in memory before it spills to the data dir. */
const UPLOADS_ENGINE_MEMORY = '384MB';
const KEY_FILE = 'api_key';
const DEFAULT_TEAM = 'default';

/** Whether a host name or address is this machine's loopback (the local service listens only there). */
export const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** Why a service refuses files where they lie, naming its setting; null for the local service (loopback, embedded store). */
function filesInPlaceRefusal(options: ServeOptions): string | null {
  if (options.databaseUrl) return 'This service keeps its store in PostgreSQL (--database): a team server reads no file of its own machine; upload the file instead.';
  if (!isLoopbackHost(options.host)) return `This service listens on ${options.host} (--host), not on loopback: only the local service reads files of its machine; upload the file instead.`;
  return null;
}

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  /** A PostgreSQL URL: the team server's shared database. Without it, the embedded SQLite file in the data dir. */
  databaseUrl?: string;
  uploadLimitBytes?: number;
  threads?: number;
  maxRunningJobs?: number;
  maxPendingJobs?: number;
  /** How long a job claimed by this service stays its own without being renewed (default 30 s). */
  jobLeaseSeconds?: number;
  /** Named connections of the operator (serve --connection, XMODELS_CONNECTIONS). */
  connections?: ReadonlyMap<string, ConnectionTarget>;
  /** Answer POST and DELETE /v1/connections (default: no). */
  connectionApi?: boolean;
  /** Connect a connection added through the API wherever it points (default: no; the local service's own caller only). */
  callerConnectionAddresses?: boolean;
  /** Hosts a connection added through the API may reach whatever their addresses (serve --connection-host). */
  connectionHosts?: readonly string[];
  maxRowsInMemory?: number;
  /** Text-generation endpoints the operator allows (serve --llm-endpoint, XMODELS_LLM_ENDPOINTS). */
  llmEndpoints?: readonly string[];
  /** Call any base_url a caller names, wherever it points (default: no; the local service's own caller only). */
  callerLlmEndpoints?: boolean;
  logger?: Logger;
}

export interface RunningService {
  url: string;
  /** Undefined on a PostgreSQL database that already had its default team: its key is stored only hashed. */
  apiKey?: string;
  teamId: string;
  close(): Promise<void>;
}

export function localUsername(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

/** The default team's key, created on first start and kept (mode 0600) in the data dir. */
async function defaultKey(db: Queryable, dataDir: string): Promise<{ apiKey: string; teamId: string }> {
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) {
    const apiKey = readFileSync(file, 'utf8').trim();
    const identity = await identifyKey(db, apiKey);
    if (identity) return { apiKey, teamId: identity.defaultTeamId };
  }
  const team = await findOrCreateTeam(db, DEFAULT_TEAM);
  const apiKey = await createKey(db, team.team_id, localUsername());
  writeFileSync(file, `${apiKey}\n`, { mode: 0o600 });
  return { apiKey, teamId: team.team_id };
}

/**
 * PostgreSQL: the start that finds the database empty creates the default team and its key, and is the only one to
 * see the key; later starts, of this replica or another, only find the team.
 */
async function firstStartKey(db: Database): Promise<{ apiKey?: string; teamId: string }> {
  return db.transaction(async (tx) => {
    const team = await findOrCreateTeam(tx, DEFAULT_TEAM);
    if (!team.created) return { teamId: team.team_id };
    return { apiKey: await createKey(tx, team.team_id, localUsername()), teamId: team.team_id };
  });
}

/** Opens the data dir, starts the worker pool and job runner, and listens on host:port. */
export async function startService(options: ServeOptions): Promise<RunningService> {
  const logger = options.logger ?? stderrLogger();
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const { db: store, release } = await openServiceDatabase(options.dataDir, options.databaseUrl);
  markUploadsFolder(datasetsDir(options.dataDir));
  const leftovers = await removeLeftovers(options.dataDir, store);
  if (leftovers > 0) logger.info(`removed ${leftovers} files left by interrupted uploads, predictions and trains`);
  const shared = store.dialect === 'postgres';
  // The CLI's key commands reach a SQLite database through the service holding it; PostgreSQL they open themselves.
  const stopAdmin = shared ? () => undefined : serveAdminRequests(options.dataDir, (request) => answerAdminRequest(store, request));
  const { apiKey, teamId } = shared ? await firstStartKey(store) : await defaultKey(store, options.dataDir);
  const trainer = new Trainer({ threads: options.threads });
  const jobs = new JobRunner(store, logger, {
    // Jobs leave one worker free, so interactive trains and predictions never wait behind a long search.
    maxRunning: options.maxRunningJobs ?? Math.max(1, trainer.threads - 1),
    maxPending: options.maxPendingJobs ?? 16,
    leaseSeconds: options.jobLeaseSeconds,
    exclusive: !shared,
  });
  const ctx: ServiceContext = {
    store,
    dataDir: options.dataDir,
    version,
    logger,
    uploadLimitBytes: options.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES,
    publicDatasets: new PublicDatasets((path) => trainer.inspectCsv(path)),
    trainer,
    jobs,
    connections: new Connections(
      options.connections ?? new Map(),
      options.callerConnectionAddresses ? null : { lookup: publicOnlyLookup(), allowedHosts: options.connectionHosts ?? [] },
    ),
    connectionApi: options.connectionApi ?? false,
    maxRowsInMemory: options.maxRowsInMemory ?? DEFAULT_MAX_ROWS_IN_MEMORY,
    uploadsEngine: new DuckDbSource(':memory:', { memoryLimit: UPLOADS_ENGINE_MEMORY, tempDirectory: partPath(join(options.dataDir, 'duckdb-spill')) }),
    llmEndpoints: new LlmEndpointPolicy({
      allowed: [...(options.llmEndpoints ?? []), ...environmentEndpoints(process.env)],
      callerEndpoints: options.callerLlmEndpoints ?? false,
    }),
    filesInPlaceRefusal: filesInPlaceRefusal(options),
  };
  registerExecutors(ctx);
  await jobs.start();
  const app = createApp(ctx);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => resolve({ server: s, port: info.port }));
    s.once('error', reject);
  });
  // Keep idle connections open longer than clients keep them (undici: 4 s), so a client never reuses a socket the
  // service is closing at that moment.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  logger.info(`XModels service ${version} listening on ${url} (${store.dialect === 'postgres' ? 'PostgreSQL database, scratch' : 'data'} dir ${options.dataDir})`);
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      stopAdmin();
      await jobs.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await trainer.close();
      await ctx.connections.close();
      await release();
      logger.info('XModels service stopped');
    })());
  return { url, apiKey, teamId, close };
}
