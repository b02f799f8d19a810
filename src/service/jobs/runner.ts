import { randomUUID } from 'node:crypto';
import type { TrainingStatus } from '../../contract';
import { conflict, notFound, tooManyJobs } from '../base/errors';
import type { Logger } from '../base/logger';
import type { Database, Queryable } from '../store/sql';
import {
  claimJob,
  countJobs,
  failRunningJobs,
  findJob,
  insertJob,
  jobStatus,
  releaseJobs,
  renewLeases,
  updateJob,
  type JobKind,
  type JobRecord,
} from './store';

export interface JobControls {
  signal: AbortSignal;
  /** Reports real progress (0-100) and the step being worked on; the write happens in the background. */
  progress(percent: number, step: string): void;
  /**
   * Runs `register` (which writes the trained model on `tx`) and marks the job completed in the same transaction,
   * unless the job was cancelled or taken over meanwhile; then nothing is written and it rejects with JobCancelled.
   */
  complete(register: (tx: Queryable) => Promise<{ model_id: string; version_id: string }>): Promise<void>;
}

/**
 * `secret` is what the job was submitted with but not stored (e.g. an API key). Only the replica the job was submitted
 * to has it, so it is undefined when another replica runs the job, after a restart, and when a job is taken over.
 */
export type JobExecutor = (job: JobRecord, controls: JobControls, secret: string | undefined) => Promise<void>;

export interface JobRunnerOptions {
  maxRunning: number;
  maxPending: number;
  /** How long a claimed job stays this replica's without being renewed (default 30 s). */
  leaseSeconds?: number;
  /**
   * Whether this process holds the database alone (SQLite): a job left running was then interrupted by a crash and
   * is failed at start, and jobs running at stop stay so. Otherwise (PostgreSQL) other replicas' running jobs are
   * theirs until their lease expires, and this replica hands its own back to the queue when it stops.
   */
  exclusive: boolean;
}

/**
 * Calls `write` (which must not reject) with each value given, one write at a time and in order; values given while
 * a write is under way are coalesced into the latest. Progress goes through it: on a connection pool, writes sent at
 * once may land in any order, and a later, lower percentage would overwrite a higher one.
 */
function latestInOrder<T>(write: (value: T) => Promise<void>): (value: T) => void {
  let next: { value: T } | null = null;
  let writing = false;
  const drain = async () => {
    writing = true;
    while (next) {
      const { value } = next;
      next = null;
      await write(value);
    }
    writing = false;
  };
  return (value) => {
    next = { value };
    if (!writing) void drain();
  };
}

const DEFAULT_LEASE_SECONDS = 30;
/** Leases are renewed, and the queue looked at, this often at most. */
const MAX_TICK_MS = 1000;
/** Replica deaths a job survives: the next one fails it. */
const MAX_TAKEOVERS = 2;

export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * Training jobs (pending → running → completed | failed; pending | running → cancelled), persisted in the store
 * so their state survives a restart and any replica on the same database can run them. At most `maxRunning` run
 * here at once; more than `maxPending` waiting → 429.
 *
 * A replica claims a job under a lease (owner = its replicaId, lease_until) and renews it while the job runs; a job
 * whose row stops saying so (cancelled anywhere, or taken over after the lease lapsed) is aborted here at the next
 * renewal (within a second), and its progress, failure and completion are only written while the row still names
 * this replica. A job whose replica died is taken over by another once its lease has expired and runs again from
 * the start (a completion is one transaction, so the first run wrote nothing), without its `secret`.
 */
export class JobRunner {
  /** This replica's name in the jobs it claims: random per process. */
  readonly replicaId = randomUUID();
  private readonly leaseMs: number;
  private readonly running = new Map<string, AbortController>();
  /** Secrets of jobs submitted by this process, kept in memory only: the store never sees them. */
  private readonly secrets = new Map<string, string>();
  private readonly executors = new Map<JobKind, JobExecutor>();
  private stopped = false;
  private ticker: NodeJS.Timeout | null = null;
  private renewing = false;
  /** One pass of claiming jobs at a time; a request during a pass queues one more. */
  private pass: Promise<void> | null = null;
  private pumpAgain = false;

