import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Database } from 'node-sqlite3-wasm';
import { Client } from 'pg';
import { sqlName } from '../../../src/codeText/sql';
import type { Predictions } from '../../../src/contract';
import { mulberry32 } from '../../../src/engine';
import { scoredColumn, toSql, type ExportTables, type MulticlassScoringTables, type ScoringTables } from '../../../src/modelExport';
import { DATASETS } from '../service/harness';
import { testCluster } from '../service/postgresCluster';

/** How close an exported score must be to the service's. */
export const TOLERANCE = 1e-9;

export interface Scored {
  prediction: string | number;
  probability?: number;
  score: number;
  contributions: Record<string, number>;
  /** Only for a model with pair terms. */
  interaction_contributions?: Record<string, number>;
}

export interface ScoredClasses {
  prediction: string;
  class_probabilities: Record<string, number>;
  class_contributions: Record<string, Record<string, number>>;
  /** Only for a model with pair terms. */
  class_interaction_contributions?: Record<string, Record<string, number>>;
}

/** Penguins rows split in two, plus held-out rows with an unseen island, an unseen species and missing values. */
export function penguinRows(target: string): { train: string; heldOut: string; header: string[] } {
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

export type PairTarget = 'classifier' | 'regressor' | 'multiclass';

/**
 * Rows whose target needs two pair terms: x1 and x2 (numeric) act as an XOR (the sign of their product), and so do x3
 * (numeric) and group (categorical: Alpha and Beta against Gamma and Delta), the second less so in the South region;
 * noise does nothing. A few training values are missing. The held-out rows add missing values, an
 * unseen group, text in a numeric column, an unseen region and values on the pair terms' bin bounds (`bounds`).
 */
export function pairRows(target: PairTarget, bounds: number[] = []): { train: string; heldOut: string } {
  const random = mulberry32(26);
  const header = ['x1', 'x2', 'x3', 'group', 'noise', 'region', 'target'];
  const groups = ['Alpha', 'Beta', 'Gamma', 'Delta'];
  const row = (missing: number): string[] => {
    const [x1, x2, x3, noise] = [0, 0, 0, 0].map(() => 2 * random() - 1);
    const group = groups[Math.floor(random() * groups.length)];
    const region = random() < 0.5 ? 'North' : 'South';
    const first = Math.sign(x1 * x2);
    const second = Math.sign(x3) * (group === 'Alpha' || group === 'Beta' ? 1 : -1) * (region === 'South' ? 0.6 : 1);
    const value = {
      regressor: () => (2 * first + 2 * second + x1 + 0.3 * (random() - 0.5)).toFixed(4),
      classifier: () => (random() < 1 / (1 + Math.exp(-(2.5 * first + 2.5 * second + x1))) ? 'yes' : 'no'),
      multiclass: () => (random() < 0.1 ? ['red', 'green', 'blue'][Math.floor(random() * 3)] : second < 0 ? 'green' : first > 0 ? 'red' : 'blue'),
    }[target]();
    const hidden = (text: string) => (random() < missing ? '' : text);
    return [hidden(x1.toFixed(4)), x2.toFixed(4), hidden(x3.toFixed(4)), hidden(group), noise.toFixed(4), region, value];
  };
  const train = Array.from({ length: 1500 }, () => row(0.04));
  const heldOut = Array.from({ length: 150 }, () => row(0));
  const odd = (changes: Record<string, string>) => header.map((name, i) => changes[name] ?? heldOut[0][i]);
  const unusual = [
    odd({ x1: '' }),
    odd({ x2: 'n/a' }),
    odd({ group: 'Omega' }),
    odd({ group: '' }),
    odd({ x3: '', group: 'Omega' }),
    odd({ region: 'West' }),
    odd({ x1: '', x2: '', x3: '', group: '', noise: '', region: '' }),
    ...bounds.flatMap((bound) => ['x1', 'x2', 'x3'].map((name) => odd({ [name]: String(bound) }))),
  ];
  const csv = (rows: string[][]) => [header, ...rows].map((r) => r.join(',')).join('\n');
  return { train: csv(train), heldOut: csv([...heldOut, ...unusual]) };
}

/** Every finite bound of a numeric axis of any pair term of the tables (of every partition and class). */
export function pairBounds(tables: ExportTables): number[] {
  const binary = tables.modelType === 'multiclass' ? tables.classTables : [tables];
  const axes = binary.flatMap((t) => t.partitions.flatMap((p) => p.scorer.pairs.flatMap((pair) => pair.axes)));
  return [...new Set(axes.flatMap((axis) => (axis.kind === 'numeric' ? axis.uppers.filter(Number.isFinite) : [])))];
}

/** Runs an exported module as a script on a CSV, as its docstring says: one JSON object per row. */
export function runPython(source: string, csv: string): Scored[] {
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

/** A CSV field as RFC 4180 writes it: quoted (quotes doubled) when it holds a quote, a comma or a line break. */
export const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** The header and rows of a CSV (RFC 4180 quoting; an empty field is null). */
export function csvCells(csv: string): { header: string[]; rows: (string | null)[][] } {
  const records: string[][] = [[]];
  let field = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const ch = csv[i];
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') field += csv[++i];
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      records[records.length - 1].push(field);
      field = '';
    } else if (ch === '\n') {
      records[records.length - 1].push(field);
      records.push([]);
      field = '';
    } else field += ch;
  }
  records[records.length - 1].push(field);
  const [header, ...rows] = records;
  return { header, rows: rows.map((r) => r.map((v) => (v === '' ? null : v))) };
}

