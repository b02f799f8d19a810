import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../base/scratchFiles';

/** The SQLite database file in the data dir. */
export const DB_FILE = 'xmodels.db';
const PID_FILE = 'service.pid';

/** The pid of a live service that owns the data dir, or null. */
export function liveServicePid(dataDir: string): number | null {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid) ? pid : null;
}

/**
 * The WASM SQLite build locks the database by creating the directory `<db>.lock`; a killed process leaves it
 * behind and every later write would stay busy. Remove it when no live process owns the data dir.
 */
export function clearStaleLock(dataDir: string): void {
  if (liveServicePid(dataDir) !== null) return;
  rmSync(join(dataDir, `${DB_FILE}.lock`), { recursive: true, force: true });
}

export function claimDataDir(dataDir: string): void {
  const owner = liveServicePid(dataDir);
  if (owner !== null) {
    throw new Error(`Another XModels service (pid ${owner}) is using the data dir ${dataDir}; stop it or pick another --data-dir.`);
  }
  clearStaleLock(dataDir);
  writeFileSync(join(dataDir, PID_FILE), String(process.pid));
}

export function releaseDataDir(dataDir: string): void {
  const file = join(dataDir, PID_FILE);
  if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
}
