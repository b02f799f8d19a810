import type { Dataset } from '../../contract';
import type { Row, Store } from './database';

function toDataset(row: Row): Dataset {
  return {
    dataset_id: String(row.dataset_id),
    name: String(row.name),
    rows: Number(row.rows),
    columns: JSON.parse(String(row.columns)) as string[],
    size_bytes: Number(row.size_bytes),
    created: String(row.created),
  };
}

export function insertDataset(store: Store, teamId: string, dataset: Dataset): void {
  store.run(
    'INSERT INTO datasets (dataset_id, team_id, name, rows, columns, size_bytes, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [dataset.dataset_id, teamId, dataset.name, dataset.rows, JSON.stringify(dataset.columns), dataset.size_bytes, dataset.created],
  );
}

export function listDatasets(store: Store, teamId: string): Dataset[] {
  return store.all('SELECT * FROM datasets WHERE team_id = ? ORDER BY created DESC, rowid DESC', [teamId]).map(toDataset);
}

/** The team's dataset, or null when it does not exist or belongs to another team. */
export function findDataset(store: Store, teamId: string, datasetId: string): Dataset | null {
  const row = store.get('SELECT * FROM datasets WHERE dataset_id = ? AND team_id = ?', [datasetId, teamId]);
  return row ? toDataset(row) : null;
}

/** Removes the team's dataset row; versions trained on it keep their model but can no longer be refit on it. */
export function deleteDataset(store: Store, teamId: string, datasetId: string): boolean {
  const found = findDataset(store, teamId, datasetId) !== null;
  if (found) store.run('DELETE FROM datasets WHERE dataset_id = ? AND team_id = ?', [datasetId, teamId]);
  return found;
}
