import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Database } from 'node-sqlite3-wasm';
import { Client } from 'pg';
import { ModelPayloadSchema, PredictionsSchema, type Predictions } from '../../../src/contract';
import { scoringTablesFromPayload, toPython, toSql, type ExportTables, type MulticlassScoringTables, type ScoringTables } from '../../../src/modelExport';
import { DATASETS, useService } from '../service/harness';
import { testCluster } from '../service/postgresCluster';

const TOLERANCE = 1e-9;

/** Penguins rows split in two, plus held-out rows with an unseen island, an unseen species and missing values. */
function penguinRows(target: string): { train: string; heldOut: string; header: string[] } {
  const [headerLine, ...lines] = readFileSync(join(DATASETS, 'penguins.csv'), 'utf8').trim().split('\n');
  const header = headerLine.split(',');
  const t = header.indexOf(target);
  const usable = lines.filter((line) => {
    const value = line.split(',')[t];
    return value !== '' && value !== '.';
  });
  // Every third row is held out, so both parts cover every species and island.
  const train = usable.filter((_, i) => i % 3 !== 0);
  const heldOut = usable.filter((_, i) => i % 3 === 0);
  const odd = header.map((name) => (name === 'Island' ? 'Atlantis' : name === 'Species' ? 'Unknown' : name === target ? heldOut[0].split(',')[t] : ''));
  const text = header.map((name, i) => (name === 'Beak Length (mm)' ? 'n/a' : heldOut[1].split(',')[i]));
  return { header, train: [headerLine, ...train].join('\n'), heldOut: [headerLine, ...heldOut, odd.join(','), text.join(',')].join('\n') };
}

interface Scored {
  prediction: string | number;
  probability?: number;
  score: number;
  contributions: Record<string, number>;
}

