import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { FileStore } from '../store/sql';
import { framePath } from './frameFile';
import { healthPath } from './healthFile';
import { summaryPath } from './summaryFile';

/**
 * A dataset's files (its CSV and what was derived from it: frame, health scan, summary rules) live in the data dir.
 * With a database that keeps files (`FileStore`, shared by replicas) the data dir is a cache of them: what the
 * service writes is also uploaded, and what is missing locally is downloaded before it is read. Without one the
 * data dir is all there is and these functions only touch local files.
 */
export const datasetFiles = (csvPath: string) => [csvPath, framePath(csvPath), healthPath(csvPath), summaryPath(csvPath)];

const datasetIdOf = (csvPath: string) => basename(csvPath).replace(/\.csv$/, '');
const keyOf = (csvPath: string, path: string) => `${datasetIdOf(csvPath)}/${basename(path)}`;

/** Downloads in progress by local path, so concurrent readers of one missing file share one download. */
const downloads = new Map<string, Promise<void>>();

/** Makes sure the dataset's files that exist anywhere are in the data dir (a file nobody stored stays missing). */
export async function ensureLocal(files: FileStore | null, csvPath: string): Promise<void> {
  if (!files) return;
  const missing = datasetFiles(csvPath).filter((path) => !existsSync(path));
  if (missing.length === 0) return;
  mkdirSync(dirname(csvPath), { recursive: true });
  await Promise.all(
    missing.map((path) => {
      let download = downloads.get(path);
      if (!download) {
        download = files
          .download(keyOf(csvPath, path), path)
          .then(() => undefined)
          .finally(() => downloads.delete(path));
        downloads.set(path, download);
      }
      return download;
    }),
  );
}

/** Uploads the dataset's files at `paths` (default: all of them that exist) that the service has just written. */
export async function publish(files: FileStore | null, csvPath: string, paths = datasetFiles(csvPath)): Promise<void> {
  if (!files) return;
  for (const path of paths) if (existsSync(path)) await files.upload(keyOf(csvPath, path), path);
}

/** Removes the dataset's files from the data dir and from the database's file store. */
export async function removeEverywhere(files: FileStore | null, csvPath: string): Promise<void> {
  for (const path of datasetFiles(csvPath)) rmSync(path, { force: true });
  if (files) await files.remove(`${datasetIdOf(csvPath)}/`);
}
