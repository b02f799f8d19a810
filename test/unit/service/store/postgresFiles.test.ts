import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres, type PostgresDatabase } from '../../../../src/service/store/postgres';
import { CHUNK_BYTES } from '../../../../src/service/store/postgresFiles';
import type { FileStore } from '../../../../src/service/store/sql';
import { testCluster } from '../postgresCluster';

describe('store: PostgreSQL dataset files', function () {
  this.timeout(60_000);
  let db: PostgresDatabase;
  let files: FileStore;
  let dir: string;

  before(async () => {
    db = await openPostgres(await (await testCluster()).createDatabase());
    files = db.files;
    dir = mkdtempSync(join(tmpdir(), 'xmodels-pg-files-'));
  });

  after(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const local = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it('gives back a 10 MB file byte for byte, stored in 4 MB chunks', async () => {
    const bytes = randomBytes(10 * 1024 * 1024);
    await files.upload('d1/data.csv', local('big', bytes));
    const chunks = await db.all('SELECT seq, length(bytes) AS size FROM dataset_files WHERE key = ? ORDER BY seq', ['d1/data.csv']);
    assert.deepEqual(chunks.map((row) => ({ ...row })), [
      { seq: 0, size: CHUNK_BYTES },
      { seq: 1, size: CHUNK_BYTES },
      { seq: 2, size: bytes.length - 2 * CHUNK_BYTES },
    ]);
    const copy = join(dir, 'big.copy');
    assert.equal(await files.download('d1/data.csv', copy), true);
    assert.ok(readFileSync(copy).equals(bytes));
    assert.equal(existsSync(`${copy}.part`), false);
  });

  it('replaces what was stored under a key', async () => {
    await files.upload('d2/data.csv', local('first', randomBytes(CHUNK_BYTES + 10)));
    const second = Buffer.from('a,b\n1,2\n');
    await files.upload('d2/data.csv', local('second', second));
    const copy = join(dir, 'replaced');
    assert.equal(await files.download('d2/data.csv', copy), true);
    assert.deepEqual(readFileSync(copy), second);
    assert.equal((await db.get('SELECT COUNT(*) AS c FROM dataset_files WHERE key = ?', ['d2/data.csv']))?.c, 1);
  });

  it('gives back an empty file as an empty file', async () => {
    await files.upload('d3/empty.csv', local('empty', new Uint8Array(0)));
    const copy = join(dir, 'empty.copy');
    assert.equal(await files.download('d3/empty.csv', copy), true);
    assert.equal(readFileSync(copy).length, 0);
  });

  it('reports a missing key as false without writing anything', async () => {
    const missing = join(dir, 'missing');
    assert.equal(await files.download('nothing/here', missing), false);
    assert.equal(existsSync(missing), false);
    assert.equal(existsSync(`${missing}.part`), false);
  });

  it('removes every key under a prefix, taking % and _ literally', async () => {
    const keys = ['p1/a', 'p1/b', 'p10/a', 'p%/x', 'p_/y', 'pX/z'];
    for (const key of keys) await files.upload(key, local('small', Buffer.from(key)));
    const remaining = async () =>
      (await db.all("SELECT key FROM dataset_files WHERE key LIKE 'p%' ORDER BY key")).map((row) => row.key);
    await files.remove('p1/');
    assert.deepEqual(await remaining(), ['p%/x', 'p10/a', 'pX/z', 'p_/y']);
    await files.remove('p%/');
    await files.remove('p_/');
    assert.deepEqual(await remaining(), ['p10/a', 'pX/z']);
    const copy = join(dir, 'survivor');
    assert.equal(await files.download('p10/a', copy), true);
    assert.equal(readFileSync(copy, 'utf8'), 'p10/a');
  });
});