function runPython(source: string, csv: string): Scored[] {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-export-'));
  try {
    writeFileSync(join(dir, 'model.py'), source);
    writeFileSync(join(dir, 'rows.csv'), csv);
    const out = execFileSync('python3', [join(dir, 'model.py'), join(dir, 'rows.csv')], { encoding: 'utf8' });
    return out.trim().split('\n').map((line) => JSON.parse(line) as Scored);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Row = Record<string, unknown>;
/** Runs a scoring query over the CSV loaded as `input_rows` (empty fields as NULL): numeric columns typed as numbers, or every column as text. */
type SqlEngine = (query: string, csv: string, numeric: ReadonlySet<string>) => Promise<Row[]>;

function csvCells(csv: string): { header: string[]; rows: (string | null)[][] } {
  const [headerLine, ...lines] = csv.split('\n');
  return { header: headerLine.split(','), rows: lines.map((line) => line.split(',').map((v) => (v === '' ? null : v))) };
}

/** SQLite: numeric columns REAL, the rest TEXT (text in a REAL column stays text, as SQLite keeps it). */
const sqlite: SqlEngine = async (query, csv, numeric) => {
  const { header, rows } = csvCells(csv);
  const db = new Database(':memory:');
  try {
    db.run(`CREATE TABLE input_rows (${header.map((h) => `"${h}" ${numeric.has(h) ? 'REAL' : 'TEXT'}`).join(', ')})`);
    for (const values of rows) db.run(`INSERT INTO input_rows VALUES (${header.map(() => '?').join(', ')})`, values);
    return db.all(query);
  } finally {
    db.close();
  }
};

/** PostgreSQL: numeric columns DOUBLE PRECISION (a cell that is not a number becomes NaN), or every column TEXT. */
function postgres(database: () => Promise<Client>): SqlEngine {
  return async (query, csv, numeric) => {
    const { header, rows } = csvCells(csv);
    const client = await database();
    await client.query('DROP TABLE IF EXISTS input_rows');
    await client.query(`CREATE TABLE input_rows (${header.map((h) => `"${h}" ${numeric.has(h) ? 'DOUBLE PRECISION' : 'TEXT'}`).join(', ')})`);
    for (const values of rows) {
      const cells = values.map((v, i) => (numeric.has(header[i]) && v !== null && Number.isNaN(Number(v)) ? 'NaN' : v));
      await client.query(`INSERT INTO input_rows VALUES (${header.map((_, i) => `$${i + 1}`).join(', ')})`, cells);
    }
    const result = await client.query({ text: query, types: { getTypeParser: () => (v: string) => (/^-?[\d.]+(e[-+]?\d+)?$/i.test(v) ? Number(v) : v) } });
    return result.rows as Row[];
  };
}

/** DuckDB: every column VARCHAR, numbers read from their text. */
const duckdb: SqlEngine = async (query, csv) => {
  const { header, rows } = csvCells(csv);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE TABLE input_rows (${header.map((h) => `"${h}" VARCHAR`).join(', ')})`);
    const appender = await connection.createAppender('input_rows');
    for (const values of rows) {
      for (const v of values) if (v === null) appender.appendNull(); else appender.appendVarchar(v);
      appender.endRow();
    }
    appender.closeSync();
    return (await connection.runAndReadAll(query)).getRowObjectsJS() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
};

const numericFeatures = (tables: ScoringTables): string[] =>
  tables.partitions.flatMap((p) => p.scorer.features.filter((f) => f.kind === 'numeric').map((f) => f.name));

async function runSql(engine: SqlEngine, query: string, csv: string, tables: ScoringTables): Promise<Scored[]> {
  return (await engine(query, csv, new Set(numericFeatures(tables)))).map((row) => ({
    prediction: row.xm_prediction as string | number,
    probability: row.xm_probability as number | undefined,
    score: row.xm_score as number,
    contributions: Object.fromEntries(tables.features.map((f) => [f, row[`xm_contribution_${f}`] as number])),
  }));
}

interface ScoredClasses {
  prediction: string;
  class_probabilities: Record<string, number>;
  class_contributions: Record<string, Record<string, number>>;
}

async function runMulticlassSql(engine: SqlEngine, query: string, csv: string, tables: MulticlassScoringTables): Promise<ScoredClasses[]> {
  const numeric = new Set(tables.classTables.flatMap(numericFeatures));
  const byClass = <T>(f: (cls: string) => T): Record<string, T> => Object.fromEntries(tables.classes.map((c) => [c, f(c)]));
  return (await engine(query, csv, numeric)).map((row) => ({
    prediction: row.xm_prediction as string,
    class_probabilities: byClass((c) => row[`xm_probability_${c}`] as number),
    class_contributions: byClass((c) => Object.fromEntries(tables.features.map((f) => [f, row[`xm_contribution_${c}_${f}`] as number]))),
  }));
}

function assertClassesMatch(scored: ScoredClasses[], service: Predictions, tables: MulticlassScoringTables, what: string): void {
  assert.equal(scored.length, service.n, `${what}: one result per row`);
  scored.forEach((row, r) => {
    const at = `${what}, row ${r}`;
    assert.equal(row.prediction, service.predictions[r], `${at}: prediction`);
    for (const cls of tables.classes) {
      const expected = service.class_probabilities![cls][r];
      assert.ok(Math.abs(row.class_probabilities[cls] - expected) <= TOLERANCE, `${at}: probability of ${cls} ${row.class_probabilities[cls]} vs ${expected}`);
      for (const [feature, values] of Object.entries(service.class_contributions![cls])) {
        assert.ok(Math.abs(row.class_contributions[cls][feature] - values[r]) <= TOLERANCE, `${at}: contribution of ${feature} to ${cls} ${row.class_contributions[cls][feature]} vs ${values[r]}`);
      }
    }
  });
}

function assertMatches(scored: Scored[], service: Predictions, tables: ScoringTables, what: string): void {
  assert.equal(scored.length, service.n, `${what}: one result per row`);
  scored.forEach((row, r) => {
    const at = `${what}, row ${r}`;
    if (tables.modelType === 'classifier') {
      assert.equal(row.prediction, service.predictions[r], `${at}: prediction`);
      assert.ok(Math.abs((row.probability ?? NaN) - service.probabilities![r]) <= TOLERANCE, `${at}: probability ${row.probability} vs ${service.probabilities![r]}`);
    } else {
      assert.ok(Math.abs((row.prediction as number) - (service.predictions[r] as number)) <= TOLERANCE, `${at}: prediction ${row.prediction} vs ${service.predictions[r]}`);
    }
    if (service.scores) assert.ok(Math.abs(row.score - service.scores[r]) <= TOLERANCE, `${at}: score`);
    for (const feature of tables.features) {
      const expected = service.contributions![feature][r];
      assert.ok(Math.abs(row.contributions[feature] - expected) <= TOLERANCE, `${at}: contribution of ${feature} ${row.contributions[feature]} vs ${expected}`);
    }
  });
}

describe('model export: Python and SQL reproduce the service', function () {
  this.timeout(120_000);
  const env = useService();
  let client: Client | null = null;
  before(async () => {
    client = new Client({ connectionString: await (await testCluster()).createDatabase() });
    await client.connect();
  });
  after(async () => {
    await client?.end();
  });

  /**
   * The SQL export in each dialect, run where it runs: SQLite with numeric columns typed; PostgreSQL with numeric
   * columns typed (and named to the query) and with every column text; DuckDB with every column text.
   */
  const dialects = (tables: ExportTables) => {
    const numeric = tables.modelType === 'multiclass' ? tables.classTables.flatMap(numericFeatures) : numericFeatures(tables);
    const pg = postgres(async () => client as Client);
    const asText: SqlEngine = (query, csv) => pg(query, csv, new Set());
    return [
      { what: 'SQLite', query: toSql(tables), engine: sqlite },
      { what: 'PostgreSQL', query: toSql(tables, 'postgres', { numericColumns: numeric }), engine: pg },
      { what: 'PostgreSQL, text columns', query: toSql(tables, 'postgres'), engine: asText },
      { what: 'DuckDB', query: toSql(tables, 'duckdb'), engine: duckdb },
    ];
  };

  const cases = [
    { name: 'boosted classifier', target: 'Sex', model_type: 'classifier', method: 'boosted' },
    { name: 'xplainable classifier', target: 'Sex', model_type: 'classifier', method: 'xplainable' },
    { name: 'boosted regressor', target: 'Body Mass (g)', model_type: 'regressor', method: 'boosted' },
    { name: 'xplainable regressor partitioned by island', target: 'Body Mass (g)', model_type: 'regressor', method: 'xplainable', partition_on: 'Island' },
    { name: 'boosted classifier partitioned by island', target: 'Sex', model_type: 'classifier', method: 'boosted', partition_on: 'Island' },
    { name: 'boosted multiclass classifier', target: 'Species', model_type: 'classifier', method: 'boosted' },
    { name: 'xplainable multiclass classifier partitioned by island', target: 'Species', model_type: 'classifier', method: 'xplainable', partition_on: 'Island' },
  ] as const;

  async function trainAndPredict(c: (typeof cases)[number]) {
    const { train, heldOut } = penguinRows(c.target);
    const trained = await env.call('POST', '/v1/models/train', {
      json: { target_column: c.target, model_name: c.name, csv_content: train, model_type: c.model_type, method: c.method, ...('partition_on' in c ? { partition_on: c.partition_on } : {}) },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
    assert.equal(payload.status, 200, JSON.stringify(payload.body));
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), `${c.name} v1`);
    assert.equal(tables.method, c.method);
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    return { tables, heldOut, service: PredictionsSchema.parse(predicted.body) };
  }

  for (const c of cases.filter((x) => x.target !== 'Species')) {
    it(`${c.name}: held-out rows score the same in Python, in SQLite, PostgreSQL and DuckDB, and in the service`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c);
      assert.ok(tables.modelType !== 'multiclass');
      assert.equal(tables.partitions.length > 1, 'partition_on' in c, 'partitions are exported');
      const python = toPython(tables);
      for (const feature of tables.features) assert.ok(python.includes(JSON.stringify(feature)), `the Python names ${feature}`);
      assertMatches(runPython(python, heldOut), service, tables, 'Python');
      for (const { what, query, engine } of dialects(tables)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
    });
  }

  for (const c of cases.filter((x) => x.target === 'Species')) {
    it(`${c.name}: held-out rows get the same class probabilities, class and contributions in Python, in SQLite, PostgreSQL and DuckDB, and in the service`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c);
      assert.ok(tables.modelType === 'multiclass');
      assert.deepEqual(tables.classes, ['Adelie', 'Chinstrap', 'Gentoo']);
      assert.equal(tables.classTables[0].partitions.length > 1, 'partition_on' in c, 'partitions are exported');
      const python = toPython(tables);
      assert.ok(python.includes('CLASSES = ("Adelie", "Chinstrap", "Gentoo")'));
      assertClassesMatch(runPython(python, heldOut) as unknown as ScoredClasses[], service, tables, 'Python');
      for (const { what, query, engine } of dialects(tables)) assertClassesMatch(await runMulticlassSql(engine, query, heldOut, tables), service, tables, what);
    });
  }
});
