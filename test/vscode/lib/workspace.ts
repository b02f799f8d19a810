// The sample workspace the product and the tests open: a folder with a few CSVs and a Parquet file from media/datasets.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { datasetsDir } from './paths';

export const sampleDatasets = ['penguins.csv', 'penguins.parquet', 'cars.csv', 'seattle-weather.csv'];

/**
 * Fills `dir` (a new temp dir when omitted) with the given CSVs from media/datasets, leaving files that are
 * already there alone. Returns the folder.
 */
export function createSampleWorkspace(dir?: string, datasets: string[] = sampleDatasets): string {
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'xmodels-workspace-'));
  mkdirSync(folder, { recursive: true });
  for (const name of datasets) {
    const target = join(folder, name);
    if (!existsSync(target)) copyFileSync(join(datasetsDir, name), target);
  }
  return folder;
}

/** Merges `settings` into the workspace's .vscode/settings.json; an open workbench applies them at once. */
export function updateWorkspaceSettings(folder: string, settings: Record<string, unknown>): void {
  const file = join(folder, '.vscode', 'settings.json');
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2) + '\n');
}