  constructor(
    private readonly store: Database,
    private readonly logger: Logger,
    private readonly options: JobRunnerOptions,
  ) {
    this.leaseMs = (options.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  }

  register(kind: JobKind, executor: JobExecutor): void {
    this.executors.set(kind, executor);
  }

  /**
   * Starts running jobs: on a database held alone, jobs a crash left running are first failed as interrupted. Then
   * leases are renewed, and pending or abandoned jobs claimed, on a timer as well as on submit and on finish.
   */
  async start(): Promise<void> {
    if (this.options.exclusive) await failRunningJobs(this.store, 'interrupted', new Date().toISOString());
    this.ticker = setInterval(() => this.tick(), Math.min(MAX_TICK_MS, this.leaseMs / 3));
    this.ticker.unref();
    this.pump();
  }

  async submit(teamId: string, kind: JobKind, request: unknown, estimatedSeconds: number, secret?: string): Promise<JobRecord> {
    const job: JobRecord = {
      training_id: randomUUID(),
      team_id: teamId,
      kind,
      status: 'pending',
      progress: 0,
      current_step: 'queued',
      request,
      model_id: null,
      version_id: null,
      error: null,
      estimated_time: estimatedSeconds,
      created: new Date().toISOString(),
      started: null,
      finished: null,
      owner: null,
      takeovers: 0,
    };
    await this.store.transaction(async (tx) => {
      if ((await countJobs(tx, 'pending')) >= this.options.maxPending) throw tooManyJobs(this.options.maxPending);
      await insertJob(tx, job);
    });
    if (secret) this.secrets.set(job.training_id, secret);
    this.pump();
    return job;
  }

  async status(teamId: string, trainingId: string): Promise<TrainingStatus> {
    const job = await findJob(this.store, teamId, trainingId);
    if (!job) throw notFound('Training', trainingId);
    return jobStatus(job);
  }

  async cancel(teamId: string, trainingId: string): Promise<TrainingStatus> {
    const cancelled = await this.store.transaction(async (tx) => {
      const job = await findJob(tx, teamId, trainingId);
      if (!job) throw notFound('Training', trainingId);
      if (job.status !== 'pending' && job.status !== 'running') {
        throw conflict(`Training ${trainingId} has already ended (${job.status}); only a pending or running job can be cancelled.`);
      }
      const changes = { status: 'cancelled', current_step: 'cancelled', finished: new Date().toISOString() } as const;
      await updateJob(tx, trainingId, changes);
      return { ...job, ...changes };
    });
    this.secrets.delete(trainingId);
    this.running.get(trainingId)?.abort(new JobCancelled());
    return jobStatus(cancelled);
  }

  /**
   * Stops claiming jobs and aborts the ones running here. A database held alone keeps them `running`, so the next
   * start reports them interrupted; on a shared one they go back to the queue for another replica to start at once.
   * Never rejects.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.ticker) clearInterval(this.ticker);
    await this.pass;
    const held = [...this.running.keys()];
    for (const controller of this.running.values()) controller.abort(new Error('service stopping'));
    if (this.options.exclusive) return;
    await releaseJobs(this.store, this.replicaId, held).catch((error: unknown) =>
      this.logger.error('handing running trainings back to the queue failed; other replicas take them over once their leases expire', error),
    );
  }

  private tick(): void {
    this.pump();
    // A renewal still under way (a slow database) is not joined by another.
    if (this.renewing) return;
    this.renewing = true;
    this.renewLeases()
      .catch((error: unknown) => this.logger.error('renewing the leases of running trainings failed', error))
      .finally(() => (this.renewing = false));
  }

  private async renewLeases(): Promise<void> {
    const held = [...this.running.keys()];
    if (held.length === 0) return;
    const kept = await renewLeases(this.store, this.replicaId, held, this.leaseMs);
    for (const id of held) {
      const controller = this.running.get(id);
      if (kept.has(id) || !controller) continue;
      this.logger.info(`training ${id} was cancelled or taken over elsewhere; stopping it here`);
      controller.abort(new JobCancelled());
    }
  }

  /** Claims jobs while there is room, in the background. */
  private pump(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.pumpAgain = true;
      return;
    }
    this.pass = this.claimWhileRoom()
      .catch((error: unknown) => this.logger.error('starting pending trainings failed', error))
      .finally(() => {
        this.pass = null;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async claimWhileRoom(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.maxRunning) {
      const job = await claimJob(this.store, this.replicaId, this.leaseMs, new Date().toISOString());
      if (!job) return;
      // This replica's own job, whose lease lapsed while the process was too busy to renew it: the claim renewed it.
      if (this.running.has(job.training_id)) continue;
      if (job.takeovers > MAX_TAKEOVERS) {
        await this.failAbandoned(job);
        continue;
      }
      const controller = new AbortController();
      this.running.set(job.training_id, controller);
      void this.execute(job, controller);
    }
  }

  /** A job whose replicas kept dying (e.g. out of memory) is failed rather than handed to the next one to kill. */
  private async failAbandoned(job: JobRecord): Promise<void> {
    const error = `The replicas running this job stopped ${job.takeovers} times before it finished (killed, or out of memory); it is not started again.`;
    this.logger.info(`training ${job.training_id} failed: ${error}`);
    await updateJob(this.store, job.training_id, { status: 'failed', error, current_step: 'failed', finished: new Date().toISOString() }, {
      status: 'running',
      owner: this.replicaId,
    });
  }

  /** Runs the job's executor to its end; never rejects. */
  private async execute(job: JobRecord, controller: AbortController): Promise<void> {
    const id = job.training_id;
    const mine = { status: 'running', owner: this.replicaId } as const;
    const recordProgress = latestInOrder<Pick<JobRecord, 'progress' | 'current_step'>>((changes) =>
      updateJob(this.store, id, changes, mine).then(
        () => undefined,
        (error: unknown) => this.logger.error(`recording the progress of training ${id} failed`, error),
      ),
    );
    const controls: JobControls = {
      signal: controller.signal,
      progress: (percent, step) => {
        if (controller.signal.aborted) return;
        recordProgress({ progress: Math.max(0, Math.min(100, percent)), current_step: step });
      },
      complete: async (register) => {
        await this.store.transaction(async (tx) => {
          if (controller.signal.aborted) throw new JobCancelled();
          const ids = await register(tx);
          // Cancelled or taken over meanwhile: throwing rolls back what `register` wrote.
          const completed = await updateJob(
            tx,
            id,
            { status: 'completed', progress: 100, current_step: 'completed', model_id: ids.model_id, version_id: ids.version_id, finished: new Date().toISOString() },
            mine,
          );
          if (!completed) throw new JobCancelled();
        });
        // No longer held: its row says completed, so a renewal from now on would take it for lost.
        this.running.delete(id);
      },
    };
    try {
      const executor = this.executors.get(job.kind);
      if (!executor) throw new Error(`no executor for ${job.kind}`);
      await executor(job, controls, this.secrets.get(id));
    } catch (error) {
      if (!controller.signal.aborted && !(error instanceof JobCancelled)) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.info(`training ${id} failed: ${message}`);
        await updateJob(this.store, id, { status: 'failed', error: message, current_step: 'failed', finished: new Date().toISOString() }, mine).catch(
          (writeError: unknown) => this.logger.error(`recording the failure of training ${id} failed`, writeError),
        );
      }
    } finally {
      this.running.delete(id);
      this.secrets.delete(id);
      this.pump();
    }
  }
}
