/**
 * The schema of both backends, as numbered migrations applied in order: version N makes the same change on SQLite
 * and on PostgreSQL, written once with the few spellings that differ taken from the dialect. Never change what a
 * shipped migration produces on either backend; append a new one.
 */

interface Dialect {
  /** A floating-point column. */
  real: string;
  /** A column of epoch milliseconds. */
  epochMs: string;
  /** Text that compares bytewise whatever the database's locale, as SQLite's always does. */
  bytewise: string;
  /** `sql` on PostgreSQL, nothing on SQLite. */
  postgresOnly(sql: string): string;
}

const SQLITE: Dialect = { real: 'REAL', epochMs: 'INTEGER', bytewise: '', postgresOnly: () => '' };
const POSTGRES: Dialect = { real: 'DOUBLE PRECISION', epochMs: 'BIGINT', bytewise: ' COLLATE "C"', postgresOnly: (sql) => sql };

/**
 * What PostgreSQL has that SQLite has implicitly or keeps elsewhere: a `rowid` on the tables the store lists in
 * insertion order, and `dataset_files`, the dataset bytes that SQLite keeps in the data dir.
 */
const POSTGRES_ONLY_TABLES = `ALTER TABLE datasets ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
  ALTER TABLE preprocessors ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
  ALTER TABLE models ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
  ALTER TABLE jobs ADD COLUMN rowid BIGINT GENERATED ALWAYS AS IDENTITY;
  CREATE TABLE dataset_files (
    key TEXT COLLATE "C" NOT NULL,
    seq INTEGER NOT NULL,
    bytes BYTEA NOT NULL,
    PRIMARY KEY (key, seq)
  );
  `;

const SCHEMA: ((d: Dialect) => string)[] = [
  (d) => `
  CREATE TABLE teams (
    team_id TEXT PRIMARY KEY,
    name TEXT${d.bytewise} NOT NULL UNIQUE,
    created TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    key_hash TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    default_team_id TEXT NOT NULL REFERENCES teams(team_id),
    created TEXT NOT NULL
  );
  CREATE TABLE key_teams (
    key_hash TEXT NOT NULL REFERENCES api_keys(key_hash) ON DELETE CASCADE,
    team_id TEXT NOT NULL REFERENCES teams(team_id),
    PRIMARY KEY (key_hash, team_id)
  );
  CREATE TABLE datasets (
    dataset_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams(team_id),
    name TEXT NOT NULL,
    rows INTEGER NOT NULL,
    columns TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    created TEXT NOT NULL
  );
  CREATE INDEX datasets_team ON datasets(team_id, created);
  CREATE TABLE preprocessors (
    preprocessor_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams(team_id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    created TEXT NOT NULL
  );
  CREATE TABLE preprocessor_versions (
    version_id TEXT PRIMARY KEY,
    preprocessor_id TEXT NOT NULL REFERENCES preprocessors(preprocessor_id) ON DELETE CASCADE,
    version_number INTEGER NOT NULL,
    steps TEXT NOT NULL,
    fitted TEXT NOT NULL,
    dataset_id TEXT,
    created TEXT NOT NULL,
    UNIQUE (preprocessor_id, version_number)
  );
  CREATE TABLE models (
    model_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams(team_id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    model_type TEXT NOT NULL,
    target_name TEXT NOT NULL,
    algorithm TEXT NOT NULL,
    partition_on TEXT,
    created TEXT NOT NULL,
    created_by TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX models_team ON models(team_id, created);
  CREATE TABLE model_versions (
    version_id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL REFERENCES models(model_id) ON DELETE CASCADE,
    version_number INTEGER NOT NULL,
    created TEXT NOT NULL,
    created_by TEXT NOT NULL,
    source TEXT NOT NULL,
    parent_version_id TEXT,
    dataset_id TEXT,
    parameters TEXT NOT NULL,
    partition_on TEXT,
    trained_preprocessor_version_id TEXT,
    linked_preprocessor_id TEXT,
    linked_preprocessor_version_id TEXT,
    test_metrics TEXT,
    feature_info TEXT,
    model_json TEXT NOT NULL,
    UNIQUE (model_id, version_number)
  );
  CREATE TABLE partitions (
    partition_id TEXT PRIMARY KEY,
    version_id TEXT NOT NULL REFERENCES model_versions(version_id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    partition TEXT NOT NULL,
    n_train INTEGER NOT NULL,
    n_test INTEGER NOT NULL,
    base_value ${d.real} NOT NULL,
    evaluation TEXT
  );
  CREATE INDEX partitions_version ON partitions(version_id, position);
  CREATE TABLE jobs (
    training_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams(team_id),
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    progress ${d.real} NOT NULL,
    current_step TEXT NOT NULL,
    request TEXT NOT NULL,
    model_id TEXT,
    version_id TEXT,
    error TEXT,
    estimated_time ${d.real} NOT NULL,
    created TEXT NOT NULL,
    started TEXT,
    finished TEXT
  );
  CREATE INDEX jobs_status ON jobs(status, created);
  ${d.postgresOnly(POSTGRES_ONLY_TABLES)}`,
  // Jobs are claimed under a lease: the replica running one (owner) renews lease_until (epoch ms) while it works.
  (d) => `
  ALTER TABLE jobs ADD COLUMN owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_until ${d.epochMs};
  ALTER TABLE jobs ADD COLUMN takeovers INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX jobs_lease ON jobs(status, lease_until);
  `,
  // Datasets whose rows stay in a database (their source: connection name and table or query, as JSON), and how each
  // version was fitted with the source of its dataset. Every version fitted so far read its rows into memory.
  () => `
  ALTER TABLE datasets ADD COLUMN source TEXT;
  ALTER TABLE model_versions ADD COLUMN execution TEXT;
  ALTER TABLE model_versions ADD COLUMN dataset_source TEXT;
  UPDATE model_versions SET execution = 'in_memory' WHERE source <> 'upload';
  `,
  // The hand edits a refit applied to its parent's steps, as JSON; null for every other version.
  () => `
  ALTER TABLE model_versions ADD COLUMN edits TEXT;
  `,
  // A version copied from another service records the version it was made from there (as JSON); null otherwise.
  () => `
  ALTER TABLE model_versions ADD COLUMN copied_from TEXT;
  `,
  // A dataset of the local service's own file, read where it lies: its path and modification time (as JSON); null otherwise.
  () => `
  ALTER TABLE datasets ADD COLUMN file TEXT;
  `,
];

export const MIGRATIONS: string[] = SCHEMA.map((migration) => migration(SQLITE));
export const POSTGRES_MIGRATIONS: string[] = SCHEMA.map((migration) => migration(POSTGRES));
