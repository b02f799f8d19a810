/**
 * Job duration estimates from measured throughput: a fixed start-up cost plus the data's cells at the cells per
 * second the last jobs of the same kind achieved, once per model fitted (a multiclass label fits one per class,
 * searched and trained alike). The defaults were measured on the sample datasets (autotrain of
 * 350–20,000 rows × 5–9 columns took 0.7–1.6 s); each finished job updates its kind's throughput.
 */
export type EstimatedJob = 'autotrain' | 'manual' | 'train';

const START_SECONDS: Record<EstimatedJob, number> = { autotrain: 0.8, manual: 0.3, train: 0.3 };
const DEFAULT_CELLS_PER_SECOND: Record<EstimatedJob, number> = { autotrain: 250_000, manual: 1_000_000, train: 2_000_000 };
/** Weight of the newest measurement in the running throughput. */
const SMOOTHING = 0.5;
const MIN_WORK_SECONDS = 0.05;

export class ThroughputMeter {
  /** Kept as seconds per cell so that averaging weighs a slow job as much as a fast one. */
  private readonly secondsPerCell = Object.fromEntries(Object.entries(DEFAULT_CELLS_PER_SECOND).map(([kind, cells]) => [kind, 1 / cells])) as Record<EstimatedJob, number>;

  /** Seconds a job of this kind should take on rows × columns fitting `models` models, to one decimal. */
  estimate(kind: EstimatedJob, rows: number, columns: number, models = 1): number {
    const cells = rows * Math.max(1, columns);
    return Math.round(models * (START_SECONDS[kind] + cells * this.secondsPerCell[kind]) * 10) / 10;
  }

  /** Records how long a finished job took, so later estimates follow this machine and this engine. */
  record(kind: EstimatedJob, rows: number, columns: number, seconds: number, models = 1): void {
    const work = Math.max(MIN_WORK_SECONDS, seconds / models - START_SECONDS[kind]);
    const measured = work / (rows * Math.max(1, columns));
    this.secondsPerCell[kind] = SMOOTHING * measured + (1 - SMOOTHING) * this.secondsPerCell[kind];
  }
}
