import assert from 'node:assert/strict';
import { openPostgres, type PostgresDatabase } from '../../../src/service/store/postgres';
import { client, removeDir, startService, tempDataDir, type ServiceProcess } from './harness';
import { smallCsv, uploadCsv } from './fixtures';
import { ended, startLongAutotrain, status, waitFor } from './longAutotrain';
import { testCluster } from './postgresCluster';

const LEASE_SECONDS = 2;

describe('service: two replicas on one PostgreSQL database', function () {
  this.timeout(180_000);
  let database: string;
  /** The suite's database seen directly, to tell which replica holds a job. */
  let db: PostgresDatabase;
  const services: ServiceProcess[] = [];
  const ownerOf = async (id: string) => (await db.get('SELECT owner FROM jobs WHERE training_id = ?', [id]))?.owner;

  /** A replica on the suite's database, with a short job lease unless `lease` is false; stopped (if alive) after the suite. */
  const replica = async (lease = true) => {
    const service = await startService({ dataDir: tempDataDir(), database, args: lease ? ['--job-lease-s', String(LEASE_SECONDS)] : [] });
    services.push(service);
    return { service, call: client(service.url, service.apiKey) };
  };

  before(async () => {
    database = await (await testCluster()).createDatabase();
    db = await openPostgres(database, { poolSize: 1 });
  });
  after(async () => {
    await db.close();
    for (const service of services) {
      if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
      removeDir(service.dataDir);
    }
  });

  it('finishes on B an autotrain job whose replica A was killed while running it, once its lease expired', async () => {
    const a = await replica();
    const id = await startLongAutotrain(a.call, 'survives a replica');
    await waitFor(a.call, id, (s) => s.status === 'running' && s.progress > 0, 60_000);
    const ownerA = await ownerOf(id);
    // B starts once A holds the job, so the job is A's when A dies.
    const b = await replica();
    await a.service.kill9();
    assert.equal((await status(b.call, id)).status, 'running', 'A left the job running');
    const final = await waitFor(b.call, id, ended, (LEASE_SECONDS + 60) * 1000);
    assert.equal(final.status, 'completed', JSON.stringify(final));
    const ownerB = await ownerOf(id);
    assert.ok(ownerA && ownerB && ownerB !== ownerA, `B took the job over (owner ${String(ownerA)} → ${String(ownerB)})`);
    const model = await b.call('GET', `/v1/models/${final.model_id}`);
    assert.equal(model.status, 200, JSON.stringify(model.body));
    assert.equal(model.body.latest_version_id, final.version_id);
    const versions = await b.call('GET', `/v1/models/versions/${final.model_id}`);
    assert.deepEqual(versions.body.map((v: { version_id: string; source: string }) => [v.version_id, v.source]), [[final.version_id, 'autotrain']]);
    await b.service.stop();
  });

  it('cancels through B a job running on A: A stops working on it and it never completes', async () => {
    const a = await replica();
    const id = await startLongAutotrain(a.call, 'cancelled elsewhere');
    await waitFor(a.call, id, (s) => s.status === 'running' && s.progress > 0, 60_000);
    const b = await replica();
    const cancelled = await b.call('DELETE', `/v1/autotrain/trainings/${id}`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.status, 'cancelled');
    const stopped = new RegExp(`training ${id} was cancelled or taken over elsewhere; stopping it here`);
    const deadline = Date.now() + 10_000;
    while (!stopped.test(a.service.stderr()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.match(a.service.stderr(), stopped, 'A aborted the job at its next lease renewal');
    // Well past the time the job would take: it stays cancelled, with no model, seen from either replica.
    await new Promise((r) => setTimeout(r, 3000));
    for (const call of [a.call, b.call]) {
      const after = await status(call, id);
      assert.deepEqual([after.status, after.model_id], ['cancelled', null]);
    }
    const models = await a.call('GET', `/v1/models/teams/${a.service.teamId}`);
    assert.ok(!models.body.some((m: { model_name: string }) => m.model_name === 'cancelled elsewhere'));
    await Promise.all([a.service.stop(), b.service.stop()]);
  });

  it('hands a job running on A to B at once when A stops cleanly, long before its lease would expire', async () => {
    const a = await replica(false);
    const id = await startLongAutotrain(a.call, 'handed over');
    await waitFor(a.call, id, (s) => s.status === 'running' && s.progress > 0, 60_000);
    const ownerA = await ownerOf(id);
    const b = await replica(false);
    assert.equal(await a.service.stop(), 0);
    // Handed back, the job has no owner and no lease until B claims it; without the hand-back it would stay A's until
    // its 30 s lease ran out (how soon B starts it: `npm run bench -- replicas`).
    const left = await db.get('SELECT owner, lease_until FROM jobs WHERE training_id = ?', [id]);
    assert.ok(left && left.owner !== ownerA, `A let go of the job when it stopped: ${JSON.stringify(left)}`);
    if (left.owner === null) assert.equal(left.lease_until, null, 'a job handed back has no lease');
    let ownerB = left.owner ?? null;
    while (ownerB === null) {
      await new Promise((r) => setTimeout(r, 100));
      ownerB = (await ownerOf(id)) ?? null;
    }
    assert.ok(ownerA && ownerB && ownerB !== ownerA, `B claimed the job (owner ${String(ownerA)} → ${String(ownerB)})`);
    assert.equal((await status(b.call, id)).status, 'running');
    assert.equal((await b.call('DELETE', `/v1/autotrain/trainings/${id}`)).body.status, 'cancelled');
    await b.service.stop();
  });

  it('runs 20 parallel trains spread over A and B, every model listed through both', async () => {
    const [a, b] = [await replica(), await replica()];
    const datasetId = await uploadCsv(a.call, smallCsv(300));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : a).call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: `replicated-${i}`, dataset_id: datasetId, seed: i } }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(200), JSON.stringify(results.find((r) => r.status !== 200)?.body));
    assert.equal(new Set(results.map((r) => r.body.model_id)).size, 20);
    for (const { call, service } of [a, b]) {
      const list = await call('GET', `/v1/models/teams/${service.teamId}`);
      const names = list.body.map((m: { model_name: string }) => m.model_name).filter((n: string) => n.startsWith('replicated-'));
      assert.deepEqual([...names].sort(), Array.from({ length: 20 }, (_, i) => `replicated-${i}`).sort());
    }
    await Promise.all([a.service.stop(), b.service.stop()]);
  });

  it('lists and trains through B a dataset just uploaded through A', async () => {
    const [a, b] = [await replica(), await replica()];
    const datasetId = await uploadCsv(a.call, smallCsv(200), 'shared.csv');
    const listed = await b.call('GET', '/v1/datasets');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.some((d: { dataset_id: string }) => d.dataset_id === datasetId), JSON.stringify(listed.body));
    const trained = await b.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'from A', dataset_id: datasetId } });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const version = await a.call('GET', `/v1/models/versions/${trained.body.model_id}`);
    assert.equal(version.body[0].dataset_id, datasetId);
    await Promise.all([a.service.stop(), b.service.stop()]);
  });
});