type Row = Record<string, unknown>;
/** Runs a scoring query over the CSV loaded as `input_rows` (empty fields as NULL): numeric columns typed as numbers, or every column as text. */
export type SqlEngine = (query: string, csv: string, numeric: ReadonlySet<string>) => Promise<Row[]>;

/** SQLite: numeric columns REAL, the rest TEXT (text in a REAL column stays text, as SQLite keeps it). */
export const sqlite: SqlEngine = async (query, csv, numeric) => {
  const { header, rows } = csvCells(csv);
  const db = new Database(':memory:');
  try {
    db.run(`CREATE TABLE input_rows (${header.map((h) => `${sqlName(h)} ${numeric.has(h) ? 'REAL' : 'TEXT'}`).join(', ')})`);
    for (const values of rows) db.run(`INSERT INTO input_rows VALUES (${header.map(() => '?').join(', ')})`, values);
    return db.all(query);
  } finally {
    db.close();
  }
};

/**
 * SQLite as the sqlite3 shell's `.import rows.csv input_rows` leaves a CSV: every column TEXT, every field text (an
 * empty field is '', never NULL), so numbers are stored as their text.
 */
export const sqliteImported: SqlEngine = async (query, csv) => {
  const { header, rows } = csvCells(csv);
  const db = new Database(':memory:');
  try {
    db.run(`CREATE TABLE input_rows (${header.map((h) => `${sqlName(h)} TEXT`).join(', ')})`);
    for (const values of rows) db.run(`INSERT INTO input_rows VALUES (${header.map(() => '?').join(', ')})`, values.map((v) => v ?? ''));
    assert.equal(db.get(`SELECT count(*) AS n FROM input_rows WHERE ${header.map((h) => `typeof(${sqlName(h)}) <> 'text'`).join(' OR ')}`)?.n, 0, 'every value is text');
    return db.all(query);
  } finally {
    db.close();
  }
};

/** PostgreSQL: numeric columns DOUBLE PRECISION (a cell that is not a number becomes NaN), or every column TEXT. */
export function postgres(database: () => Promise<Client>): SqlEngine {
  return async (query, csv, numeric) => {
    const { header, rows } = csvCells(csv);
    const client = await database();
    await client.query('DROP TABLE IF EXISTS input_rows');
    await client.query(`CREATE TABLE input_rows (${header.map((h) => `${sqlName(h)} ${numeric.has(h) ? 'DOUBLE PRECISION' : 'TEXT'}`).join(', ')})`);
    for (const values of rows) {
      const cells = values.map((v, i) => (numeric.has(header[i]) && v !== null && Number.isNaN(Number(v)) ? 'NaN' : v));
      await client.query(`INSERT INTO input_rows VALUES (${header.map((_, i) => `$${i + 1}`).join(', ')})`, cells);
    }
    const result = await client.query({ text: query, types: { getTypeParser: () => (v: string) => (/^-?[\d.]+(e[-+]?\d+)?$/i.test(v) ? Number(v) : v) } });
    return result.rows as Row[];
  };
}

