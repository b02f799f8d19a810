// Two replicas on one PostgreSQL database (a private test cluster): how soon B runs an autotrain job that A held,
// against the lease that would otherwise hand it over. A clean stop hands the job back, so B claims it long before the
// default 30 s lease; a killed A leaves it to its lease (here 2 s), after which B takes it over.
import { openPostgres } from '../../src/service/store/postgres';
import { client, removeDir, startService, tempDataDir, type ServiceProcess } from '../unit/service/harness';
import { startLongAutotrain, waitFor } from '../unit/service/longAutotrain';
import { testCluster } from '../unit/service/postgresCluster';

const DEFAULT_LEASE_S = 30;
const SHORT_LEASE_S = 2;

async function main(): Promise<void> {
  const database = await (await testCluster()).createDatabase();
  const db = await openPostgres(database, { poolSize: 1 });
  const services: ServiceProcess[] = [];
  const replica = async (leaseSeconds: number) => {
    const service = await startService({ dataDir: tempDataDir(), database, args: ['--job-lease-s', String(leaseSeconds)] });
    services.push(service);
    return { service, call: client(service.url, service.apiKey) };
  };
  const ownerOf = async (id: string) => (await db.get('SELECT owner FROM jobs WHERE training_id = ?', [id]))?.owner ?? null;
  /** Milliseconds from `from` until B owns the job. */
  const claimedAfter = async (id: string, ownerA: unknown, from: number) => {
    for (let owner = await ownerOf(id); owner === null || owner === ownerA; owner = await ownerOf(id)) await new Promise((r) => setTimeout(r, 20));
    return performance.now() - from;
  };
  try {
    for (const [how, lease] of [['stops cleanly', DEFAULT_LEASE_S], ['is killed', SHORT_LEASE_S]] as const) {
      const a = await replica(lease);
      const id = await startLongAutotrain(a.call, `replica ${how}`);
      await waitFor(a.call, id, (s) => s.status === 'running' && s.progress > 0, 60_000);
      const ownerA = await ownerOf(id);
      const b = await replica(lease);
      const t = performance.now();
      if (how === 'is killed') await a.service.kill9();
      else await a.service.stop();
      const ms = await claimedAfter(id, ownerA, t);
      console.log(`A ${how.padEnd(13)}: B claims its job after ${ms.toFixed(0).padStart(6)} ms, lease ${lease * 1000} ms, ratio ${(ms / (lease * 1000)).toFixed(2)}x (target: ${how === 'is killed' ? '< 1.5x' : '< 0.2x'})`);
      // Whether B finishes it is the unit test's to check (replicas.test.ts); the next case needs the queue empty.
      await b.call('DELETE', `/v1/autotrain/trainings/${id}`);
      await b.service.stop();
    }
  } finally {
    await db.close();
    for (const service of services) {
      if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
      removeDir(service.dataDir);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
