import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../../src/service/store/migrations';
import { SqliteDatabase } from '../../../../src/service/store/sqlite';
import { removeDir } from '../harness';

/** A promise with its resolve function, to hold a transaction open until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('service: SQLite database shared by concurrent requests', function () {
  this.timeout(20_000);
  let dir: string;
  let db: SqliteDatabase;
  const count = async () => Number((await db.get('SELECT COUNT(*) AS n FROM notes'))?.n);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-sqlite-'));
    db = new SqliteDatabase(dir, { exclusive: true });
    await db.run('CREATE TABLE notes (text TEXT NOT NULL)');
  });
  afterEach(async () => {
    await db.close();
    removeDir(dir);
  });

  it('applies the migrations once, so a reopened data dir keeps its rows', async () => {
    await db.run("INSERT INTO teams (team_id, name, created) VALUES ('t1', 'research', 'now')");
    await db.close();
    db = new SqliteDatabase(dir, { exclusive: true });
    assert.deepEqual(await db.all('SELECT name FROM teams'), [{ name: 'research' }]);
    assert.equal(Number((await db.get('SELECT COUNT(*) AS n FROM schema_migrations'))?.n), MIGRATIONS.length);
  });

  it('holds a statement from outside an open transaction until it commits, so it never sees or joins half of it', async () => {
    const hold = gate();
    const order: string[] = [];
    const transaction = db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (text) VALUES ('first')");
      await hold.opened;
      await tx.run("INSERT INTO notes (text) VALUES ('second')");
      order.push('committed');
    });
    const outside = count().then((n) => {
      order.push('read');
      return n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(order, [], 'the read waits while the transaction is open');
    hold.open();
    await transaction;
    assert.equal(await outside, 2);
    assert.deepEqual(order, ['committed', 'read']);
  });

  it('runs transactions one at a time: each sees what the one before committed', async () => {
    const increments = Array.from({ length: 10 }, () =>
      db.transaction(async (tx) => {
        const n = Number((await tx.get('SELECT COUNT(*) AS n FROM notes'))?.n);
        await new Promise((resolve) => setImmediate(resolve));
        await tx.run('INSERT INTO notes (text) VALUES (?)', [`note ${n}`]);
      }),
    );
    await Promise.all(increments);
    const texts = (await db.all('SELECT text FROM notes ORDER BY rowid')).map((r) => r.text);
    assert.deepEqual(texts, Array.from({ length: 10 }, (_, i) => `note ${i}`));
  });

  it('rolls back everything a failed transaction wrote, including a joined inner one, and rejects with its error', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO notes (text) VALUES ('outer')");
        await tx.transaction(async (inner) => {
          assert.equal(inner, tx, 'the inner transaction joins the open one');
          await inner.run("INSERT INTO notes (text) VALUES ('inner')");
        });
        throw new Error('no room left');
      }),
      /no room left/,
    );
    assert.equal(await count(), 0);
    await db.run("INSERT INTO notes (text) VALUES ('after')");
    assert.equal(await count(), 1, 'the database is usable after a rollback');
  });

  it('refuses a statement on the database from inside its own transaction instead of waiting for itself', async () => {
    await assert.rejects(
      db.transaction(async () => {
        await db.run("INSERT INTO notes (text) VALUES ('wrong handle')");
      }),
      /instead of the transaction/,
    );
    assert.equal(await count(), 0);
  });

  it('answers every read with what the database holds now, after writes, commits and rollbacks alike', async () => {
    assert.equal(await count(), 0);
    await db.run("INSERT INTO notes (text) VALUES ('one')");
    assert.equal(await count(), 1, 'a write outside a transaction');
    await db.transaction((tx) => tx.run("INSERT INTO notes (text) VALUES ('two')"));
    assert.equal(await count(), 2, 'a committed transaction');
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO notes (text) VALUES ('three')");
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.equal(await count(), 2, 'a rolled-back transaction');
    const rows = await db.all('SELECT text FROM notes ORDER BY rowid');
    rows[0].text = 'edited by the caller';
    rows.pop();
    assert.deepEqual(await db.all('SELECT text FROM notes ORDER BY rowid'), [{ text: 'one' }, { text: 'two' }], 'a caller changing its rows changes no other read');
  });

  it('runs a statement that writes and returns rows (UPDATE … RETURNING) every time, and reads see what it wrote', async () => {
    await db.run("INSERT INTO notes (text) VALUES ('a')");
    assert.deepEqual(await db.all('SELECT text FROM notes'), [{ text: 'a' }]);
    const append = () => db.get("UPDATE notes SET text = text || '+' RETURNING text");
    assert.deepEqual({ ...(await append()) }, { text: 'a+' });
    assert.deepEqual({ ...(await append()) }, { text: 'a++' }, 'the same statement with the same values ran again');
    assert.deepEqual(await db.all('SELECT text FROM notes'), [{ text: 'a++' }], 'the read before the writes was forgotten');
  });

  it('fails a read after it closed, even one it answered before', async () => {
    assert.equal(await count(), 0);
    await db.close();
    await assert.rejects(count(), /closed/);
    db = new SqliteDatabase(dir, { exclusive: true });
  });

  it('runs a statement again after it failed, once its values are valid', async () => {
    const insert = 'INSERT INTO notes (text) VALUES (?)';
    await assert.rejects(db.run(insert, [null]), /NOT NULL/);
    await assert.rejects(db.transaction((tx) => tx.run(insert, [null])), /NOT NULL/);
    assert.equal(await db.run(insert, ['valid']), 1);
    assert.equal(await db.transaction((tx) => tx.run(insert, ['valid too'])), 1);
    assert.equal(await count(), 2);
  });

  it('refuses a statement on a transaction that has ended', async () => {
    const leaked = await db.transaction((tx) => Promise.resolve(tx));
    await assert.rejects(leaked.run("INSERT INTO notes (text) VALUES ('late')"), /already ended/);
  });
});
