import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsvSample } from '../../../src/common/csvColumns';
import { sampleCsv } from '../../../src/flows/csvSample';
import { DATASETS } from '../service/harness';
import { csvAsParquet, writeParquet } from '../service/datasets/duckdbParquet';

describe('flows: sampling a data file to propose targets', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'xmodels-sample-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('profiles a Parquet file, whatever its name, as the CSV of the same data (its numbers written as numbers)', async () => {
    const kinds = (sample: CsvSample) => sample.columns.map(({ name, kind, missing, classes }) => ({ name, kind, missing, classes }));
    for (const name of ['penguins', 'seattle-weather', 'cars', 'flights-20k']) {
      const csv = join(DATASETS, `${name}.csv`);
      const parquet = await csvAsParquet(csv, join(dir, `${name}.csv`));
      assert.deepEqual(kinds(await sampleCsv(parquet)), kinds(await sampleCsv(csv)), name);
    }
  });

  it('says a Parquet file is not readable, or has no rows', async () => {
    const empty = await writeParquet('SELECT 1 AS a WHERE false', join(dir, 'empty.parquet'));
    await assert.rejects(sampleCsv(empty), /empty\.parquet has a header but no rows/);
    const cut = join(dir, 'cut.parquet');
    writeFileSync(cut, readFileSync(empty).subarray(0, 20));
    await assert.rejects(sampleCsv(cut), /cut\.parquet is not a readable Parquet file/);
  });
});