/** DuckDB: every column VARCHAR, numbers read from their text. */
export const duckdb: SqlEngine = async (query, csv) => {
  const { header, rows } = csvCells(csv);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE TABLE input_rows (${header.map((h) => `${sqlName(h)} VARCHAR`).join(', ')})`);
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

export const numericFeatures = (tables: ScoringTables): string[] =>
  tables.partitions.flatMap((p) => p.scorer.features.filter((f) => f.kind === 'numeric').map((f) => f.name));

/** A database of the PostgreSQL test cluster for the suite's SQL runs: connected before its tests, closed after them. */
export function usePostgres(): () => Client {
  let client: Client | null = null;
  before(async () => {
    client = new Client({ connectionString: await (await testCluster()).createDatabase() });
    await client.connect();
  });
  after(async () => {
    await client?.end();
  });
  return () => client as Client;
}

/**
 * The SQL export in each dialect, run where it runs: SQLite with numeric columns typed and with every column text (as
 * `.import` makes them); PostgreSQL with numeric columns typed (and named to the query) and with every column text;
 * DuckDB with every column text.
 */
export function sqlRuns(tables: ExportTables, client: () => Client): { what: string; query: string; engine: SqlEngine }[] {
  const numeric = tables.modelType === 'multiclass' ? tables.classTables.flatMap(numericFeatures) : numericFeatures(tables);
  const pg = postgres(async () => client());
  const asText: SqlEngine = (query, csv) => pg(query, csv, new Set());
  return [
    { what: 'SQLite', query: toSql(tables), engine: sqlite },
    { what: 'SQLite, text columns as .import makes them', query: toSql(tables), engine: sqliteImported },
    { what: 'PostgreSQL', query: toSql(tables, 'postgres', { numericColumns: numeric }), engine: pg },
    { what: 'PostgreSQL, text columns', query: toSql(tables, 'postgres'), engine: asText },
    { what: 'DuckDB', query: toSql(tables, 'duckdb'), engine: duckdb },
  ];
}

export async function runSql(engine: SqlEngine, query: string, csv: string, tables: ScoringTables): Promise<Scored[]> {
  return (await engine(query, csv, new Set(numericFeatures(tables)))).map((row) => ({
    prediction: row.xm_prediction as string | number,
    probability: row.xm_probability as number | undefined,
    score: row.xm_score as number,
    contributions: Object.fromEntries(tables.features.map((f) => [f, row[scoredColumn('contribution', f)] as number])),
    ...(tables.pairs.length ? { interaction_contributions: Object.fromEntries(tables.pairs.map((p) => [p, row[scoredColumn('interaction', p)] as number])) } : {}),
  }));
}

export async function runMulticlassSql(engine: SqlEngine, query: string, csv: string, tables: MulticlassScoringTables): Promise<ScoredClasses[]> {
  const numeric = new Set(tables.classTables.flatMap(numericFeatures));
  const byClass = <T>(f: (cls: string) => T): Record<string, T> => Object.fromEntries(tables.classes.map((c) => [c, f(c)]));
  return (await engine(query, csv, numeric)).map((row) => ({
    prediction: row.xm_prediction as string,
    class_probabilities: byClass((c) => row[`xm_probability_${c}`] as number),
    class_contributions: byClass((c) => Object.fromEntries(tables.features.map((f) => [f, row[scoredColumn('contribution', c, f)] as number]))),
    ...(tables.classTables.some((t) => t.pairs.length)
      ? { class_interaction_contributions: byClass((c) => Object.fromEntries(tables.classTables[tables.classes.indexOf(c)].pairs.map((p) => [p, row[scoredColumn('interaction', c, p)] as number]))) }
      : {}),
  }));
}

export function assertClassesMatch(scored: ScoredClasses[], service: Predictions, tables: MulticlassScoringTables, what: string): void {
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
    const byClass = service.class_interaction_contributions;
    assert.deepEqual(Object.keys(row.class_interaction_contributions ?? {}), Object.keys(byClass ?? {}), `${at}: the classes whose pair terms are explained`);
    for (const cls of Object.keys(byClass ?? {})) assertSamePairs(row.class_interaction_contributions?.[cls], byClass?.[cls], r, `${at}, ${cls}`);
  });
}

/** The pair contributions match the service's: the same pairs (none when the service explains none), each within the tolerance. */
function assertSamePairs(exported: Record<string, number> | undefined, service: Record<string, number[]> | undefined, r: number, at: string): void {
  assert.deepEqual(Object.keys(exported ?? {}).sort(), Object.keys(service ?? {}).sort(), `${at}: the pair terms explained`);
  for (const [pair, values] of Object.entries(service ?? {})) {
    const got = (exported as Record<string, number>)[pair];
    assert.ok(Math.abs(got - values[r]) <= TOLERANCE, `${at}: contribution of the pair ${pair} ${got} vs ${values[r]}`);
  }
}

export function assertMatches(scored: Scored[], service: Predictions, tables: ScoringTables, what: string): void {
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
    assertSamePairs(row.interaction_contributions, service.interaction_contributions, r, at);
  });
}
