import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobRunner, type JobControls, type JobExecutor, type JobRunnerOptions } from '../../../../src/service/jobs/runner';
import { insertJob, type JobRecord } from '../../../../src/service/jobs/store';
import type { Logger } from '../../../../src/service/base/logger';
import { openPostgres } from '../../../../src/service/store/postgres';
import type { Database } from '../../../../src/service/store/sql';
import { SqliteDatabase } from '../../../../src/service/store/sqlite';
import { removeDir } from '../harness';
import { testCluster } from '../postgresCluster';

const TEAM = 'team-1';

/** Keeps what the runner logged, so a test can show it when it fails. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (message) => lines.push(message), error: (message, error) => lines.push(`${message}: ${String(error)}`) };
}

interface Held {
  job: JobRecord;
  controls: JobControls;
  secret: string | undefined;
  /** Lets the job complete (it registers a model named after it). */
  finish(): void;
  /** Settles when the executor has returned or thrown, with what it threw. */
  ended: Promise<unknown>;
}

/** An executor that holds each job it is given until the test finishes it, or the runner aborts it. */
function heldJobs(): { executor: JobExecutor; runs: Held[] } {
  const runs: Held[] = [];
  const executor: JobExecutor = async (job, controls, secret) => {
    let finish = () => undefined as void;
    const released = new Promise<void>((resolve, reject) => {
      finish = resolve;
      controls.signal.addEventListener('abort', () => reject(controls.signal.reason));
    });
    const ended = (async () => {
      await released;
      await controls.complete(async () => ({ model_id: `model-of-${job.training_id}`, version_id: `version-of-${job.training_id}` }));
    })();
    runs.push({ job, controls, secret, finish, ended: ended.then(() => null, (error: unknown) => error) });
    return ended;
  };
  return { executor, runs };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Backend {
  name: 'SQLite' | 'PostgreSQL';
  /** A fresh database; `replica` connects another runner's own way to it (SQLite: the one shared connection). */
  open(): Promise<{ db: Database; replica(): Promise<Database>; close(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'xmodels-leases-'));
      const db = new SqliteDatabase(dir, { exclusive: true });
      return {
        db,
        replica: async () => db,
        close: async () => {
          await db.close();
          removeDir(dir);
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await (await testCluster()).createDatabase();
      const pools: Database[] = [await openPostgres(url, { poolSize: 4 })];
      return {
        db: pools[0],
        replica: async () => {
          pools.push(await openPostgres(url, { poolSize: 4 }));
          return pools[pools.length - 1];
        },
        close: async () => {
          for (const pool of pools) await pool.close();
        },
      };
    },
  },
];

for (const backend of BACKENDS) describe(`service: job leases (runners on one ${backend.name} database)`, function () {
  this.timeout(30_000);
  let db: Database;
  let replica: () => Promise<Database>;
  let close: () => Promise<void>;
  let runners: JobRunner[];
  let logger: ReturnType<typeof recordingLogger>;

  const row = async (id: string) => {
    const found = await db.get('SELECT status, owner, lease_until, progress, model_id FROM jobs WHERE training_id = ?', [id]);
    assert.ok(found, `job ${id} is stored`);
    return { status: String(found.status), owner: found.owner, leaseUntil: Number(found.lease_until), progress: Number(found.progress), modelId: found.model_id };
  };

  /** A runner of its own on the database, running its jobs with `executor`; stopped after the test. */
  const runner = async (executor: JobExecutor, options: Partial<JobRunnerOptions> = {}) => {
    const jobs = new JobRunner(await replica(), logger, { maxRunning: 1, maxPending: 16, leaseSeconds: 0.3, exclusive: false, ...options });
    jobs.register('manual', executor);
    runners.push(jobs);
    return jobs;
  };

  /** A runner of its own (see `runner`) with one job submitted to it, once the job has started there. */
  const startedJob = async (options: Partial<JobRunnerOptions> = {}, secret?: string) => {
    const held = heldJobs();
    const jobs = await runner(held.executor, options);
    await jobs.start();
    const { training_id: id } = await jobs.submit(TEAM, 'manual', {}, 1, secret);
    const run = await until('the job to start', () => held.runs[0]);
    return { jobs, id, run, runs: held.runs };
  };

  const storedJob = (id: string, changes: Partial<JobRecord>): JobRecord => ({
    training_id: id,
    team_id: TEAM,
    kind: 'manual',
    status: 'pending',
    progress: 0,
    current_step: 'queued',
    request: {},
    model_id: null,
    version_id: null,
    error: null,
    estimated_time: 1,
    created: new Date().toISOString(),
    started: null,
    finished: null,
    owner: null,
    takeovers: 0,
    ...changes,
  });

  beforeEach(async () => {
    ({ db, replica, close } = await backend.open());
    await db.run('INSERT INTO teams (team_id, name, created) VALUES (?, ?, ?)', [TEAM, 'team', new Date().toISOString()]);
    runners = [];
    logger = recordingLogger();
  });
  afterEach(async () => {
    for (const jobs of runners) await jobs.stop();
    await close();
  });

  it('claims a submitted job under its replica id and renews the lease while the job runs, past the lease length', async () => {
    const { jobs, id, run, runs } = await startedJob({}, 'the caller key');
    assert.equal(run.secret, 'the caller key', 'the replica it was submitted to has its secret');
    const first = await row(id);
    assert.equal(first.status, 'running');
    assert.equal(first.owner, jobs.replicaId);
    const renewed = await until('the lease to be renewed', async () => {
      const now = await row(id);
      return now.leaseUntil > first.leaseUntil && now;
    });
    assert.equal(renewed.owner, jobs.replicaId);
    // Three lease lengths later the job is still this replica's: renewals kept it from expiring.
    await new Promise((resolve) => setTimeout(resolve, 900));
    const later = await row(id);
    assert.equal(later.owner, jobs.replicaId);
    assert.ok(later.leaseUntil > Date.now(), `the lease runs into the future (${later.leaseUntil} vs ${Date.now()})`);
    assert.equal(runs.length, 1, 'the job ran once');
    run.finish();
    assert.equal(await run.ended, null);
    const done = await row(id);
    assert.equal(done.status, 'completed');
    assert.equal(done.modelId, `model-of-${id}`);
  });

  it('stops a running job at once when another runner cancels it, and never completes it', async () => {
    const { id, run } = await startedJob();
    const b = await runner(heldJobs().executor);
    await b.start();
    const cancelled = await b.cancel(TEAM, id);
    assert.equal(cancelled.status, 'cancelled');
    const reason = await run.ended;
    assert.ok(run.controls.signal.aborted, `A aborted the job (${String(reason)})`);
    const after = await row(id);
    assert.equal(after.status, 'cancelled');
    assert.equal(after.modelId, null);
    assert.ok(logger.lines.some((line) => line.includes(`training ${id} was cancelled or taken over elsewhere`)), logger.lines.join('\n'));
  });

  it('writes neither progress nor completion of a job whose row names another owner', async () => {
    const { id, run } = await startedJob({ leaseSeconds: 30 });
    await db.run("UPDATE jobs SET owner = 'another replica' WHERE training_id = ?", [id]);
    run.controls.progress(50, 'halfway');
    run.finish();
    const error = await run.ended;
    assert.equal((error as Error).message, 'cancelled', 'the completion was refused');
    const after = await row(id);
    assert.deepEqual([after.status, after.owner, after.progress, after.modelId], ['running', 'another replica', 0, null]);
  });

  it('takes over a running job whose lease expired, from scratch and without its secret, and leaves live leases alone', async () => {
    const past = Date.now() - 60_000;
    await insertJob(db, storedJob('abandoned', { status: 'running', progress: 40, current_step: 'searching', started: new Date(past).toISOString(), owner: 'dead replica' }));
    await insertJob(db, storedJob('alive', { status: 'running', progress: 10, started: new Date().toISOString(), owner: 'live replica' }));
    await db.run('UPDATE jobs SET lease_until = ? WHERE training_id = ?', [past, 'abandoned']);
    await db.run('UPDATE jobs SET lease_until = ? WHERE training_id = ?', [Date.now() + 600_000, 'alive']);
    const held = heldJobs();
    const jobs = await runner(held.executor, { maxRunning: 2 });
    await jobs.start();
    const run = await until('the abandoned job to be taken over', () => held.runs[0]);
    assert.equal(run.job.training_id, 'abandoned');
    assert.equal(run.secret, undefined);
    const taken = await row('abandoned');
    assert.deepEqual([taken.status, taken.owner, taken.progress], ['running', jobs.replicaId, 0]);
    run.finish();
    assert.equal(await run.ended, null);
    assert.equal((await row('abandoned')).status, 'completed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(held.runs.length, 1, 'the job under a live lease was not started here');
    const alive = await row('alive');
    assert.deepEqual([alive.status, alive.owner, alive.progress], ['running', 'live replica', 10]);
  });

  it('counts takeovers and fails a job whose replicas died three times instead of starting it again', async () => {
    const past = Date.now() - 60_000;
    await insertJob(db, storedJob('survivor', { status: 'running', owner: 'dead replica', takeovers: 1 }));
    await insertJob(db, storedJob('poison', { status: 'running', owner: 'dead replica', takeovers: 2 }));
    await db.run('UPDATE jobs SET lease_until = ? WHERE training_id IN (?, ?)', [past, 'survivor', 'poison']);
    const held = heldJobs();
    const jobs = await runner(held.executor, { maxRunning: 2 });
    await jobs.start();
    const run = await until('the survivor to be taken over', () => held.runs.find((r) => r.job.training_id === 'survivor'));
    assert.equal(run.job.takeovers, 2);
    const poison = await until('the poison job to fail', async () => {
      const found = await db.get('SELECT status, error FROM jobs WHERE training_id = ?', ['poison']);
      return found?.status === 'failed' && found;
    });
    assert.match(String(poison.error), /stopped 3 times before it finished/);
    assert.ok(!held.runs.some((r) => r.job.training_id === 'poison'), 'the poison job never ran again');
    run.finish();
    assert.equal(await run.ended, null);
  });

  it('gives each job to exactly one of two runners claiming at once', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `queued-${String(i).padStart(2, '0')}`);
    for (const id of ids) await insertJob(db, storedJob(id, {}));
    const onA = heldJobs();
    const onB = heldJobs();
    const a = await runner(onA.executor, { maxRunning: 6, leaseSeconds: 30 });
    const b = await runner(onB.executor, { maxRunning: 6, leaseSeconds: 30 });
    await Promise.all([a.start(), b.start()]);
    await until('every job to be claimed', () => onA.runs.length + onB.runs.length >= ids.length);
    const claimed = [...onA.runs, ...onB.runs].map((run) => run.job.training_id);
    assert.deepEqual([...claimed].sort(), ids, 'each job started once');
    assert.deepEqual([onA.runs.length, onB.runs.length], [6, 6], 'each runner filled its slots');
    for (const [jobs, runs] of [[a, onA.runs], [b, onB.runs]] as const) {
      for (const run of runs) assert.equal((await row(run.job.training_id)).owner, jobs.replicaId);
    }
    for (const run of [...onA.runs, ...onB.runs]) run.finish();
    assert.deepEqual(await Promise.all([...onA.runs, ...onB.runs].map((run) => run.ended)), Array(ids.length).fill(null));
    const statuses = await db.all("SELECT status, COUNT(*) AS n FROM jobs GROUP BY status");
    assert.deepEqual(statuses.map((r) => [r.status, Number(r.n)]), [['completed', ids.length]]);
  });

  it('hands its running jobs back to the queue when it stops, and another runner starts them at once', async () => {
    const { jobs: a, id, run } = await startedJob({ leaseSeconds: 30 });
    await a.stop();
    assert.ok(run.controls.signal.aborted);
    const handedBack = await row(id);
    assert.deepEqual([handedBack.status, handedBack.owner], ['pending', null]);
    const onB = heldJobs();
    const b = await runner(onB.executor, { leaseSeconds: 30 });
    await b.start();
    const resumed = await until('the job to start on B', () => onB.runs[0]);
    assert.equal(resumed.job.training_id, id);
    resumed.finish();
    assert.equal(await resumed.ended, null);
    assert.equal((await row(id)).status, 'completed');
  });

  if (backend.name === 'SQLite') it('on a database it holds alone, fails the jobs a crash left running and keeps its own running at stop', async () => {
    await insertJob(db, storedJob('crashed', { status: 'running', owner: 'previous process', started: new Date().toISOString() }));
    await db.run('UPDATE jobs SET lease_until = ? WHERE training_id = ?', [Date.now() + 600_000, 'crashed']);
    const held = heldJobs();
    const jobs = await runner(held.executor, { exclusive: true });
    await jobs.start();
    const crashed = await db.get("SELECT status, error FROM jobs WHERE training_id = 'crashed'");
    assert.deepEqual({ ...crashed }, { status: 'failed', error: 'interrupted' });
    const { training_id: id } = await jobs.submit(TEAM, 'manual', {}, 1);
    const run = await until('the job to start', () => held.runs[0]);
    await jobs.stop();
    assert.ok(run.controls.signal.aborted);
    assert.equal((await row(id)).status, 'running', 'the next start reports it interrupted');
  });
});
