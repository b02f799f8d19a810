import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DataFrame, parseCsv, trainTestSplit, type Column } from '../../../../src/engine';
import { StoredFrame, decodeFrame, framePath, markUploadsFolder, parseCsvFile, writeFrameFile } from '../../../../src/service/datasetFiles/frameFile';
import { DATASETS, removeDir } from '../harness';

const columnData = (c: Column) => (c.storage === 'number' ? { ...c, values: [...c.values] } : { ...c, codes: [...c.codes] });
const same = (a: DataFrame, b: DataFrame) => {
  assert.equal(a.nRows, b.nRows);
  assert.deepEqual(a.columns.map(columnData), b.columns.map(columnData));
};

/** More rows than a column's first allocation, so the size estimated from the file's lines decides it. */
const MANY = 1500;

/** Files whose line count is not always their row count: the parse sizes its columns from an estimate it must not trust. */
const AWKWARD: Record<string, string> = {
  'LF, trailing newline': 'a,b\n' + '1,x\n2,y\n'.repeat(MANY),
  'no trailing newline': 'a,b\n' + '1,x\n2,y\n'.repeat(MANY) + '3,z',
  CRLF: 'a,b\r\n' + '1,x\r\n2,y\r\n'.repeat(MANY),
  'CR alone': 'a,b\r' + '1,x\r2,y\r'.repeat(MANY),
  'empty lines': 'a,b\n\n' + '1,x\n\n\n2,y\n'.repeat(MANY) + '\n\n',
  'quoted line ends': 'a,b\n' + '1,"x\ny\nz"\n2,"p\r\nq"\n'.repeat(MANY),
  'escaped quotes': 'a,b\n' + '1,"say ""hi"""\n2,"""\n"""\n'.repeat(MANY),
  'stray quote': 'a,b\n5",x\n' + '6,y\n7,"z\nw"\n'.repeat(MANY),
  'header only': 'a,b\n',
  'numbers turning to text': 'a,b\n' + '1,2\n3,4\n'.repeat(MANY) + '5,five\n',
  'text with a BOM': '\ufeffa;b\n' + '1;2\n3;4\n'.repeat(MANY),
};

describe('stored dataset frames', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-frames-'));
  after(() => removeDir(dir));

  for (const [name, text] of Object.entries(AWKWARD)) {
    it(`parses a file as its text parses and stores it losslessly: ${name}`, () => {
      const path = join(dir, `${name.replace(/\W+/g, '-')}.csv`);
      writeFileSync(path, text);
      const { frame } = parseCsvFile(path);
      same(frame, parseCsv(text));
      writeFrameFile(path, frame);
      same(decodeFrame(readFileSync(framePath(path))), frame);
    });
  }

  it('round-trips every bundled dataset through its frame file', () => {
    for (const file of ['penguins.csv', 'cars.csv', 'seattle-weather.csv', 'flights-20k.csv']) {
      const source = join(DATASETS, file);
      const path = join(dir, file);
      writeFileSync(path, readFileSync(source));
      const { frame } = parseCsvFile(path);
      same(frame, parseCsv(readFileSync(source, 'utf8')));
      writeFrameFile(path, frame);
      const stored = decodeFrame(readFileSync(framePath(path)));
      same(stored, frame);
      assert.deepEqual(
        stored.columns.map((c) => [c.name, c.type, c.storage]),
        frame.columns.map((c) => [c.name, c.type, c.storage]),
      );
    }
  });

  it('reads an upload\'s stored frame a column at a time: the same columns and the same rows as the whole frame', () => {
    const uploads = join(dir, 'uploads');
    markUploadsFolder(uploads);
    const path = join(uploads, 'penguins.csv');
    writeFileSync(path, readFileSync(join(DATASETS, 'penguins.csv')));
    assert.equal(StoredFrame.open(path), null, 'no frame is stored yet');
    const { frame } = parseCsvFile(path);
    writeFrameFile(path, frame);
    const stored = StoredFrame.open(path);
    assert.ok(stored);
    assert.equal(stored.nRows, frame.nRows);
    assert.deepEqual(stored.names, frame.names);
    assert.ok(stored.has('Species') && !stored.has('species'));
    const names = ['Sex', 'Body Mass (g)', 'Species'];
    same(stored.select(names), frame.select(names));
    const split = trainTestSplit(frame.nRows, 0.25, 9);
    same(stored.take(split.train), frame.take(split.train));
    same(stored.take(split.test), frame.take(split.test));
    assert.throws(() => stored.select(['species']), /Unknown column species/);
  });

  it('reads no stored frame beside a CSV that is not an upload', () => {
    const path = join(dir, 'penguins.csv');
    writeFileSync(path, readFileSync(join(DATASETS, 'penguins.csv')));
    writeFrameFile(path, parseCsvFile(path).frame);
    assert.equal(StoredFrame.open(path), null);
  });

  it('keeps a whole frame file when threads write the same one at once (as the parts of a predict converting an older dataset)', async () => {
    const path = join(dir, 'penguins.csv');
    writeFileSync(path, readFileSync(join(DATASETS, 'penguins.csv')));
    const source = join(__dirname, '../../../../src/service/datasetFiles/frameFile.ts');
    const writer = `require('tsx/cjs'); const f = require(${JSON.stringify(source)}); const { frame } = f.parseCsvFile(${JSON.stringify(path)});
      for (let i = 0; i < 40; i++) f.writeFrameFile(${JSON.stringify(path)}, frame);`;
    const run = () =>
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(writer, { eval: true });
        worker.on('error', reject);
        worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited with ${code}`))));
      });
    await Promise.all([run(), run(), run()]);
    same(decodeFrame(readFileSync(framePath(path))), parseCsvFile(path).frame);
  });
});
