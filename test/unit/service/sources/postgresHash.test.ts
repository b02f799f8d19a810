import assert from 'node:assert/strict';
import { Client } from 'pg';
import { postgresDialect } from '../../../../src/service/sources/postgresDialect';
import { testCluster } from '../postgresCluster';

/** A value of each type a dataset's column may have (no two alike), written as PostgreSQL reads it, and its type's name. */
const VALUES: [sql: string, type: string][] = [
  ['CAST(7 AS smallint)', 'smallint'],
  ['8', 'integer'],
  ['CAST(9 AS bigint)', 'bigint'],
  ['CAST(0.5 AS real)', 'real'],
  ['CAST(0.25 AS double precision)', 'double precision'],
  ['CAST(12.50 AS numeric(6,2))', 'numeric(6,2)'],
  ['TRUE', 'boolean'],
  ["'gold'", 'text'],
  ["CAST('silver' AS varchar(8))", 'character varying(8)'],
  ["CAST('ab' AS char(3))", 'character(3)'],
  ["DATE '2024-02-29'", 'date'],
  ["TIMESTAMP '2024-02-29 13:45:00'", 'timestamp without time zone'],
  ["TIMESTAMPTZ '2024-02-29 13:45:00+05'", 'timestamp with time zone'],
  ["TIME '13:45:00'", 'time without time zone'],
  ["TIMETZ '13:45:00+02'", 'time with time zone'],
  ["INTERVAL '3 days'", 'interval'],
  ["CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS uuid)", 'uuid'],
];

describe('service: the PostgreSQL row hash', function () {
  this.timeout(60_000);
  let url: string;
  before(async () => {
    url = await (await testCluster()).createDatabase();
  });

  async function inSession<T>(timeZone: string, use: (db: Client) => Promise<T>): Promise<T> {
    const db = new Client({ connectionString: url, options: `-c TimeZone=${timeZone}` });
    await db.connect();
    try {
      return await use(db);
    } finally {
      await db.end();
    }
  }

  it('hashes a value of every type with IMMUTABLE functions only, alike in every time zone', async () => {
    const sql = VALUES.map(([value, type], k) => `${postgresDialect.hash([{ sql: value, type }], 42)} AS h${k}`).join(', ');
    const [utc, tokyo] = await Promise.all(['UTC', 'Asia/Tokyo'].map((zone) => inSession(zone, async (db) => (await db.query(`SELECT ${sql}`)).rows[0] as Record<string, string>)));
    assert.deepEqual(tokyo, utc, 'the same hashes in another time zone');
    assert.equal(new Set(Object.values(utc)).size, VALUES.length, 'every value its own hash');
    assert.ok(Object.values(utc).every((h) => BigInt(h) >= 0n));
    const hashOfColumn = VALUES.map(([, type]) => postgresDialect.hash([{ sql: 'q.c', type }], 42)).join(' ');
    const functions = [...new Set([...hashOfColumn.matchAll(/([a-z_0-9]+)\(/g)].map((m) => m[1]))];
    const volatility = await inSession('UTC', async (db) => (await db.query('SELECT proname, bool_and(provolatile = $2) AS immutable FROM pg_proc WHERE proname = ANY($1) GROUP BY proname', [functions, 'i'])).rows);
    assert.deepEqual(volatility.map((f) => f.proname).sort(), functions.sort(), 'every function is PostgreSQL’s own');
    assert.deepEqual(volatility.filter((f) => !f.immutable), [], 'only IMMUTABLE functions, which a foreign scan ships');
  });
});
