import type { Preprocessor, PreprocessorStep, PreprocessorVersion } from '../../contract';
import type { Queryable, Row } from './sql';

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

export async function insertPreprocessor(
  db: Queryable,
  teamId: string,
  p: { preprocessor_id: string; name: string; description: string },
): Promise<void> {
  await db.run('INSERT INTO preprocessors (preprocessor_id, team_id, name, description, created) VALUES (?, ?, ?, ?, ?)', [
    p.preprocessor_id,
    teamId,
    p.name,
    p.description,
    new Date().toISOString(),
  ]);
}

export async function insertPreprocessorVersion(
  db: Queryable,
  v: { version_id: string; preprocessor_id: string; steps: PreprocessorStep[]; fitted: unknown; dataset_id: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const next = Number(
      (await tx.get('SELECT COALESCE(MAX(version_number), 0) + 1 AS n FROM preprocessor_versions WHERE preprocessor_id = ?', [v.preprocessor_id]))?.n,
    );
    await tx.run(
      'INSERT INTO preprocessor_versions (version_id, preprocessor_id, version_number, steps, fitted, dataset_id, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [v.version_id, v.preprocessor_id, next, JSON.stringify(v.steps), JSON.stringify(v.fitted), v.dataset_id, new Date().toISOString()],
    );
  });
}

export async function listPreprocessors(db: Queryable, teamId: string): Promise<Preprocessor[]> {
  const rows = await db.all(
    `SELECT p.*, (SELECT COUNT(*) FROM preprocessor_versions v WHERE v.preprocessor_id = p.preprocessor_id) AS versions
     FROM preprocessors p WHERE p.team_id = ? ORDER BY p.created DESC, p.rowid DESC`,
    [teamId],
  );
  return rows.map((r) => ({ preprocessor_id: String(r.preprocessor_id), name: String(r.name), description: String(r.description), versions: Number(r.versions) }));
}

export async function preprocessorExists(db: Queryable, teamId: string, preprocessorId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS ok FROM preprocessors WHERE preprocessor_id = ? AND team_id = ?', [preprocessorId, teamId])) !== null;
}

export async function listPreprocessorVersions(db: Queryable, preprocessorId: string): Promise<PreprocessorVersionRecord[]> {
  return (await db.all('SELECT * FROM preprocessor_versions WHERE preprocessor_id = ? ORDER BY version_number DESC', [preprocessorId])).map(toVersion);
}

export async function findPreprocessorVersion(db: Queryable, teamId: string, versionId: string): Promise<PreprocessorVersionRecord | null> {
  const row = await db.get(
    `SELECT v.* FROM preprocessor_versions v JOIN preprocessors p ON p.preprocessor_id = v.preprocessor_id
     WHERE v.version_id = ? AND p.team_id = ?`,
    [versionId, teamId],
  );
  return row ? toVersion(row) : null;
}
