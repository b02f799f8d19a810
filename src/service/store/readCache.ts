import type { Params, Row } from './sql';

/** Results larger than this are not kept: one of them would push out everything else. */
const MAX_ENTRY_FRACTION = 8;
const VALUE_OVERHEAD_BYTES = 16;

/** Approximate bytes a result holds; Infinity (never kept) when it has binary values, which a caller could change. */
function resultBytes(rows: Row[]): number {
  let bytes = 0;
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array) return Infinity;
      bytes += VALUE_OVERHEAD_BYTES + key.length + (typeof value === 'string' ? 2 * value.length : 8);
    }
  }
  return bytes;
}

/** A statement that only reads: the ones a read cache may answer, or concurrent callers share. */
export const isSelect = (sql: string) => /^\s*SELECT\b/i.test(sql);

/** What identifies a read: its statement and parameters; null when a parameter is binary. */
export function readKey(sql: string, params: Params | undefined): string | null {
  if (params?.some((p) => p instanceof Uint8Array)) return null;
  return params?.length ? `${sql}\u0000${JSON.stringify(params)}` : sql;
}

/**
 * Query results by statement and parameters, for a database that only this process writes: any write clears it,
 * so a result is served from memory exactly as long as the query would still return it (the service's queries read
 * only stored rows: none calls a time or random function). Holds at most `budgetBytes` (approximately); the least
 * recently used results go first. Callers get fresh row objects.
 */
export class ReadCache {
  private readonly entries = new Map<string, { rows: Row[]; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The rows `query` returns for this statement and these parameters, from memory when they are known. */
  all(sql: string, params: Params | undefined, query: () => Row[]): Row[] {
    const key = readKey(sql, params);
    if (key === null) return query();
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.rows.map((row) => ({ ...row }));
    }
    const rows = query();
    const bytes = resultBytes(rows) + 2 * key.length;
    if (bytes <= this.budgetBytes / MAX_ENTRY_FRACTION) {
      while (this.bytes + bytes > this.budgetBytes) this.evictOldest();
      this.entries.set(key, { rows: rows.map((row) => ({ ...row })), bytes });
      this.bytes += bytes;
    }
    return rows;
  }

  private evictOldest(): void {
    const [key, entry] = this.entries.entries().next().value as [string, { bytes: number }];
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
