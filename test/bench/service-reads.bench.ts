// Reads under load: requests/s and p50/p99 latency of listing and getting models under 50 concurrent clients, on
// SQLite (one service) and on PostgreSQL (two replicas of one database, on a private cluster), side by side, with
// GET /v1/health measured in the same run as the baseline of each.
import { client, removeDir, startService, type ServiceProcess } from '../unit/service/harness';
import { testCluster } from '../unit/service/postgresCluster';
import { load, loadClientNote, type LoadResult } from './httpLoad';

const CLIENTS = 50;
const LOAD_SECONDS = 5;
const WARMUP_SECONDS = 2;
const REPLICAS = 2;
const MODELS = 20;
/** What the team server must reach on these machines, load generator included. */
const TARGET = { p99Ms: 50, rps: 2000 };

const SMALL_CSV = 'x,label\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n9,a\n10,b\n';

const ROUTES = ['GET /v1/health (baseline)', 'GET /v1/models/teams/{id}', 'GET /v1/models/{id}'] as const;
type Figures = Record<(typeof ROUTES)[number], LoadResult>;

/** Health, list and get under CLIENTS concurrent clients spread over `services` (replicas of one database). */
async function measureReads(services: ServiceProcess[]): Promise<Figures> {
  const [first] = services;
  const call = client(first.url, first.apiKey);
  for (let i = 0; i < MODELS; i++) {
    const res = await call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: `m${i}`, csv_content: SMALL_CSV } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  const models = (await call('GET', `/v1/models/teams/${first.teamId}`)).body as { model_id: string }[];
  const urls = services.map((s) => s.url);
  const run = (path: string, seconds = LOAD_SECONDS) => load({ urls, path, apiKey: first.apiKey, connections: CLIENTS, seconds });
  await run('/v1/health', WARMUP_SECONDS);
  return {
    'GET /v1/health (baseline)': await run('/v1/health'),
    'GET /v1/models/teams/{id}': await run(`/v1/models/teams/${first.teamId}`),
    'GET /v1/models/{id}': await run(`/v1/models/${models[0].model_id}`),
  };
}

async function onSqlite(): Promise<Figures> {
  const service = await startService();
  try {
    return await measureReads([service]);
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

/** The same reads spread over REPLICAS services sharing one database; null when there is no PostgreSQL to run on. */
async function onPostgres(): Promise<Figures | string> {
  let database: string;
  try {
    database = await (await testCluster()).createDatabase();
  } catch (error) {
    return `skipped, no server to run on (${(error as Error).message})`;
  }
  const replicas: ServiceProcess[] = [];
  try {
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startService({ database }));
    return await measureReads(replicas);
  } finally {
    for (const replica of replicas) {
      await replica.stop();
      removeDir(replica.dataDir);
    }
  }
}

const cell = (r: LoadResult) => `${r.rps.toFixed(0).padStart(6)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)}`;

async function main(): Promise<void> {
  const sqlite = await onSqlite();
  const postgres = await onPostgres();
  console.log(`Reads, ${CLIENTS} concurrent clients for ${LOAD_SECONDS} s each (${loadClientNote})`);
  console.log(`team server target on PostgreSQL: p99 < ${TARGET.p99Ms} ms and at least ${TARGET.rps} req/s for list and get`);
  console.log(`${''.padEnd(28)} ${'SQLite, 1 service'.padEnd(22)}   ${`PostgreSQL, ${REPLICAS} replicas`}`);
  console.log(`${''.padEnd(28)} ${' req/s  p50 ms  p99 ms'}   ${' req/s  p50 ms  p99 ms'}`);
  for (const route of ROUTES) {
    console.log(`${route.padEnd(28)} ${cell(sqlite[route])}   ${typeof postgres === 'string' ? '' : cell(postgres[route])}`);
  }
  if (typeof postgres === 'string') console.log(`PostgreSQL: ${postgres}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
