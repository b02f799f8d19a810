import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { datasetFiles, ensureLocal, publish, removeEverywhere } from '../../../../src/service/datasetFiles/fileCache';
import { datasetPath } from '../../../../src/service/datasetFiles/files';
import { decodeFrame, parseCsvFile, writeFrameFile } from '../../../../src/service/datasetFiles/frameFile';
import { writeHealthFile } from '../../../../src/service/datasetFiles/healthFile';
import { writeSummaryFile } from '../../../../src/service/datasetFiles/summaryFile';
import type { FileStore } from '../../../../src/service/store/sql';
import { DATASETS, removeDir } from '../harness';

/** A FileStore over a directory (one file per key), standing in for the database's table of dataset bytes. */
class DirectoryFileStore implements FileStore {
  constructor(private readonly root: string) {}

  upload(key: string, path: string): Promise<void> {
    const target = join(this.root, key);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(path, target);
    return Promise.resolve();
  }

  download(key: string, path: string): Promise<boolean> {
    const source = join(this.root, key);
    if (!existsSync(source)) return Promise.resolve(false);
    copyFileSync(source, `${path}.download`);
    renameSync(`${path}.download`, path);
    return Promise.resolve(true);
  }

  remove(prefix: string): Promise<void> {
    for (const key of this.keys()) if (key.startsWith(prefix)) rmSync(join(this.root, key));
    return Promise.resolve();
  }

  keys(): string[] {
    return readdirSync(this.root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(this.root, join(entry.parentPath, entry.name)))
      .sort();
  }
}

/** A dataset as an upload leaves it in a data dir: the CSV with its frame, health scan and summary rules beside it. */
function writeDataset(dataDir: string, datasetId: string): string {
  const csvPath = datasetPath(dataDir, datasetId);
  mkdirSync(dirname(csvPath), { recursive: true });
  copyFileSync(join(DATASETS, 'penguins.csv'), csvPath);
  const { frame } = parseCsvFile(csvPath);
  writeFrameFile(csvPath, frame);
  writeHealthFile(csvPath, frame);
  writeSummaryFile(csvPath, frame);
  return csvPath;
}

describe('service: dataset files shared through the database between replicas', () => {
  let root: string;
  let files: DirectoryFileStore;
  let replicaA: string;
  let replicaB: string;
  const datasetId = '0b8c7a52-3d4e-4f10-9a6b-1c2d3e4f5a6b';

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'xmodels-files-'));
    files = new DirectoryFileStore(join(root, 'database'));
    mkdirSync(join(root, 'database'));
    replicaA = join(root, 'replica-a');
    replicaB = join(root, 'replica-b');
  });
  afterEach(() => removeDir(root));

  it('publishes every file of a dataset under <dataset id>/<file name>', async () => {
    const csvPath = writeDataset(replicaA, datasetId);
    await publish(files, csvPath);
    const names = ['csv', 'frame', 'health.json', 'summary.json'].map((extension) => `${datasetId}/${datasetId}.${extension}`);
    assert.deepEqual(files.keys(), names);
  });

  it('gives a replica with an empty data dir the same bytes the uploading replica wrote, and a readable frame', async () => {
    const written = writeDataset(replicaA, datasetId);
    await publish(files, written);
    const elsewhere = datasetPath(replicaB, datasetId);
    await Promise.all([ensureLocal(files, elsewhere), ensureLocal(files, elsewhere)]);
    const [source, copy] = [datasetFiles(written), datasetFiles(elsewhere)];
    source.forEach((path, i) => assert.deepEqual(readFileSync(copy[i]), readFileSync(path), `${path} arrives unchanged`));
    const frame = decodeFrame(readFileSync(copy[1]));
    assert.equal(frame.nRows, parseCsvFile(written).frame.nRows);
  });

  it('downloads again a local copy that was deleted', async () => {
    const csvPath = writeDataset(replicaA, datasetId);
    await publish(files, csvPath);
    const [, framePath] = datasetFiles(csvPath);
    const frameBytes = readFileSync(framePath);
    rmSync(framePath);
    await ensureLocal(files, csvPath);
    assert.deepEqual(readFileSync(framePath), frameBytes);
  });

  it('removes a deleted dataset from the data dir and the database, so no replica can fetch it again', async () => {
    const csvPath = writeDataset(replicaA, datasetId);
    const other = writeDataset(replicaA, 'ffffffff-0000-4000-8000-000000000000');
    await publish(files, csvPath);
    await publish(files, other);
    await removeEverywhere(files, csvPath);
    assert.ok(datasetFiles(csvPath).every((path) => !existsSync(path)));
    assert.ok(files.keys().every((key) => !key.startsWith(datasetId)), 'its keys are gone');
    assert.equal(files.keys().length, 4, 'another dataset keeps its files');
    const elsewhere = datasetPath(replicaB, datasetId);
    await ensureLocal(files, elsewhere);
    assert.ok(datasetFiles(elsewhere).every((path) => !existsSync(path)));
  });

  it('without a file store (SQLite) touches only the data dir', async () => {
    const csvPath = writeDataset(replicaA, datasetId);
    await publish(null, csvPath);
    await ensureLocal(null, datasetPath(replicaB, datasetId));
    assert.equal(existsSync(replicaB), false, 'nothing is fetched');
    await removeEverywhere(null, csvPath);
    assert.ok(datasetFiles(csvPath).every((path) => !existsSync(path)));
  });
});
