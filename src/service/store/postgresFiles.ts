import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { partPath } from '../base/scratchFiles';
import type { FileStore, Queryable } from './sql';

/** Rows of `dataset_files` hold a file this many bytes at a time, so no file is ever whole in memory. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** The LIKE pattern matching every string that starts with `prefix` (ESCAPE '\'). */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function writeChunks(db: Queryable, key: string, path: string): Promise<boolean> {
  const seqs = await db.all('SELECT seq FROM dataset_files WHERE key = ? ORDER BY seq', [key]);
  if (seqs.length === 0) return false;
  const out = createWriteStream(path);
  const closed = once(out, 'close');
  try {
    for (const { seq } of seqs) {
      const row = await db.get('SELECT bytes FROM dataset_files WHERE key = ? AND seq = ?', [key, Number(seq)]);
      if (!row) throw new Error(`The stored file ${key} lost its chunk ${Number(seq)} while it was read.`);
      if (!out.write(row.bytes as Uint8Array)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await closed;
  }
  return true;
}

/** Dataset bytes in the `dataset_files` table, one row per chunk, numbered from 0. */
export function postgresFileStore(db: Queryable): FileStore {
  return {
    upload: (key, path) =>
      db.transaction(async (tx) => {
        await tx.run('DELETE FROM dataset_files WHERE key = ?', [key]);
        let seq = 0;
        for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
          await tx.run('INSERT INTO dataset_files (key, seq, bytes) VALUES (?, ?, ?)', [key, seq++, chunk as Buffer]);
        }
        // An empty file is one empty chunk, so that it downloads as an empty file rather than as a missing one.
        if (seq === 0) await tx.run('INSERT INTO dataset_files (key, seq, bytes) VALUES (?, 0, ?)', [key, new Uint8Array(0)]);
      }),

    // One transaction reads every chunk from one snapshot, so a concurrent upload never mixes two versions.
    download: async (key, path) => {
      const part = partPath(path);
      try {
        const found = await db.transaction((tx) => writeChunks(tx, key, part));
        if (found) await rename(part, path);
        return found;
      } finally {
        await rm(part, { force: true });
      }
    },

    remove: async (prefix) => {
      await db.run("DELETE FROM dataset_files WHERE key LIKE ? ESCAPE '\\'", [likePrefix(prefix)]);
    },
  };
}
