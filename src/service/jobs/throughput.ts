import type { FitWork } from '../../autotrain';

/**
 * Job duration estimates: a start-up cost plus the seconds of the job's fits, each fit a fixed cost (binning, bags,
 * the rounds a small table still needs) plus its cells, rows × features. An autotrain job's fits are its parameter
 * search's and its final model's, once per class of a multiclass label (autotrainWork). The constants were fitted to
 * the CPU seconds of autotrain jobs on every sample dataset, which they match within 1.6× (`npm run bench --
 * autotrain` prints estimate against the actual run); each finished job then moves its kind's speed factor towards
 * what it measured, so the estimates follow this machine.
 */
export type EstimatedJob = 'autotrain' | 'manual' | 'train';

const START_SECONDS: Record<EstimatedJob, number> = { autotrain: 0.2, manual: 0.2, train: 0.2 };
const FIT_SECONDS = 0.065;
const CELL_SECONDS = 6.7e-6;
/** Weight of the newest job in the speed factor, which averages measured / modelled seconds geometrically. */
const SMOOTHING = 0.5;
/** How far a few slow or fast jobs may move the estimates from the measured constants. */
const MAX_SPEED_FACTOR = 4;

function modelledSeconds(work: readonly FitWork[]): number {
  return work.reduce((sum, w) => sum + w.fits * (FIT_SECONDS + CELL_SECONDS * w.rows * w.features), 0);
}

/** A plain train's work: one fit on the training rows (80 % of them) of every column but the target. */
export function oneFit(rows: number, columns: number): FitWork[] {
  return [{ rows: Math.round(rows * 0.8), features: Math.max(1, columns - 1), fits: 1 }];
}

export class ThroughputMeter {
  /** log(measured / modelled seconds of the fits) of each kind, smoothed over its finished jobs. */
  private readonly logSpeed: Record<EstimatedJob, number> = { autotrain: 0, manual: 0, train: 0 };

  /** Seconds a job of this kind should take for its fits, to one decimal. */
  estimate(kind: EstimatedJob, work: readonly FitWork[]): number {
    return Math.round((START_SECONDS[kind] + Math.exp(this.logSpeed[kind]) * modelledSeconds(work)) * 10) / 10;
  }

  /** Records how long a finished job took, so later estimates follow this machine and this engine. */
  record(kind: EstimatedJob, work: readonly FitWork[], seconds: number): void {
    const modelled = modelledSeconds(work);
    const fitting = seconds - START_SECONDS[kind];
    if (!(modelled > 0) || !(fitting > 0)) return;
    const limit = Math.log(MAX_SPEED_FACTOR);
    const speed = SMOOTHING * Math.log(fitting / modelled) + (1 - SMOOTHING) * this.logSpeed[kind];
    this.logSpeed[kind] = Math.min(limit, Math.max(-limit, speed));
  }
}
