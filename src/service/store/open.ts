import { openPostgres } from './postgres';
import { claimDataDir, releaseDataDir } from './database';
import type { Database } from './sql';
import { SqliteDatabase } from './sqlite';

export interface ServiceDatabase {
  db: Database;
  /** Closes the database and gives up whatever the service held for it (the SQLite data dir's claim). */
  release(): Promise<void>;
}

/**
 * The service's database: PostgreSQL when a URL is given (shared by any number of replicas; the data dir then only
 * holds scratch copies of dataset files), otherwise the embedded SQLite file in the data dir, held exclusively.
 */
export async function openServiceDatabase(dataDir: string, databaseUrl: string | undefined): Promise<ServiceDatabase> {
  if (databaseUrl !== undefined) {
    const db = await openPostgres(databaseUrl);
    return { db, release: () => db.close() };
  }
  claimDataDir(dataDir);
  try {
    const db = new SqliteDatabase(dataDir, { exclusive: true });
    return {
      db,
      release: async () => {
        await db.close();
        releaseDataDir(dataDir);
      },
    };
  } catch (error) {
    releaseDataDir(dataDir);
    throw error;
  }
}
