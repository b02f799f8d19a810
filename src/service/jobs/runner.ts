import { randomUUID } from 'node:crypto';
import type { TrainingStatus } from '../../contract';
import { conflict, notFound, tooManyJobs } from '../errors';
import type { Logger } from '../logger';
import type { Store } from '../store/database';
import { countJobs, findJob, getJob, insertJob, jobStatus, jobsInState, updateJob, type JobKind, type JobRecord } from './store';

export interface JobControls {
  signal: AbortSignal;
  /** Reports real progress (0-100) and the step being worked on. */
  progress(percent: number, step: string): void;
  /**
   * Runs `register` (which writes the trained model) and marks the job completed in the same transaction,
   * unless the job was cancelled meanwhile; then nothing is written.
   */
  complete(register: () => { model_id: string; version_id: string }): void;
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

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly options: JobRunnerOptions,
  ) {}

  register(kind: JobKind, executor: JobExecutor): void {
    this.executors.set(kind, executor);
  }

  /** After a restart: jobs that were running are failed as interrupted; pending ones run. */
  recover(): void {
    for (const job of jobsInState(this.store, 'running')) {
      updateJob(this.store, job.training_id, { status: 'failed', error: 'interrupted', current_step: 'interrupted', finished: new Date().toISOString() });
    }
    this.pump();
  }

  submit(teamId: string, kind: JobKind, request: unknown, estimatedSeconds: number, secret?: string): JobRecord {
    if (countJobs(this.store, 'pending') >= this.options.maxPending) throw tooManyJobs(this.options.maxPending);
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
    insertJob(this.store, job);
    if (secret) this.secrets.set(job.training_id, secret);
    queueMicrotask(() => this.pump());
    return job;
  }

  status(teamId: string, trainingId: string): TrainingStatus {
    const job = findJob(this.store, teamId, trainingId);
    if (!job) throw notFound('Training', trainingId);
    return jobStatus(job);
  }

  cancel(teamId: string, trainingId: string): TrainingStatus {
    const job = findJob(this.store, teamId, trainingId);
    if (!job) throw notFound('Training', trainingId);
    if (job.status !== 'pending' && job.status !== 'running') {
      throw conflict(`Training ${trainingId} has already ended (${job.status}); only a pending or running job can be cancelled.`);
    }
    updateJob(this.store, trainingId, { status: 'cancelled', current_step: 'cancelled', finished: new Date().toISOString() });
    this.secrets.delete(trainingId);
    this.running.get(trainingId)?.abort(new JobCancelled());
    return jobStatus(getJob(this.store, trainingId));
  }

  /** Stops starting jobs and aborts running ones (they stay `running` in the store, so a restart reports them interrupted). */
  stop(): void {
    this.stopped = true;
    for (const controller of this.running.values()) controller.abort(new Error('service stopping'));
  }

  private pump(): void {
    if (this.stopped) return;
    while (this.running.size < this.options.maxRunning) {
      const next = jobsInState(this.store, 'pending')[0];
      if (!next) return;
      this.start(next);
    }
  }

  private start(job: JobRecord): void {
    const controller = new AbortController();
    this.running.set(job.training_id, controller);
    updateJob(this.store, job.training_id, { status: 'running', current_step: 'starting', started: new Date().toISOString() });
    const isLive = () => !controller.signal.aborted && getJob(this.store, job.training_id).status === 'running';
    const controls: JobControls = {
      signal: controller.signal,
      progress: (percent, step) => {
        if (isLive()) updateJob(this.store, job.training_id, { progress: Math.max(0, Math.min(100, percent)), current_step: step });
      },
      complete: (register) => {
        this.store.transaction(() => {
          if (!isLive()) throw new JobCancelled();
          const ids = register();
          updateJob(this.store, job.training_id, {
            status: 'completed',
            progress: 100,
            current_step: 'completed',
            model_id: ids.model_id,
            version_id: ids.version_id,
            finished: new Date().toISOString(),
          });
        });
      },
    };
    const executor = this.executors.get(job.kind);
    const secret = this.secrets.get(job.training_id);
    const run = executor ? executor(getJob(this.store, job.training_id), controls, secret) : Promise.reject(new Error(`no executor for ${job.kind}`));
    run
      .catch((error: unknown) => {
        if (controller.signal.aborted || error instanceof JobCancelled) return;
        const message = error instanceof Error ? error.message : String(error);
        this.logger.info(`training ${job.training_id} failed: ${message}`);
        updateJob(this.store, job.training_id, { status: 'failed', error: message, current_step: 'failed', finished: new Date().toISOString() });
      })
      .finally(() => {
        this.running.delete(job.training_id);
        this.secrets.delete(job.training_id);
        this.pump();
      });
  }
}
