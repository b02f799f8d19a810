import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { invalid, payloadTooLarge } from '../base/errors';
import { partPath } from '../base/scratchFiles';

export const datasetsDir = (dataDir: string) => join(dataDir, 'datasets');
export const datasetPath = (dataDir: string, datasetId: string) => join(datasetsDir(dataDir), `${datasetId}.csv`);

/**
 * Streams `source` to `target`. Past `limitBytes` it stops writing, reads the rest of the source (so the client
 * gets the answer rather than a reset connection), removes the partial file and fails with 413.
 */
export async function saveStream(source: Readable, target: string, limitBytes: number): Promise<number> {
  mkdirSync(dirname(target), { recursive: true });
  const partial = partPath(target);
  const out = createWriteStream(partial);
  let size = 0;
  let over = false;
  try {
    await new Promise<void>((resolve, reject) => {
      source.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (over) return;
        if (size > limitBytes) {
          over = true;
          return;
        }
        if (!out.write(chunk)) {
          source.pause();
          out.once('drain', () => source.resume());
        }
      });
      source.once('end', resolve);
      source.once('error', reject);
      out.once('error', reject);
    });
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (over) throw payloadTooLarge(limitBytes);
    renameSync(partial, target);
    return size;
  } catch (error) {
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}

/** 422 for a CSV the service cannot use: a blank header, a column named twice, or no rows under the header. */
export function checkCsvShape(label: string, header: string[], rows: number): void {
  if (header.every((c) => c.trim() === '')) {
    throw invalid('file', `${label} is empty: a CSV needs a header row.`, 'Upload a CSV whose first line names the columns.');
  }
  const seen = new Set<string>();
  const repeated = [...new Set(header.filter((name) => seen.size === seen.add(name).size))];
  if (repeated.length) {
    throw invalid(
      'file',
      `${label} names ${repeated.length === 1 ? 'a column' : 'columns'} more than once: ${repeated.map((n) => JSON.stringify(n)).join(', ')}.`,
      'Give every column of the header its own name.',
    );
  }
  if (rows === 0) throw invalid('file', `${label} has a header but no data rows.`, 'Upload a CSV with at least one row under the header.');
}

/** The first directory named `relative` found in `start` or one of its parents (works from src/ and from dist/). */
export function findUp(start: string, relative: string): string | null {
  let dir = start;
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
