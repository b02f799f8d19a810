import type { Preprocessor, PreprocessorStep, PreprocessorVersion } from '../../contract';
import type { Row, Store } from './database';

export interface PreprocessorVersionRecord extends PreprocessorVersion {
  preprocessor_id: string;
  /** The engine's fitted state (means, kept categories, bin edges), computed from the version's dataset. */
  fitted: unknown;
}

function toVersion(row: Row): PreprocessorVersionRecord {
  return {
    version_id: String(row.version_id),
    preprocessor_id: String(row.preprocessor_id),
    version_number: Number(row.version_number),
    steps: JSON.parse(String(row.steps)) as PreprocessorStep[],
    dataset_id: row.dataset_id === null ? null : String(row.dataset_id),
    created: String(row.created),
    fitted: JSON.parse(String(row.fitted)),
  };
}

export function publicPreprocessorVersion(v: PreprocessorVersionRecord): PreprocessorVersion {
  return { version_id: v.version_id, version_number: v.version_number, steps: v.steps, dataset_id: v.dataset_id, created: v.created };
}

export function insertPreprocessor(store: Store, teamId: string, p: { preprocessor_id: string; name: string; description: string }): void {
  store.run('INSERT INTO preprocessors (preprocessor_id, team_id, name, description, created) VALUES (?, ?, ?, ?, ?)', [
    p.preprocessor_id,
    teamId,
    p.name,
    p.description,
    new Date().toISOString(),
  ]);
}

export function insertPreprocessorVersion(
  store: Store,
  v: { version_id: string; preprocessor_id: string; steps: PreprocessorStep[]; fitted: unknown; dataset_id: string | null },
): void {
  store.transaction(() => {
    const next = Number(
      store.get('SELECT COALESCE(MAX(version_number), 0) + 1 AS n FROM preprocessor_versions WHERE preprocessor_id = ?', [v.preprocessor_id])?.n,
    );
    store.run(
      'INSERT INTO preprocessor_versions (version_id, preprocessor_id, version_number, steps, fitted, dataset_id, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [v.version_id, v.preprocessor_id, next, JSON.stringify(v.steps), JSON.stringify(v.fitted), v.dataset_id, new Date().toISOString()],
    );
  });
}

export function listPreprocessors(store: Store, teamId: string): Preprocessor[] {
  return store
    .all(
      `SELECT p.*, (SELECT COUNT(*) FROM preprocessor_versions v WHERE v.preprocessor_id = p.preprocessor_id) AS versions
       FROM preprocessors p WHERE p.team_id = ? ORDER BY p.created DESC, p.rowid DESC`,
      [teamId],
    )
    .map((r) => ({ preprocessor_id: String(r.preprocessor_id), name: String(r.name), description: String(r.description), versions: Number(r.versions) }));
}

export function preprocessorExists(store: Store, teamId: string, preprocessorId: string): boolean {
  return store.get('SELECT 1 AS ok FROM preprocessors WHERE preprocessor_id = ? AND team_id = ?', [preprocessorId, teamId]) !== null;
}

export function listPreprocessorVersions(store: Store, preprocessorId: string): PreprocessorVersionRecord[] {
  return store.all('SELECT * FROM preprocessor_versions WHERE preprocessor_id = ? ORDER BY version_number DESC', [preprocessorId]).map(toVersion);
}

export function findPreprocessorVersion(store: Store, teamId: string, versionId: string): PreprocessorVersionRecord | null {
  const row = store.get(
    `SELECT v.* FROM preprocessor_versions v JOIN preprocessors p ON p.preprocessor_id = v.preprocessor_id
     WHERE v.version_id = ? AND p.team_id = ?`,
    [versionId, teamId],
  );
  return row ? toVersion(row) : null;
}
