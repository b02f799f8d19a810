import assert from 'node:assert/strict';
import { numberPlaceholders, openPostgres, type PostgresDatabase } from '../../../../src/service/store/postgres';
import type { Queryable } from '../../../../src/service/store/sql';
import { testCluster } from '../postgresCluster';

describe('store: PostgreSQL placeholders', () => {
  it('numbers ? in order', () => {
    assert.equal(numberPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?)'), 'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)');
  });

  it('leaves ? in string literals, quoted identifiers and comments alone', () => {
    assert.equal(
      numberPlaceholders(`SELECT 'what?', 'it''s ?', "odd?col" FROM t -- why?\nWHERE a = ? /* and? */ AND b = ?`),
      `SELECT 'what?', 'it''s ?', "odd?col" FROM t -- why?\nWHERE a = $1 /* and? */ AND b = $2`,
    );
  });

  it('returns the same text for a statement it has seen', () => {
    const sql = 'UPDATE t SET a = ? WHERE b = ?';
    assert.equal(numberPlaceholders(sql), numberPlaceholders(sql));
    assert.equal(numberPlaceholders(sql), 'UPDATE t SET a = $1 WHERE b = $2');
  });
});

describe('store: PostgreSQL queries and transactions', function () {
  this.timeout(60_000);
  let db: PostgresDatabase;

  before(async () => {
    db = await openPostgres(await (await testCluster()).createDatabase());
    await db.run('CREATE TABLE items (id BIGINT GENERATED ALWAYS AS IDENTITY, n INTEGER NOT NULL UNIQUE, label TEXT, score DOUBLE PRECISION, blob BYTEA)');
  });

  after(() => db?.close());

  beforeEach(() => db.run('DELETE FROM items'));

  it('runs statements with ? parameters and returns plain rows', async () => {
    assert.equal(db.dialect, 'postgres');
    assert.equal(await db.run('INSERT INTO items (n, label, score) VALUES (?, ?, ?), (?, ?, ?)', [1, 'one?', 0.5, 2, "two's", null]), 2);
    const rows = await db.all('SELECT n, label, score FROM items WHERE label <> ? ORDER BY n', ['x?']);
    assert.deepEqual(rows.map((row) => ({ ...row })), [
      { n: 1, label: 'one?', score: 0.5 },
      { n: 2, label: "two's", score: null },
    ]);
    assert.deepEqual({ ...(await db.get("SELECT label FROM items WHERE n = ? AND label LIKE '%?'", [1])) }, { label: 'one?' });
    assert.equal(await db.get('SELECT label FROM items WHERE n = ?', [99]), null);
    assert.equal(await db.run('UPDATE items SET score = ? WHERE n > ?', [1.25, 0]), 2);
    assert.equal(await db.run('DELETE FROM items WHERE n = ?', [99]), 0);
  });

  it('returns counts and BIGINT ids as numbers, booleans as 1/0 and bytes as bytes', async () => {
    await db.run('INSERT INTO items (n, blob) VALUES (?, ?), (?, ?)', [10, new Uint8Array([0, 1, 255]), 11, null]);
    const counted = await db.get('SELECT COUNT(*) AS total, SUM(n) AS sum, MAX(id) AS last, MAX(id) > 0 AS positive FROM items');
    assert.deepEqual({ ...counted }, { total: 2, sum: 21, last: counted?.last, positive: 1 });
    assert.equal(typeof counted?.last, 'number');
    const flagged = await db.get('SELECT n FROM items WHERE (n = 10) = (? = 1)', [true]);
    assert.equal(flagged?.n, 10);
    const blob = (await db.get('SELECT blob FROM items WHERE n = ?', [10]))?.blob;
    assert.ok(blob instanceof Uint8Array);
    assert.deepEqual([...blob], [0, 1, 255]);
  });

  it('commits everything a transaction wrote and returns its result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.run('INSERT INTO items (n) VALUES (?)', [1]);
      await tx.run('INSERT INTO items (n) VALUES (?)', [2]);
      return (await tx.get('SELECT COUNT(*) AS c FROM items'))?.c;
    });
    assert.equal(result, 2);
    assert.equal((await db.get('SELECT COUNT(*) AS c FROM items'))?.c, 2);
  });

  it('rolls back everything when the function throws', async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (n) VALUES (?)', [1]);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.equal((await db.get('SELECT COUNT(*) AS c FROM items'))?.c, 0);
  });

  it('joins the open transaction when one is started inside it', async () => {
    let inner: Queryable | undefined;
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.transaction(async (nested) => {
          inner = nested;
          await nested.run('INSERT INTO items (n) VALUES (?)', [1]);
        });
        assert.equal((await tx.get('SELECT COUNT(*) AS c FROM items'))?.c, 1);
        throw new Error('outer fails');
      }),
      /outer fails/,
    );
    assert.ok(inner);
    assert.equal((await db.get('SELECT COUNT(*) AS c FROM items'))?.c, 0, 'the nested write rolled back with the outer transaction');
    await assert.rejects(inner.get('SELECT 1 AS one'), /already ended/);
  });

  it('runs a failing statement once: only serialization failures and deadlocks are retried', async () => {
    let calls = 0;
    await db.run('INSERT INTO items (n) VALUES (?)', [1]);
    await assert.rejects(
      db.transaction(async (tx) => {
        calls++;
        await tx.run('INSERT INTO items (n) VALUES (?)', [1]);
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.equal(calls, 1);
  });

  it('retries the transaction that lost a conflict, so both concurrent MAX(n)+1 inserts succeed', async () => {
    let reads = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    const insertNext = () =>
      db.transaction(async (tx) => {
        const next = Number((await tx.get('SELECT COALESCE(MAX(n), 0) + 1 AS next FROM items'))?.next);
        // The first attempts wait for each other, so both read the same maximum and one of them must lose.
        if (++reads === 2) bothRead();
        await barrier;
        await tx.run('INSERT INTO items (n) VALUES (?)', [next]);
        return next;
      });
    const results = await Promise.all([insertNext(), insertNext()]);
    assert.deepEqual([...results].sort(), [1, 2]);
    assert.ok(reads >= 3, `the losing transaction ran again (${reads} reads)`);
    const rows = await db.all('SELECT n FROM items ORDER BY n');
    assert.deepEqual(rows.map((row) => row.n), [1, 2]);
  });

  it('still runs a statement it prepared before a migration changed its result columns', async () => {
    await db.run('INSERT INTO items (n, label) VALUES (?, ?)', [1, 'one']);
    // Parameters that differ, so the reads are not shared and reach several pooled connections.
    const select = 'SELECT * FROM items WHERE n = ? AND ? >= 0';
    const before = await Promise.all(Array.from({ length: 12 }, (_, i) => db.get(select, [1, i])));
    assert.ok(before.every((row) => row?.label === 'one'));
    await db.run('ALTER TABLE items ADD COLUMN added TEXT');
    try {
      const after = await Promise.all(Array.from({ length: 12 }, (_, i) => db.get(select, [1, i])));
      assert.ok(after.every((row) => row?.label === 'one' && row.added === null));
    } finally {
      await db.run('ALTER TABLE items DROP COLUMN added');
    }
  });

  it('answers identical concurrent reads with one query at a time, each with rows as new as its call', async () => {
    await db.run('INSERT INTO items (n) VALUES (?)', [1]);
    // clock_timestamp() differs between queries: the distinct values are the queries that ran.
    const read = 'SELECT clock_timestamp()::text AS ran, COUNT(*) AS n FROM items';
    const together = await Promise.all(Array.from({ length: 20 }, () => db.get(read)));
    assert.ok(new Set(together.map((row) => row?.ran)).size <= 2, 'twenty callers, at most two queries');
    assert.ok(together.every((row) => row?.n === 1));

    // A read that arrives after a commit never gets the rows of a query that started before it.
    const slow = 'SELECT COUNT(*) AS n, pg_sleep(0.3)::text AS slept FROM items';
    const running = db.get(slow);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await db.run('INSERT INTO items (n) VALUES (?)', [2]);
    const after = db.get(slow);
    assert.equal((await running)?.n, 1, 'the query that started first reads its own snapshot');
    assert.equal((await after)?.n, 2, 'the read that came after the insert sees it');
  });

  it('cancels a statement that runs past the statement timeout', async () => {
    const url = await (await testCluster()).createDatabase();
    const quick = await openPostgres(url, { statementTimeoutMs: 200, poolSize: 2 });
    try {
      await assert.rejects(quick.get('SELECT pg_sleep(5)'), (error: { code?: string }) => error.code === '57014');
      assert.equal((await quick.get('SELECT 1 AS one'))?.one, 1);
    } finally {
      await quick.close();
    }
  });
});
