import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isMissingFile } from '../base/json';
import { scratchName, writerGone } from '../base/scratchFiles';
import { datasetExists } from '../store/datasets';
import type { Database } from '../store/sql';
import { removeEverywhere } from './fileCache';
import { datasetsDir } from './files';

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
}

/**
 * Removes what a service killed mid-way (kill -9, a crash, a power cut) left in its data dir, and answers how many
 * entries went: scratch files and folders whose writer is gone (a partial upload, frame, summary or download, a
 * pushdown fit's samples, DuckDB's spill folder), and the files of an upload whose dataset was never registered
 * (its pending marker's writer is gone and no team has the dataset; on PostgreSQL its chunks in the database go too).
 * What a running process writes is kept, so the data dir may be shared. Called at start-up, before the service
 * writes anything.
 */
export async function removeLeftovers(dataDir: string, store: Database): Promise<number> {
  let removed = 0;
  for (const dir of [dataDir, datasetsDir(dataDir)]) {
    for (const name of entries(dir)) {
      const scratch = scratchName(name);
      if (!scratch || !writerGone(scratch.writer)) continue;
      if (scratch.kind === 'pending' && !(await datasetExists(store, scratch.target.replace(/\.csv$/, '')))) {
        await removeEverywhere(store.files, join(dir, scratch.target));
      }
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
