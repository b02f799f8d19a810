import type { Algorithm, AppliedEdit, Baseline, CopiedFrom, DatasetSource, Execution, Metrics, ModelInfo, WireModelType, ModelVersion, Partition, VersionSource } from '../../contract';
import type { Queryable, Row } from './sql';

export interface NewModel {
  model_id: string;
  name: string;
  description: string;
  model_type: WireModelType;
  target_name: string;
  algorithm: Algorithm;
  partition_on: string | null;
  created_by: string;
}

export interface NewPartition extends Partition {
  /** Evaluation JSON (train and test metrics) or null for an upload without one. */
  evaluation: unknown;
}

export interface NewVersion {
  version_id: string;
  model_id: string;
  created_by: string;
  source: VersionSource;
  parent_version_id: string | null;
  dataset_id: string | null;
  parameters: Record<string, unknown>;
  partition_on: string | null;
  trained_preprocessor_version_id: string | null;
  test_metrics: Metrics | null;
  feature_info: unknown;
  /** The fitted model as partition payloads (transparent-models.md §7). */
  model_json: string;
  partitions: NewPartition[];
  /** How it was fitted; null for a model uploaded as payloads. */
  execution: Execution | null;
  /** The source of the dataset it was fitted on, when its rows stay in a database. */
  dataset_source: DatasetSource | null;
  /** The hand edits it applied to its parent, in order (none by default). */
  edits?: AppliedEdit[];
  /** When it was made (default now). */
  created?: string;
  /** The version on another service it is a copy of (none by default). */
  copied_from?: CopiedFrom;
}

/** A stored version with what the service needs beyond the wire shape. */
export interface VersionRecord extends ModelVersion {
  team_id: string;
  model_type: WireModelType;
  target_name: string;
  partition_on: string | null;
  trained_preprocessor_version_id: string | null;
  feature_info: unknown;
  model_json: string;
}

const text = (v: Row[string]) => (v === null || v === undefined ? null : String(v));
const json = <T>(v: Row[string]): T | null => (v === null || v === undefined ? null : (JSON.parse(String(v)) as T));

const MULTICLASS: WireModelType = 'multiclass_classification';

/** The latest version's parameters are read only for the models that need them: multiclass ones, for their classes. */
const MODEL_SELECT = `
  SELECT m.*,
    (SELECT COUNT(*) FROM model_versions v WHERE v.model_id = m.model_id) AS number_of_versions,
    (SELECT v.version_id FROM model_versions v WHERE v.model_id = m.model_id ORDER BY v.version_number DESC LIMIT 1) AS latest_version_id,
    CASE WHEN m.model_type = '${MULTICLASS}' THEN
      (SELECT v.parameters FROM model_versions v WHERE v.model_id = m.model_id ORDER BY v.version_number DESC LIMIT 1)
    END AS latest_parameters
  FROM models m`;

/** A multiclass model's classes, as its latest version's parameters record them. */
function latestClasses(row: Row): { classes?: string[] } {
  if (row.model_type !== MULTICLASS) return {};
  const classes = json<{ classes?: unknown }>(row.latest_parameters)?.classes;
  return Array.isArray(classes) ? { classes: classes.map(String) } : {};
}

function toModelInfo(row: Row): ModelInfo {
  return {
    model_id: String(row.model_id),
    model_name: String(row.name),
    model_description: String(row.description),
    model_type: String(row.model_type) as WireModelType,
    target_name: String(row.target_name),
    algorithm: String(row.algorithm) as Algorithm,
    partition_on: text(row.partition_on),
    ...latestClasses(row),
    team_id: String(row.team_id),
    created: String(row.created),
    created_by: String(row.created_by),
    number_of_versions: Number(row.number_of_versions),
    latest_version_id: text(row.latest_version_id),
    archived: Number(row.archived) !== 0,
  };
}

const VERSION_SELECT = `
  SELECT v.*, m.team_id, m.model_type, m.target_name,
    (SELECT COUNT(*) FROM partitions p WHERE p.version_id = v.version_id) AS partition_count,
    (SELECT pv.preprocessor_id FROM preprocessor_versions pv WHERE pv.version_id = v.trained_preprocessor_version_id) AS trained_preprocessor_id
  FROM model_versions v JOIN models m ON m.model_id = v.model_id`;

