import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { scratchName } from '../../../../src/service/base/scratchFiles';
import { client, removeDir, startService, type ServiceProcess } from '../harness';
import { smallCsv, uploadCsv } from '../fixtures';

/** The pid of a process that has ended. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  assert.ok(pid, 'a short-lived process ran');
  return pid;
}

const datasetsOf = (service: ServiceProcess) => join(service.dataDir, 'datasets');
const filesIn = (dir: string) => readdirSync(dir).sort();

/** The keys of the dataset bytes the PostgreSQL store keeps; empty on SQLite, which keeps none. */
async function storedFileKeys(service: ServiceProcess): Promise<string[]> {
  if (!service.database) return [];
  const db = new PgClient({ connectionString: service.database });
  await db.connect();
  try {
    return (await db.query<{ key: string }>('SELECT DISTINCT key FROM dataset_files ORDER BY key')).rows.map((r) => r.key);
  } finally {
    await db.end();
  }
}

async function storeFileChunk(service: ServiceProcess, key: string): Promise<void> {
  const db = new PgClient({ connectionString: service.database });
  await db.connect();
  try {
    await db.query('INSERT INTO dataset_files (key, seq, bytes) VALUES ($1, 0, $2)', [key, Buffer.from('x,y\n1,2\n')]);
  } finally {
    await db.end();
  }
}

describe('service: files left by interrupted uploads, predictions and trains', () => {
  it('reads the writer and the file a scratch name stands for', () => {
    assert.deepEqual(scratchName('a.csv.123-0-7.part'), { writer: 123, kind: 'part', target: 'a.csv' });
    assert.deepEqual(scratchName('pushdown-train-sample.csv.9-2-1.part.frame'), { writer: 9, kind: 'part', target: 'pushdown-train-sample.csv' });
    assert.deepEqual(scratchName('a.csv.55-0-3.pending'), { writer: 55, kind: 'pending', target: 'a.csv' });
    for (const kept of ['a.csv', 'a.frame', 'a.health.json', '.xmodels-uploads', 'abc.part', '12.part', 'xmodels.db']) assert.equal(scratchName(kept), null, kept);
  });

  it('are removed at start-up and never listed; a registered dataset and what a running process writes stay', async function () {
    this.timeout(120_000);
    const first = await startService();
    const kept = await uploadCsv(client(first.url, first.apiKey), smallCsv(), 'kept.csv');
    await first.stop();

    const gone = deadPid();
    const datasets = datasetsOf(first);
    const unregistered = randomUUID();
    const leftovers = [
      // an upload cut off while it streamed
      `${randomUUID()}.csv.${gone}-0-1.part`,
      // an upload received and read, killed before its dataset was registered
      `${unregistered}.csv`,
      `${unregistered}.frame`,
      `${unregistered}.csv.${gone}-0-2.pending`,
      // a predict converting an older dataset, and a summary, cut off while they wrote the frame and the JSON
      `${kept}.frame.${gone}-3-4.part`,
      `${kept}.summary.json.${gone}-0-9.part`,
      // a pushdown fit's sample
      `pushdown-train-sample.csv.${gone}-0-5.part.frame`,
    ];
    for (const name of leftovers) writeFileSync(join(datasets, name), 'left over');
    // killed after its dataset was registered, before the marker went: the dataset stays
    writeFileSync(join(datasets, `${kept}.csv.${gone}-0-6.pending`), '');
    mkdirSync(join(first.dataDir, `duckdb-spill.${gone}-0-7.part`));
    writeFileSync(join(first.dataDir, `duckdb-spill.${gone}-0-7.part`, 'duckdb_temp_storage-0.tmp'), 'spilled');
    // a process that is still running (this test's) writes here too
    const live = `${randomUUID()}.csv.${process.pid}-0-8.part`;
    writeFileSync(join(datasets, live), 'being written');
    if (first.database) await storeFileChunk(first, `${unregistered}/${unregistered}.csv`);
    const before = filesIn(datasets);

    const second = await startService({ dataDir: first.dataDir });
    try {
      const call = client(second.url, second.apiKey);
      for (const name of leftovers) assert.ok(!existsSync(join(datasets, name)), `${name} is removed`);
      assert.ok(!existsSync(join(first.dataDir, `duckdb-spill.${gone}-0-7.part`)), "DuckDB's spill folder is removed");
      assert.ok(existsSync(join(datasets, live)), "a running process's file stays");
      assert.deepEqual(filesIn(datasets), before.filter((name) => !leftovers.includes(name) && !name.endsWith('.pending')));
      assert.ok(existsSync(join(datasets, `${kept}.csv`)));
      const keys = await storedFileKeys(second);
      assert.deepEqual(keys.filter((key) => !key.startsWith(`${kept}/`)), [], 'no bytes of the unregistered upload stay in the database');
      if (first.database) assert.ok(keys.includes(`${kept}/${kept}.csv`));

      const listed = await call('GET', '/v1/datasets');
      assert.deepEqual(listed.body.map((d: { dataset_id: string }) => d.dataset_id), [kept]);
      const trained = await call('POST', '/v1/models/train', { json: { dataset_id: kept, target_column: 'label', model_name: 'after restart' } });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
    } finally {
      await second.stop();
      removeDir(first.dataDir);
    }
  });

  it('leaves nothing after the next start when the service is killed while an upload streams', async function () {
    this.timeout(120_000);
    const first = await startService();
    const datasets = datasetsOf(first);
    const before = filesIn(datasets);
    const { hostname, port } = new URL(first.url);
    const upload = request({ host: hostname, port, method: 'POST', path: '/v1/datasets', headers: { api_key: first.apiKey, 'content-type': 'text/csv' } });
    upload.on('error', () => undefined);
    upload.write('x,color,size,label\n');
    const row = '1,red,2,yes\n'.repeat(5_000);
    const streaming = setInterval(() => upload.write(row), 20);
    try {
      const deadline = Date.now() + 20_000;
      while (!filesIn(datasets).some((name) => scratchName(name)?.kind === 'part')) {
        assert.ok(Date.now() < deadline, 'the upload reaches the data dir');
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 200));
      await first.kill9();
    } finally {
      clearInterval(streaming);
      upload.destroy();
    }
    const interrupted = filesIn(datasets).filter((name) => !before.includes(name));
    assert.deepEqual(interrupted.map((name) => scratchName(name)?.kind).sort(), ['part', 'pending'], `kill -9 leaves the partial file and its marker: ${interrupted.join(', ')}`);

    const second = await startService({ dataDir: first.dataDir });
    try {
      assert.deepEqual(filesIn(datasets), before);
      assert.deepEqual((await client(second.url, second.apiKey)('GET', '/v1/datasets')).body, []);
      assert.deepEqual(await storedFileKeys(second), []);
    } finally {
      await second.stop();
      removeDir(first.dataDir);
    }
  });
});
