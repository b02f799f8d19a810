import type { PublicDatasets } from './datasets/public';
import type { JobRunner } from './jobs/runner';
import type { Logger } from './logger';
import type { Database } from './store/sql';
import type { Trainer } from './training/trainer';

/** What every route handler needs: storage, the training pool, the job runner and settings. */
export interface ServiceContext {
  store: Database;
  dataDir: string;
  version: string;
  logger: Logger;
  uploadLimitBytes: number;
  publicDatasets: PublicDatasets;
  trainer: Trainer;
  jobs: JobRunner;
}
