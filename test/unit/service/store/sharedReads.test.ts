import assert from 'node:assert/strict';
import { SharedReads } from '../../../../src/service/store/sharedReads';
import type { Row } from '../../../../src/service/store/sql';

/** A query the test finishes by hand; `runs` counts the queries started, and each answers with its run number. */
function controlledQuery() {
  const pending: (() => void)[] = [];
  let runs = 0;
  const query = () => {
    const run = ++runs;
    return new Promise<Row[]>((resolve) => pending.push(() => resolve([{ run }])));
  };
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { query, finishNext, runs: () => runs };
}

describe('store: identical reads share queries', () => {
  it('lets the callers that arrive while a read runs share the next run, never the running one', async () => {
    const reads = new SharedReads();
    const { query, finishNext, runs } = controlledQuery();
    const first = reads.all('SELECT 1', [], query);
    const later = Array.from({ length: 5 }, () => reads.all('SELECT 1', [], query));
    assert.equal(runs(), 1, 'the later callers wait instead of querying');
    await finishNext();
    assert.deepEqual(await first, [{ run: 1 }]);
    assert.equal(runs(), 2, 'one query for the five that waited, started after they arrived');
    const latest = reads.all('SELECT 1', [], query);
    await finishNext();
    for (const rows of await Promise.all(later)) assert.deepEqual(rows, [{ run: 2 }]);
    assert.equal(runs(), 3);
    await finishNext();
    assert.deepEqual(await latest, [{ run: 3 }]);
    await reads.all('SELECT 1', [], () => Promise.resolve([{ run: 0 }]));
    assert.equal(runs(), 3, 'with nothing running, a read runs at once');
  });

  it('shares only the same statement with the same parameters, never one with binary parameters', async () => {
    const reads = new SharedReads();
    const { query, finishNext, runs } = controlledQuery();
    const calls = [reads.all('SELECT a', [1], query), reads.all('SELECT a', [2], query), reads.all('SELECT b', [1], query)];
    calls.push(reads.all('SELECT a', [new Uint8Array([1])], query), reads.all('SELECT a', [new Uint8Array([1])], query));
    assert.equal(runs(), 5);
    for (let i = 0; i < 5; i++) await finishNext();
    assert.deepEqual((await Promise.all(calls)).map((rows) => rows[0].run), [1, 2, 3, 4, 5]);
  });

  it('gives every caller its own row objects', async () => {
    const reads = new SharedReads();
    const { query, finishNext } = controlledQuery();
    const first = reads.all('SELECT 1', [], query);
    const [a, b] = [reads.all('SELECT 1', [], query), reads.all('SELECT 1', [], query)];
    await finishNext();
    await finishNext();
    await first;
    const [rowsA, rowsB] = await Promise.all([a, b]);
    rowsA[0].run = 99;
    assert.deepEqual(rowsB, [{ run: 2 }]);
  });

  it('fails every caller of a failed run, and runs the next read again', async () => {
    const reads = new SharedReads();
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const query = async () => {
      await gate;
      if (fail) throw new Error('connection lost');
      return [{ ok: 1 }];
    };
    const first = reads.all('SELECT 1', [], query);
    const second = reads.all('SELECT 1', [], query);
    release();
    await assert.rejects(first, /connection lost/);
    await assert.rejects(second, /connection lost/);
    fail = false;
    assert.deepEqual(await reads.all('SELECT 1', [], query), [{ ok: 1 }]);
  });
});
