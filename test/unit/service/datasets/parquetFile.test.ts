import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_COLUMN_NAME, MAX_COLUMNS, parseCsv } from '../../../../src/engine';
import { parseCsvFile } from '../../../../src/service/datasetFiles/frameFile';
import { isParquetFile, parseParquetFile } from '../../../../src/service/datasetFiles/parquetFile';
import { ParquetInputError } from '../../../../src/service/datasetFiles/parquetSchema';
import { DATASETS } from '../harness';
import { csvAsParquet, writeCsv, writeParquet } from './duckdbParquet';

/** Rows of every type DuckDB writes to Parquet, with missing values, as one SELECT. */
const TYPED_ROWS = `
  SELECT i::TINYINT AS tiny, (i * 1000)::INTEGER AS int, (i * 1e12)::BIGINT AS big, (i * 7)::UBIGINT AS ubig,
    (i / 10)::FLOAT AS f32, (i / 3)::DOUBLE AS f64, (i / 8)::DECIMAL(9, 3) AS dec9, (i * 1.5)::DECIMAL(18, 4) AS dec18,
    (i / 7)::DECIMAL(38, 12) AS dec38, 'v' || (i % 3) AS txt, (i % 2 = 0) AS flag, DATE '2020-01-01' + i::INTEGER AS day,
    TIMESTAMP '2021-03-04 10:00:00.123456' + to_hours(i) AS ts,
    (TIMESTAMP '1969-12-31 23:59:58.9985' + to_seconds(i % 3))::TIMESTAMP_NS AS tsns,
    (TIMESTAMP '2021-03-04 10:00:00.5' + to_days(i))::TIMESTAMP_MS AS tsms, TIME '10:30:00.25' + to_minutes(i % 5) AS tod,
    (['sad', 'ok', 'happy'])[i % 3 + 1] AS mood, CASE WHEN i % 4 = 0 THEN NULL ELSE i END AS sometimes,
    CASE WHEN i % 5 = 0 THEN NULL ELSE 'c' || (i % 4) END AS category, md5(i::VARCHAR) AS id
  FROM range(1, 60) r(i)`;

describe('service: Parquet files read as the CSV of the same data', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'xmodels-parquet-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const parquetFrame = async (path: string) => (await parseParquetFile(path)).frame;

  it('gives every sample dataset, typed by DuckDB or as text, the frame of its CSV', async () => {
    for (const name of ['penguins', 'cars', 'movies', 'seattle-weather', 'weather', 'flights-20k']) {
      const csv = join(DATASETS, `${name}.csv`);
      const expected = parseCsvFile(csv).frame;
      for (const allVarchar of [false, true]) {
        const frame = await parquetFrame(await csvAsParquet(csv, join(dir, `${name}-${allVarchar}.parquet`), allVarchar));
        assert.deepEqual(frame, expected, `${name}${allVarchar ? ' (all VARCHAR)' : ''}`);
      }
    }
  });

  it('reads integers, floats, decimals, text, booleans, dates, timestamps of every unit and times as the CSV DuckDB writes of the same rows', async () => {
    const expected = parseCsv(readFileSync(await writeCsv(TYPED_ROWS, join(dir, 'typed.csv')), 'utf8'));
    const frame = await parquetFrame(await writeParquet(TYPED_ROWS, join(dir, 'typed.parquet')));
    for (const column of expected.columns) assert.deepEqual(frame.column(column.name), column, column.name);
    assert.deepEqual(frame.names, expected.names);
    assert.deepEqual(
      [frame.column('flag').type, frame.column('day').type, frame.column('tsns').type, frame.column('tod').type, frame.column('id').type],
      ['boolean', 'date', 'date', 'categorical', 'id'],
    );
    assert.equal(frame.value(0, 'tsns'), '1969-12-31T23:59:59.998Z', 'nanoseconds before the epoch round down, as a CSV date does');
  });

  it('reads every compression, dictionary or plain encoding and many row groups to the same frame', async () => {
    const expected = await parquetFrame(await writeParquet(TYPED_ROWS, join(dir, 'plain.parquet'), 'COMPRESSION uncompressed'));
    for (const options of ['COMPRESSION snappy', 'COMPRESSION gzip', 'COMPRESSION zstd', 'COMPRESSION brotli', 'COMPRESSION lz4', 'COMPRESSION lz4_raw', 'ROW_GROUP_SIZE 7']) {
      const frame = await parquetFrame(await writeParquet(TYPED_ROWS, join(dir, 'encoded.parquet'), options));
      assert.deepEqual(frame, expected, options);
    }
  });

  it('knows Parquet by its first bytes, not by its name', async () => {
    const parquetNamedCsv = await writeParquet('SELECT 1 AS a', join(dir, 'named.csv'));
    const csvNamedParquet = join(dir, 'named.parquet');
    writeFileSync(csvNamedParquet, 'a\n1\n');
    assert.equal(isParquetFile(parquetNamedCsv), true);
    assert.equal(isParquetFile(csvNamedParquet), false);
  });

  it('refuses a nested column, naming it, before reading rows', async () => {
    for (const [select, column] of [
      ['SELECT 1 AS a, [1, 2] AS tags', 'tags'],
      ['SELECT 1 AS a, {x: 1, y: 2} AS point', 'point'],
      ['SELECT 1 AS a, MAP {1: 2} AS lookup', 'lookup'],
    ]) {
      const path = await writeParquet(select, join(dir, `${column}.parquet`));
      await assert.rejects(parseParquetFile(path), (error: unknown) => {
        assert.ok(error instanceof ParquetInputError);
        assert.match(error.message, new RegExp(`Column ${column} is a nested column`));
        assert.equal(error.column, column);
        return true;
      });
    }
  });

  it('refuses more columns than a dataset may have, or a longer column name, before reading rows', async () => {
    const wide = await writeParquet(`SELECT ${Array.from({ length: MAX_COLUMNS + 1 }, (_, i) => `1 AS c${i}`).join(', ')}`, join(dir, 'wide.parquet'));
    await assert.rejects(parseParquetFile(wide), /has 10,001 columns, more than the 10,000 a dataset may have/);
    const named = await writeParquet(`SELECT 1 AS a, 2 AS "${'n'.repeat(MAX_COLUMN_NAME + 1)}"`, join(dir, 'named.parquet'));
    await assert.rejects(parseParquetFile(named), /1001 characters, more than the 1000 a column name may have/);
  });

  it('refuses a file cut short or with a corrupt footer, saying so', async () => {
    const bytes = readFileSync(await writeParquet(TYPED_ROWS, join(dir, 'whole.parquet')));
    writeFileSync(join(dir, 'cut.parquet'), bytes.subarray(0, bytes.length - 100));
    await assert.rejects(parseParquetFile(join(dir, 'cut.parquet')), /cut short .*PAR1/);
    const corrupt = Buffer.from(bytes);
    corrupt.writeUInt32LE(bytes.length * 2, bytes.length - 8);
    writeFileSync(join(dir, 'corrupt.parquet'), corrupt);
    await assert.rejects(parseParquetFile(join(dir, 'corrupt.parquet')), (error: unknown) => error instanceof ParquetInputError && /corrupt: reading its metadata failed/.test(error.message));
  });
});
