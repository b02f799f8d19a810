import { randomUUID } from 'node:crypto';
import type { TrainingStatus } from '../../contract';
import { conflict, notFound, tooManyJobs } from '../errors';
import type { Logger } from '../logger';
import type { Database, Queryable } from '../store/sql';
import { countJobs, findJob, getJob, insertJob, jobStatus, jobsInState, updateJob, type JobKind, type JobRecord } from './store';

export interface JobControls {
  signal: AbortSignal;
  /** Reports real progress (0-100) and the step being worked on; the write happens in the background. */
  progress(percent: number, step: string): void;
  /**
   * Runs `register` (which writes the trained model on `tx`) and marks the job completed in the same transaction,
   * unless the job was cancelled meanwhile; then nothing is written and it rejects with JobCancelled.
   */
  complete(register: (tx: Queryable) => Promise<{ model_id: string; version_id: string }>): Promise<void>;
}

/** `secret` is what the job was submitted with but not stored (e.g. an API key); undefined after a restart. */
export type JobExecutor = (job: JobRecord, controls: JobControls, secret: string | undefined) => Promise<void>;

export interface JobRunnerOptions {
  maxRunning: number;
  maxPending: number;
}

export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * Training jobs (pending → running → completed | failed; pending | running → cancelled), persisted in the store
 * so their state survives a restart. At most `maxRunning` run at once; more than `maxPending` waiting → 429.
 */
export class JobRunner {
  private readonly running = new Map<string, AbortController>();
  /** Secrets of jobs submitted by this process, kept in memory only: the store never sees them. */
  private readonly secrets = new Map<string, string>();
  private readonly executors = new Map<JobKind, JobExecutor>();
  private stopped = false;
  /** One pass of starting pending jobs at a time, so no job is started twice; a request during a pass queues one more. */
  private pumping = false;
  private pumpAgain = false;

  constructor(
    private readonly store: Database,
    private readonly logger: Logger,
    private readonly options: JobRunnerOptions,
  ) {}

  register(kind: JobKind, executor: JobExecutor): void {
    this.executors.set(kind, executor);
  }

  /** After a restart: jobs that were running are failed as interrupted; pending ones run. */
  async recover(): Promise<void> {
    for (const job of await jobsInState(this.store, 'running')) {
      await updateJob(this.store, job.training_id, { status: 'failed', error: 'interrupted', current_step: 'interrupted', finished: new Date().toISOString() });
    }
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
      await updateJob(tx, trainingId, { status: 'cancelled', current_step: 'cancelled', finished: new Date().toISOString() });
      return getJob(tx, trainingId);
    });
    this.secrets.delete(trainingId);
    this.running.get(trainingId)?.abort(new JobCancelled());
    return jobStatus(cancelled);
  }

  /** Stops starting jobs and aborts running ones (they stay `running` in the store, so a restart reports them interrupted). */
  stop(): void {
    this.stopped = true;
    for (const controller of this.running.values()) controller.abort(new Error('service stopping'));
  }

  /** Starts pending jobs while there is room, in the background. */
  private pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.startPending()
      .catch((error: unknown) => this.logger.error('starting pending trainings failed', error))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async startPending(): Promise<void> {
    while (!this.stopped && this.running.size < this.options.maxRunning) {
      const next = (await jobsInState(this.store, 'pending'))[0];
      if (!next) return;
      await this.start(next);
    }
  }

  private async start(pending: JobRecord): Promise<void> {
    const id = pending.training_id;
    const controller = new AbortController();
    this.running.set(id, controller);
    // Only a job still pending starts: a cancel may have landed since it was listed.
    const claimed = await updateJob(this.store, id, { status: 'running', current_step: 'starting', started: new Date().toISOString() }, 'pending').catch(
      (error: unknown) => {
        this.running.delete(id);
        throw error;
      },
    );
    if (!claimed || controller.signal.aborted) {
      this.running.delete(id);
      return;
    }
    void this.execute(id, controller);
  }

  /** Runs the job's executor to its end; never rejects. */
  private async execute(id: string, controller: AbortController): Promise<void> {
    const controls: JobControls = {
      signal: controller.signal,
      progress: (percent, step) => {
        if (controller.signal.aborted) return;
        updateJob(this.store, id, { progress: Math.max(0, Math.min(100, percent)), current_step: step }, 'running').catch((error: unknown) =>
          this.logger.error(`recording the progress of training ${id} failed`, error),
        );
      },
      complete: (register) =>
        this.store.transaction(async (tx) => {
          if (controller.signal.aborted || (await getJob(tx, id)).status !== 'running') throw new JobCancelled();
          const ids = await register(tx);
          await updateJob(tx, id, {
            status: 'completed',
            progress: 100,
            current_step: 'completed',
            model_id: ids.model_id,
            version_id: ids.version_id,
            finished: new Date().toISOString(),
          });
        }),
    };
    try {
      const job = await getJob(this.store, id);
      const executor = this.executors.get(job.kind);
      if (!executor) throw new Error(`no executor for ${job.kind}`);
      await executor(job, controls, this.secrets.get(id));
    } catch (error) {
      if (!controller.signal.aborted && !(error instanceof JobCancelled)) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.info(`training ${id} failed: ${message}`);
        await updateJob(this.store, id, { status: 'failed', error: message, current_step: 'failed', finished: new Date().toISOString() }, 'running').catch(
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
