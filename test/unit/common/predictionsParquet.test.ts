import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readParquetColumns } from '../../../src/common/parquetRows';
import { buildPredictionsParquet } from '../../../src/common/predictionsParquet';
import { writeParquet } from '../service/datasets/duckdbParquet';

describe('common: predictions written as Parquet', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'xmodels-predictions-parquet-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the input columns and appends the prediction columns, named as in the CSV, that read back as written', async () => {
    const input = await writeParquet(
      `SELECT i AS x, 'c' || (i % 2) AS color, DATE '2020-01-01' + i::INTEGER AS day, CASE WHEN i = 1 THEN NULL ELSE i / 2 END AS score FROM range(3) r(i)`,
      join(dir, 'input.parquet'),
    );
    const result = { n: 3, predictions: ['no', 'yes', 'no'], scores: [-1, 1.5, 0], probabilities: [0.25, 0.75, null], contributions: { x: [0.1, -0.2, 0.3] } };
    const output = join(dir, 'input.predictions.parquet');
    writeFileSync(output, await buildPredictionsParquet(input, result));
    const back = await readParquetColumns(output);
    const original = await readParquetColumns(input);
    assert.deepEqual(back.names, ['x', 'color', 'day', 'score', 'prediction', 'score_2', 'probability', 'contribution_x']);
    assert.equal(back.rows, 3);
    assert.deepEqual(back.values.slice(0, 4).map((c) => c.map(String)), original.values.map((c) => c.map(String)));
    assert.deepEqual(back.values.slice(4).map((c) => [...c]), [['no', 'yes', 'no'], [-1, 1.5, 0], [0.25, 0.75, null], [0.1, -0.2, 0.3]]);
  });

  it('refuses a result whose row count is not the input’s', async () => {
    const input = await writeParquet(`SELECT 1 AS x`, join(dir, 'one.parquet'));
    await assert.rejects(buildPredictionsParquet(input, { n: 2, predictions: ['a', 'b'] }), /2 predictions for 1 rows/);
  });
});
