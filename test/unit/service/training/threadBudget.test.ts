import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrainFitOptions } from '../../../../src/contract';
import { Trainer } from '../../../../src/service/training/trainer';

const REPO = join(__dirname, '../../../..');

/** Rows enough that a boosted fit of them is split over threads (over 2,000,000 cells passed over by its bags). */
function csv(rows: number): string {
  const names = Array.from({ length: 10 }, (_, f) => `x${f}`);
  const lines = [[...names, 'y'].join(',')];
  for (let i = 0; i < rows; i++) {
    const xs = names.map((_, f) => ((i * (7919 + 104729 * f)) % 1000) / 10);
    lines.push([...xs, (xs[0] * 2 - xs[1] + (i % 7)).toFixed(2)].join(','));
  }
  return `${lines.join('\n')}\n`;
}

const FIT: TrainFitOptions = {
  target: 'y',
  modelType: 'regressor',
  partitionOn: null,
  dropColumns: [],
  method: 'boosted',
  params: {},
  boost: { max_rounds: 5, interactions: 0 },
  boostFeature: {},
  seed: 42,
};

describe("service: the training pool's thread budget", function () {
  this.timeout(120_000);
  const rows = csv(40_000);
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-thread-budget-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The threads a train in a pool of `size` started for its fit, counted by the pool's thread as it starts them. */
  async function fitThreads(size: number): Promise<number> {
    const counted = join(dir, 'threads');
    writeFileSync(counted, '0');
    const workerFile = join(dir, 'countingWorker.js');
    writeFileSync(
      workerFile,
      [
        `require(${JSON.stringify(require.resolve('tsx/cjs'))});`,
        "const threads = require('node:worker_threads');",
        "const { writeFileSync } = require('node:fs');",
        'let started = 0;',
        // Only the fit's threads count: tsx may start one of its own while it compiles.
        'threads.Worker = class extends threads.Worker {',
        '  constructor(code, options) {',
        '    super(code, options);',
        `    if (String(code).includes('fit.worker')) writeFileSync(${JSON.stringify(counted)}, String(++started));`,
        '  }',
        '};',
        `require(${JSON.stringify(join(REPO, 'src/service/training/training.worker.ts'))});`,
      ].join('\n'),
    );
    const trainer = new Trainer({ threads: size, workerFile });
    try {
      const outcome = await trainer.train({ source: { text: rows, label: 'rows' }, testSource: null, fit: FIT, testSize: 0.2, preprocessor: null, rareClasses: 'error' });
      assert.ok(outcome.modelJson.length > 0);
    } finally {
      await trainer.close();
    }
    return Number(readFileSync(counted, "utf8"));
  }

  it('a large fit in a pool of one thread starts no threads of its own', async () => {
    assert.equal(await fitThreads(1), 0);
  });

  it('the same fit in a pool of two spreads over two threads', async () => {
    assert.equal(await fitThreads(2), 2);
  });
});
