import type { TrainingState, TrainingStatus } from '../../contract';
import type { Dialect, Queryable, Row } from '../store/sql';

export type JobKind = 'autotrain' | 'manual' | 'train';

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
  /** The replica that claimed the job (its JobRunner's replicaId); null until one does, or after it handed it back. */
  owner: string | null;
  /** How many times a replica took the job over from one that had stopped renewing its lease (died). */
  takeovers: number;
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
    owner: text(row.owner),
    takeovers: Number(row.takeovers),
  };
}

export async function insertJob(db: Queryable, job: JobRecord): Promise<void> {
  await db.run(
    `INSERT INTO jobs (training_id, team_id, kind, status, progress, current_step, request, model_id, version_id, error,
       estimated_time, created, started, finished, owner, takeovers)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      job.training_id, job.team_id, job.kind, job.status, job.progress, job.current_step, JSON.stringify(job.request),
      job.model_id, job.version_id, job.error, job.estimated_time, job.created, job.started, job.finished, job.owner,
      job.takeovers,
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

export async function countJobs(db: Queryable, status: TrainingState): Promise<number> {
  return Number((await db.get('SELECT COUNT(*) AS n FROM jobs WHERE status = ?', [status]))?.n ?? 0);
}

/** Which row state a conditional update applies to: the job's status, and its owner when given. */
export interface JobCondition {
  status: TrainingState;
  owner?: string;
}

/** Applies `changes`, only while the job matches `onlyIf` when that is given; resolves with whether it did. */
export async function updateJob(
  db: Queryable,
  trainingId: string,
  changes: Partial<Omit<JobRecord, 'training_id' | 'request'>>,
  onlyIf?: JobCondition,
): Promise<boolean> {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  if (keys.length === 0) return false;
  const params = [...keys.map((k) => changes[k] as string | number | null), trainingId];
  let condition = '';
  if (onlyIf) {
    condition += ' AND status = ?';
    params.push(onlyIf.status);
  }
  if (onlyIf?.owner !== undefined) {
    condition += ' AND owner = ?';
    params.push(onlyIf.owner);
  }
  return (await db.run(`UPDATE jobs SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE training_id = ?${condition}`, params)) > 0;
}

/**
 * The job SQL that differs between the backends. Leases are compared on the database's clock, so replicas whose
 * clocks disagree still agree on when a lease has expired. PostgreSQL claims with SKIP LOCKED, so replicas claiming
 * at once each take a different job instead of waiting for one another's row locks; SQLite runs one statement at a
 * time.
 */
const DIALECT: Record<Dialect, { nowMs: string; skipLocked: string }> = {
  sqlite: { nowMs: "CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)", skipLocked: '' },
  postgres: { nowMs: 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)', skipLocked: ' FOR UPDATE SKIP LOCKED' },
};

const placeholders = (n: number) => Array(n).fill('?').join(', ');

/**
 * Claims the oldest job that is pending, or running under a lease that has expired (its replica died), for `owner`
 * until `leaseMs` from now, in one statement; resolves with it as now stored, or null when there is none. A job
 * taken over restarts from the beginning, and counts one more takeover.
 */
export async function claimJob(db: Queryable, owner: string, leaseMs: number, started: string): Promise<JobRecord | null> {
  const { nowMs, skipLocked } = DIALECT[db.dialect];
  const row = await db.get(
    `UPDATE jobs SET status = 'running', owner = ?, lease_until = ${nowMs} + ?, progress = 0, current_step = 'starting', started = ?,
       takeovers = takeovers + CASE WHEN status = 'running' THEN 1 ELSE 0 END
     WHERE training_id = (
       SELECT training_id FROM jobs
       WHERE status = 'pending' OR (status = 'running' AND lease_until < ${nowMs})
       ORDER BY created, rowid LIMIT 1${skipLocked}
     )
     RETURNING *`,
    [owner, Math.round(leaseMs), started],
  );
  return row ? toJob(row) : null;
}

/**
 * Extends to `leaseMs` from now the leases of the jobs `owner` runs, in one statement; resolves with the ids still
 * running under its ownership. An id missing from the answer was cancelled or taken over: its run must stop.
 */
export async function renewLeases(db: Queryable, owner: string, trainingIds: string[], leaseMs: number): Promise<Set<string>> {
  if (trainingIds.length === 0) return new Set();
  const rows = await db.all(
    `UPDATE jobs SET lease_until = ${DIALECT[db.dialect].nowMs} + ?
     WHERE owner = ? AND status = 'running' AND training_id IN (${placeholders(trainingIds.length)})
     RETURNING training_id`,
    [Math.round(leaseMs), owner, ...trainingIds],
  );
  return new Set(rows.map((row) => String(row.training_id)));
}

/** Hands the jobs `owner` still runs back to the queue (pending, no owner), for another replica to start at once. */
export async function releaseJobs(db: Queryable, owner: string, trainingIds: string[]): Promise<void> {
  if (trainingIds.length === 0) return;
  await db.run(
    `UPDATE jobs SET status = 'pending', owner = NULL, lease_until = NULL, progress = 0, current_step = 'queued', started = NULL
     WHERE owner = ? AND status = 'running' AND training_id IN (${placeholders(trainingIds.length)})`,
    [owner, ...trainingIds],
  );
}

/** Fails every running job with `error`; for a database one process holds alone, whose running jobs a crash ended. */
export async function failRunningJobs(db: Queryable, error: string, finished: string): Promise<void> {
  await db.run("UPDATE jobs SET status = 'failed', error = ?, current_step = ?, finished = ? WHERE status = 'running'", [error, error, finished]);
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
