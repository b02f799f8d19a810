import type { TrainingState, TrainingStatus } from '../../contract';
import type { Queryable, Row } from '../store/sql';

export type JobKind = 'autotrain' | 'manual';

export interface JobRecord {
  training_id: string;
  team_id: string;
  kind: JobKind;
  status: TrainingState;
  progress: number;
  current_step: string;
  request: unknown;
  model_id: string | null;
  version_id: string | null;
  error: string | null;
  estimated_time: number;
  created: string;
  started: string | null;
  finished: string | null;
}

const text = (v: Row[string]) => (v === null ? null : String(v));

function toJob(row: Row): JobRecord {
  return {
    training_id: String(row.training_id),
    team_id: String(row.team_id),
    kind: String(row.kind) as JobKind,
    status: String(row.status) as TrainingState,
    progress: Number(row.progress),
    current_step: String(row.current_step),
    request: JSON.parse(String(row.request)),
    model_id: text(row.model_id),
    version_id: text(row.version_id),
    error: text(row.error),
    estimated_time: Number(row.estimated_time),
    created: String(row.created),
    started: text(row.started),
    finished: text(row.finished),
  };
}

export async function insertJob(db: Queryable, job: JobRecord): Promise<void> {
  await db.run(
    `INSERT INTO jobs (training_id, team_id, kind, status, progress, current_step, request, model_id, version_id, error,
       estimated_time, created, started, finished)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      job.training_id, job.team_id, job.kind, job.status, job.progress, job.current_step, JSON.stringify(job.request),
      job.model_id, job.version_id, job.error, job.estimated_time, job.created, job.started, job.finished,
    ],
  );
}

export async function findJob(db: Queryable, teamId: string, trainingId: string): Promise<JobRecord | null> {
  const row = await db.get('SELECT * FROM jobs WHERE training_id = ? AND team_id = ?', [trainingId, teamId]);
  return row ? toJob(row) : null;
}

export async function getJob(db: Queryable, trainingId: string): Promise<JobRecord> {
  const row = await db.get('SELECT * FROM jobs WHERE training_id = ?', [trainingId]);
  if (!row) throw new Error(`job ${trainingId} vanished`);
  return toJob(row);
}

export async function jobsInState(db: Queryable, status: TrainingState): Promise<JobRecord[]> {
  return (await db.all('SELECT * FROM jobs WHERE status = ? ORDER BY created, rowid', [status])).map(toJob);
}

export async function countJobs(db: Queryable, status: TrainingState): Promise<number> {
  return Number((await db.get('SELECT COUNT(*) AS n FROM jobs WHERE status = ?', [status]))?.n ?? 0);
}

/** Applies `changes`, only while the job is in state `onlyIf` when that is given; resolves with whether it did. */
export async function updateJob(
  db: Queryable,
  trainingId: string,
  changes: Partial<Omit<JobRecord, 'training_id' | 'request'>>,
  onlyIf?: TrainingState,
): Promise<boolean> {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  if (keys.length === 0) return false;
  const params = [...keys.map((k) => changes[k] as string | number | null), trainingId];
  const condition = onlyIf === undefined ? '' : ' AND status = ?';
  if (onlyIf !== undefined) params.push(onlyIf);
  return (await db.run(`UPDATE jobs SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE training_id = ?${condition}`, params)) > 0;
}

const seconds = (from: string, to: number) => Math.max(0, (to - Date.parse(from)) / 1000);

export function jobStatus(job: JobRecord, now = Date.now()): TrainingStatus {
  const ended = job.finished !== null;
  const elapsed = seconds(job.created, ended ? Date.parse(job.finished as string) : now);
  let remaining = 0;
  if (!ended) {
    remaining =
      job.progress > 0 && job.started
        ? (seconds(job.started, now) * (100 - job.progress)) / job.progress
        : Math.max(0, job.estimated_time - elapsed);
  }
  return {
    training_id: job.training_id,
    status: job.status,
    progress: Math.round(job.progress * 10) / 10,
    current_step: job.current_step,
    model_id: job.model_id,
    version_id: job.version_id,
    error: job.error,
    elapsed_time: Math.round(elapsed * 1000) / 1000,
    estimated_remaining: Math.round(remaining * 1000) / 1000,
  };
}
