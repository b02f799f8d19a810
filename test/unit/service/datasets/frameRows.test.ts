import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFrameRowsSync, loadFrameSync, markUploadsFolder, parseCsvFile, writeFrameFile } from '../../../../src/service/datasetFiles/frameFile';
import type { DataFrame } from '../../../../src/engine';

const cells = (frame: DataFrame) => frame.names.map((name) => Array.from({ length: frame.nRows }, (_, r) => frame.value(r, name)));

describe('loadFrameRowsSync: a row range of a stored frame, read at its offsets', function () {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-frame-rows-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the same rows as the whole frame has, for every column type, and null where no frame is stored', function () {
    markUploadsFolder(dir);
    const csvPath = join(dir, 'rows.csv');
    const lines = ['x,colour,day,flag'];
    for (let i = 0; i < 11; i++) lines.push(`${i % 4 === 0 ? '' : i * 1.5},${['red', 'blue', ''][i % 3]},2024-01-${String(i + 1).padStart(2, '0')},${i % 2 === 0}`);
    writeFileSync(csvPath, `${lines.join('\n')}\n`);
    assert.equal(loadFrameRowsSync(csvPath, (n) => [0, n]), null, 'no frame is stored yet');
    writeFrameFile(csvPath, parseCsvFile(csvPath).frame);
    const whole = loadFrameSync(csvPath);
    for (const [start, end] of [[0, 11], [3, 7], [10, 11], [5, 5]]) {
      const part = loadFrameRowsSync(csvPath, (n) => [Math.min(start, n), Math.min(end, n)]);
      assert.ok(part);
      assert.equal(part.nRows, 11);
      assert.deepEqual(part.frame.columns.map((c) => [c.name, c.type]), whole.columns.map((c) => [c.name, c.type]));
      assert.deepEqual(cells(part.frame), cells(whole.take(Array.from({ length: end - start }, (_, i) => start + i))));
    }
    const outside = join(mkdtempSync(join(tmpdir(), 'xmodels-not-uploads-')), 'rows.csv');
    writeFileSync(outside, 'a\n1\n');
    assert.equal(loadFrameRowsSync(outside, (n) => [0, n]), null, 'a file outside the uploads is parsed, not read as a frame');
    rmSync(join(outside, '..'), { recursive: true, force: true });
  });
});
