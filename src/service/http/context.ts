import type { PublicDatasets } from '../datasetFiles/public';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../base/logger';
import type { Connections } from '../sources/connections';
import type { SqlSource } from '../sources/source';
import type { Database } from '../store/sql';
import type { KeyIdentity } from '../store/teams';
import type { LlmEndpointPolicy } from '../textgen/policy';
import type { Trainer } from '../training/trainer';

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
  /** Named database connections whose tables and queries can be datasets. */
  connections: Connections;
  /** Whether POST and DELETE /v1/connections are answered (else 403: connections come from the operator only). */
  connectionApi: boolean;
  /** The most rows of a source dataset read into memory (`serve --max-rows-in-memory`). */
  maxRowsInMemory: number;
  /**
   * The service's own embedded DuckDB, never reachable by a caller's SQL: it reads uploaded Parquet files that have
   * more rows than the in-memory budget where they lie, as a connection's tables are read.
   */
  uploadsEngine: SqlSource;
  /** Which text-generation endpoints autotrain calls for its callers, and how (`serve --llm-endpoint`). */
  llmEndpoints: LlmEndpointPolicy;
  /**
   * Why this service refuses to read a file of its machine where it lies (POST /v1/datasets {source: {file}}), naming
   * the setting; null on the local service (bound to loopback, with the embedded store), which reads them.
   */
  filesInPlaceRefusal: string | null;
}

/** Who a request (or a job started by one) acts as. */
export interface Session {
  identity: KeyIdentity;
  /** The session team: the key's default team or the one named by the `team_id` header. */
  teamId: string;
}