function toVersion(row: Row): VersionRecord {
  const linkedId = text(row.linked_preprocessor_id);
  const linkedVersion = text(row.linked_preprocessor_version_id);
  const trainedId = text(row.trained_preprocessor_id);
  const trainedVersion = text(row.trained_preprocessor_version_id);
  return {
    version_id: String(row.version_id),
    model_id: String(row.model_id),
    version_number: Number(row.version_number),
    created: String(row.created),
    created_by: String(row.created_by),
    source: String(row.source) as VersionSource,
    parent_version_id: text(row.parent_version_id),
    dataset_id: text(row.dataset_id),
    parameters: json<Record<string, unknown>>(row.parameters) ?? {},
    partitions: Number(row.partition_count),
    linked_preprocessor: linkedId && linkedVersion ? { preprocessor_id: linkedId, version_id: linkedVersion } : null,
    test_metrics: json<Metrics>(row.test_metrics),
    execution: text(row.execution) as Execution | null,
    dataset_source: json<DatasetSource>(row.dataset_source),
    edits: json<AppliedEdit[]>(row.edits) ?? [],
    trained_preprocessor: trainedId && trainedVersion ? { preprocessor_id: trainedId, version_id: trainedVersion } : null,
    copied_from: json<CopiedFrom>(row.copied_from),
    team_id: String(row.team_id),
    model_type: String(row.model_type) as WireModelType,
    target_name: String(row.target_name),
    partition_on: text(row.partition_on),
    trained_preprocessor_version_id: text(row.trained_preprocessor_version_id),
    feature_info: json(row.feature_info),
    model_json: String(row.model_json),
  };
}

/** The wire shape of a stored version. */
export function publicVersion(v: VersionRecord): ModelVersion {
  return {
    version_id: v.version_id,
    model_id: v.model_id,
    version_number: v.version_number,
    created: v.created,
    created_by: v.created_by,
    source: v.source,
    parent_version_id: v.parent_version_id,
    dataset_id: v.dataset_id,
    parameters: v.parameters,
    partitions: v.partitions,
    linked_preprocessor: v.linked_preprocessor,
    test_metrics: v.test_metrics,
    execution: v.execution,
    dataset_source: v.dataset_source,
    edits: v.edits,
    trained_preprocessor: v.trained_preprocessor,
    copied_from: v.copied_from,
  };
}

