import assert from 'node:assert/strict';
import { Database as SqliteDatabase } from 'node-sqlite3-wasm';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from '../../../../src/service/store/migrations';
import { openPostgres } from '../../../../src/service/store/postgres';
import { testCluster } from '../postgresCluster';

/** Columns per table after the SQLite migrations, from an in-memory database. */
function sqliteColumns(): Map<string, string[]> {
  const db = new SqliteDatabase(':memory:');
  try {
    for (const sql of MIGRATIONS) db.exec(sql);
    const tables = db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => String(row.name));
    return new Map(tables.map((table) => [table, db.all(`PRAGMA table_info(${table})`).map((row) => String(row.name))]));
  } finally {
    db.close();
  }
}

const INSERTION_ORDERED = ['datasets', 'jobs', 'models', 'preprocessors'];

describe('store: PostgreSQL migrations', function () {
  this.timeout(60_000);

  it('creates on an empty database the schema SQLite has, plus rowid columns and the dataset file table', async () => {
    assert.equal(POSTGRES_MIGRATIONS.length, MIGRATIONS.length, 'both backends are at the same schema version');
    const db = await openPostgres(await (await testCluster()).createDatabase());
    try {
      const rows = await db.all(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
      );
      const postgres = new Map<string, string[]>();
      for (const row of rows) postgres.set(String(row.table_name), [...(postgres.get(String(row.table_name)) ?? []), String(row.column_name)]);
      const expected = sqliteColumns();
      expected.set('schema_migrations', ['version', 'applied']);
      for (const table of INSERTION_ORDERED) expected.set(table, [...expected.get(table)!, 'rowid']);
      expected.set('dataset_files', ['key', 'seq', 'bytes']);
      // Column order is not compared: a column a later migration adds comes after rowid on PostgreSQL.
      const byName = (tables: Map<string, string[]>) => new Map([...tables].sort().map(([table, columns]) => [table, [...columns].sort()]));
      assert.deepEqual(byName(postgres), byName(expected));
      const versions = await db.all('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(versions.map((row) => row.version), POSTGRES_MIGRATIONS.map((_, index) => index + 1));
    } finally {
      await db.close();
    }
  });

  it('numbers rowid in insertion order', async () => {
    const db = await openPostgres(await (await testCluster()).createDatabase());
    try {
      await db.run("INSERT INTO teams (team_id, name, created) VALUES ('t', 'team', 'now')");
      for (const id of ['b', 'a', 'c']) {
        await db.run("INSERT INTO preprocessors (preprocessor_id, team_id, name, description, created) VALUES (?, 't', ?, '', 'same')", [id, id]);
      }
      const rows = await db.all('SELECT preprocessor_id FROM preprocessors ORDER BY created, rowid');
      assert.deepEqual(rows.map((row) => row.preprocessor_id), ['b', 'a', 'c']);
    } finally {
      await db.close();
    }
  });

  it('applies only the versions a database does not have yet, keeping its data', async () => {
    const url = await (await testCluster()).createDatabase();
    const v1 = 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)';
    const v2 = "ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT 'none'";
    const old = await openPostgres(url, {}, [v1]);
    await old.run('INSERT INTO notes (id, body) VALUES (?, ?)', [1, 'kept']);
    await old.close();

    const db = await openPostgres(url, {}, [v1, v2]);
    try {
      assert.deepEqual({ ...(await db.get('SELECT id, body, tag FROM notes')) }, { id: 1, body: 'kept', tag: 'none' });
      assert.deepEqual((await db.all('SELECT version FROM schema_migrations ORDER BY version')).map((row) => row.version), [1, 2]);
    } finally {
      await db.close();
    }
  });

  it('leaves the schema as it was when a migration fails', async () => {
    const url = await (await testCluster()).createDatabase();
    await (await openPostgres(url, {}, ['CREATE TABLE notes (id INTEGER PRIMARY KEY)'])).close();
    await assert.rejects(
      openPostgres(url, {}, ['CREATE TABLE notes (id INTEGER PRIMARY KEY)', 'CREATE TABLE more (id INTEGER)', 'ALTER TABLE missing ADD COLUMN x INTEGER']),
      /missing/,
    );
    const db = await openPostgres(url, {}, ['CREATE TABLE notes (id INTEGER PRIMARY KEY)']);
    try {
      assert.deepEqual((await db.all('SELECT version FROM schema_migrations')).map((row) => row.version), [1]);
      assert.equal((await db.get("SELECT to_regclass('more') AS t"))?.t, null);
    } finally {
      await db.close();
    }
  });

  it('applies each migration exactly once when four replicas open an empty database together', async () => {
    const url = await (await testCluster()).createDatabase();
    // The last step counts how many times it ran.
    const migrations = [...POSTGRES_MIGRATIONS, 'CREATE TABLE runs (n INTEGER); INSERT INTO runs VALUES (1)'];
    const replicas = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url, {}, migrations)));
    try {
      const [db] = replicas;
      assert.equal((await db.get('SELECT COUNT(*) AS c FROM runs'))?.c, 1);
      const versions = await db.all('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(versions.map((row) => row.version), migrations.map((_, index) => index + 1));
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
    }
  });
});
