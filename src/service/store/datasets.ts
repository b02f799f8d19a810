import type { Dataset, DatasetFile, DatasetSource } from '../../contract';
import type { Queryable, Row } from './sql';

function toDataset(row: Row): Dataset {
  return {
    dataset_id: String(row.dataset_id),
    name: String(row.name),
    rows: Number(row.rows),
    columns: JSON.parse(String(row.columns)) as string[],
    size_bytes: Number(row.size_bytes),
    created: String(row.created),
    source: row.source == null ? null : (JSON.parse(String(row.source)) as DatasetSource),
    file: row.file == null ? null : (JSON.parse(String(row.file)) as DatasetFile),
  };
}

export async function insertDataset(db: Queryable, teamId: string, dataset: Dataset): Promise<void> {
  await db.run(
    'INSERT INTO datasets (dataset_id, team_id, name, rows, columns, size_bytes, created, source, file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [dataset.dataset_id, teamId, dataset.name, dataset.rows, JSON.stringify(dataset.columns), dataset.size_bytes, dataset.created,
      dataset.source ? JSON.stringify(dataset.source) : null, dataset.file ? JSON.stringify(dataset.file) : null],
  );
}

/** Records what a dataset's file holds after it was read again: its rows, columns, size and modification time. */
export async function updateDatasetFile(db: Queryable, dataset: Dataset & { file: DatasetFile }): Promise<void> {
  await db.run('UPDATE datasets SET rows = ?, columns = ?, size_bytes = ?, file = ? WHERE dataset_id = ?', [
    dataset.rows, JSON.stringify(dataset.columns), dataset.size_bytes, JSON.stringify(dataset.file), dataset.dataset_id,
  ]);
}

export async function listDatasets(db: Queryable, teamId: string): Promise<Dataset[]> {
  return (await db.all('SELECT * FROM datasets WHERE team_id = ? ORDER BY created DESC, rowid DESC', [teamId])).map(toDataset);
}

/** The team's dataset, or null when it does not exist or belongs to another team. */
export async function findDataset(db: Queryable, teamId: string, datasetId: string): Promise<Dataset | null> {
  const row = await db.get('SELECT * FROM datasets WHERE dataset_id = ? AND team_id = ?', [datasetId, teamId]);
  return row ? toDataset(row) : null;
}

/** Removes the team's dataset row; versions trained on it keep their model but can no longer be refit on it. */
export async function deleteDataset(db: Queryable, teamId: string, datasetId: string): Promise<boolean> {
  return (await db.run('DELETE FROM datasets WHERE dataset_id = ? AND team_id = ?', [datasetId, teamId])) > 0;
}

/** Whether any team has a dataset with this id. */
export async function datasetExists(db: Queryable, datasetId: string): Promise<boolean> {
  return (await db.get('SELECT 1 AS found FROM datasets WHERE dataset_id = ?', [datasetId])) !== null;
}
