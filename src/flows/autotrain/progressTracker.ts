import type { TrainingStatus } from '../../contract/autotrain';

/** One `progress.report` call: the increment since the last report (0–100 in total) and the step's text. */
export interface ProgressReport {
  readonly increment: number;
  readonly message: string;
}

/**
 * Turns the job's absolute progress (0–100) into the increments VS Code's progress API wants. Increments never
 * go negative (a status that reports less than before adds nothing) and never push the total past 100.
 */
export class ProgressTracker {
  private reported = 0;

  get total(): number {
    return this.reported;
  }

  next(status: Pick<TrainingStatus, 'progress' | 'current_step' | 'status'>): ProgressReport {
    const target = Math.min(100, Math.max(this.reported, Number.isFinite(status.progress) ? status.progress : 0));
    const increment = target - this.reported;
    this.reported = target;
    return { increment, message: status.current_step || status.status };
  }
}