export async function insertModel(db: Queryable, teamId: string, model: NewModel): Promise<void> {
  await db.run(
    `INSERT INTO models (model_id, team_id, name, description, model_type, target_name, algorithm, partition_on, created, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [model.model_id, teamId, model.name, model.description, model.model_type, model.target_name, model.algorithm,
      model.partition_on, new Date().toISOString(), model.created_by],
  );
}

/** Adds a version (numbered after the model's latest) with its partitions, in one transaction (joining an open one). */
export function insertVersion(db: Queryable, version: NewVersion): Promise<number> {
  return db.transaction(async (tx) => {
    const next = Number((await tx.get('SELECT COALESCE(MAX(version_number), 0) + 1 AS n FROM model_versions WHERE model_id = ?', [version.model_id]))?.n);
    await tx.run(
      `INSERT INTO model_versions (version_id, model_id, version_number, created, created_by, source, parent_version_id, dataset_id,
         parameters, partition_on, trained_preprocessor_version_id, test_metrics, feature_info, model_json, execution, dataset_source, edits, copied_from)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [version.version_id, version.model_id, next, version.created ?? new Date().toISOString(), version.created_by, version.source,
        version.parent_version_id, version.dataset_id, JSON.stringify(version.parameters), version.partition_on,
        version.trained_preprocessor_version_id, version.test_metrics === null ? null : JSON.stringify(version.test_metrics),
        version.feature_info === null ? null : JSON.stringify(version.feature_info), version.model_json, version.execution,
        version.dataset_source === null ? null : JSON.stringify(version.dataset_source),
        version.edits?.length ? JSON.stringify(version.edits) : null,
        version.copied_from ? JSON.stringify(version.copied_from) : null],
    );
    for (const [position, p] of version.partitions.entries()) {
      await tx.run(
        `INSERT INTO partitions (partition_id, version_id, position, partition, n_train, n_test, base_value, evaluation)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [p.partition_id, version.version_id, position, p.partition, p.n_train, p.n_test, p.base_value,
          p.evaluation === null || p.evaluation === undefined ? null : JSON.stringify(p.evaluation)],
      );
    }
    return next;
  });
}

export async function listModels(db: Queryable, teamId: string): Promise<ModelInfo[]> {
  return (await db.all(`${MODEL_SELECT} WHERE m.team_id = ? ORDER BY m.created DESC, m.rowid DESC`, [teamId])).map(toModelInfo);
}

export async function findModel(db: Queryable, teamId: string, modelId: string): Promise<ModelInfo | null> {
  const row = await db.get(`${MODEL_SELECT} WHERE m.model_id = ? AND m.team_id = ?`, [modelId, teamId]);
  return row ? toModelInfo(row) : null;
}

export async function listVersions(db: Queryable, modelId: string): Promise<VersionRecord[]> {
  return (await db.all(`${VERSION_SELECT} WHERE v.model_id = ? ORDER BY v.version_number DESC`, [modelId])).map(toVersion);
}

export async function findVersion(db: Queryable, teamId: string, versionId: string): Promise<VersionRecord | null> {
  const row = await db.get(`${VERSION_SELECT} WHERE v.version_id = ? AND m.team_id = ?`, [versionId, teamId]);
  return row ? toVersion(row) : null;
}

export async function latestVersion(db: Queryable, teamId: string, modelId: string): Promise<VersionRecord | null> {
  const row = await db.get(`${VERSION_SELECT} WHERE v.model_id = ? AND m.team_id = ? ORDER BY v.version_number DESC LIMIT 1`, [modelId, teamId]);
  return row ? toVersion(row) : null;
}

export async function listPartitions(db: Queryable, versionId: string): Promise<Partition[]> {
  const rows = await db.all('SELECT partition_id, partition, n_train, n_test, base_value FROM partitions WHERE version_id = ? ORDER BY position', [versionId]);
  return rows.map((r) => ({
      partition_id: String(r.partition_id),
      partition: String(r.partition),
      n_train: Number(r.n_train),
      n_test: Number(r.n_test),
      base_value: Number(r.base_value),
    }));
}

/** Each partition's test yardsticks as the version's evaluation recorded them, by partition key. */
export async function partitionBaselines(db: Queryable, versionId: string): Promise<Record<string, Baseline | null>> {
  const rows = await db.all('SELECT partition, evaluation FROM partitions WHERE version_id = ?', [versionId]);
  return Object.fromEntries(rows.map((r) => [String(r.partition), json<{ baseline?: Baseline | null }>(r.evaluation)?.baseline ?? null]));
}

export interface PartitionRecord extends Partition {
  version_id: string;
  model_type: WireModelType;
  evaluation: unknown;
}

export async function findPartition(db: Queryable, teamId: string, partitionId: string): Promise<PartitionRecord | null> {
  const row = await db.get(
    `SELECT p.*, m.model_type FROM partitions p
       JOIN model_versions v ON v.version_id = p.version_id JOIN models m ON m.model_id = v.model_id
     WHERE p.partition_id = ? AND m.team_id = ?`,
    [partitionId, teamId],
  );
  if (!row) return null;
  return {
    partition_id: String(row.partition_id),
    version_id: String(row.version_id),
    partition: String(row.partition),
    n_train: Number(row.n_train),
    n_test: Number(row.n_test),
    base_value: Number(row.base_value),
    model_type: String(row.model_type) as WireModelType,
    evaluation: json(row.evaluation),
  };
}

export async function deleteModel(db: Queryable, teamId: string, modelId: string): Promise<boolean> {
  return (await db.run('DELETE FROM models WHERE model_id = ? AND team_id = ?', [modelId, teamId])) > 0;
}

export async function linkPreprocessor(db: Queryable, versionId: string, preprocessorId: string, preprocessorVersionId: string): Promise<void> {
  await db.run('UPDATE model_versions SET linked_preprocessor_id = ?, linked_preprocessor_version_id = ? WHERE version_id = ?', [
    preprocessorId,
    preprocessorVersionId,
    versionId,
  ]);
}
