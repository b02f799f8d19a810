import assert from 'node:assert/strict';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Client } from 'pg';
import { evaluateClassifier, evaluateRegressor, mulberry32 } from '../../../../src/engine';
import { SQL_DIALECTS } from '../../../../src/modelExport';
import { classifierMetricsInSql, regressorMetricsInSql, type OneRow } from '../../../../src/service/pushdown/sqlMetrics';
import { testCluster } from '../postgresCluster';

const TOLERANCE = 1e-9;

/** Rows of (y, p): probabilities on a coarse grid so that many tie, some outside [0, 1], and a few rows of neither class. */
function classifierRows(n: number, seed: number): { y: number[]; p: number[] } {
  const random = mulberry32(seed);
  const y: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const label = random() < 0.3 ? 1 : 0;
    y.push(i % 97 === 0 ? 2 : label);
    p.push(Math.round((0.35 * label + 0.65 * random() - 0.02) * 200) / 200);
  }
  return { y, p };
}

function regressorRows(n: number, seed: number, withZero: boolean): { y: number[]; yhat: number[] } {
  const random = mulberry32(seed);
  const y = Array.from({ length: n }, (_, i) => (withZero && i === 3 ? 0 : 1000 + 50 * random()));
  return { y, yhat: y.map((v) => v + 10 * (random() - 0.5)) };
}

function assertClose(actual: Record<string, unknown>, expected: Record<string, unknown>, what: string): void {
  for (const [key, value] of Object.entries(expected)) {
    const got = actual[key];
    if (typeof value === 'number' && typeof got === 'number') assert.ok(Math.abs(got - value) <= TOLERANCE * Math.max(1, Math.abs(value)), `${what}: ${key} ${got} vs ${value}`);
    else assert.deepEqual(got, value, `${what}: ${key}`);
  }
}

const values = (columns: number[][]) => columns[0].map((_, r) => `(${columns.map((c) => c[r]).join(', ')})`).join(', ');

describe('pushdown: test metrics computed in the database equal the engine’s', function () {
  this.timeout(60_000);
  let pg: Client;
  let duck: DuckDBConnection;
  before(async () => {
    pg = new Client({ connectionString: await (await testCluster()).createDatabase() });
    await pg.connect();
    duck = await (await DuckDBInstance.create(':memory:')).connect();
  });
  after(async () => {
    await pg.end();
    duck.closeSync();
  });
  const engines = () => [
    { what: 'PostgreSQL', dialect: SQL_DIALECTS.postgres, oneRow: (async (sql) => (await pg.query(sql)).rows[0]) as OneRow },
    { what: 'DuckDB', dialect: SQL_DIALECTS.duckdb, oneRow: (async (sql) => (await duck.runAndReadAll(sql)).getRowObjectsJS()[0] as Record<string, unknown>) as OneRow },
  ];

  it('a classifier’s metrics, rank AUC with ties and log loss included, leaving out rows of neither class', async () => {
    const { y, p } = classifierRows(3000, 7);
    const usable = y.map((v, i) => [v, p[i]]).filter(([v]) => v === 0 || v === 1);
    const full = evaluateClassifier(usable.map(([v]) => v), usable.map(([, q]) => q));
    const expected = { accuracy: full.accuracy, roc_auc: full.roc_auc, f1: full.f1, precision: full.precision, recall: full.recall, log_loss: full.log_loss, brier: full.brier, mcc: full.mcc, confusion_matrix: full.confusion_matrix };
    for (const { what, dialect, oneRow } of engines()) {
      const scored = `SELECT * FROM (VALUES ${values([y, p])}) AS t (y, p)`;
      const { metrics, nTest } = await classifierMetricsInSql(dialect, scored, oneRow);
      assertClose(metrics, expected, what);
      assert.equal(nTest, usable.length, what);
    }
  });

  it('a classifier with one class only has no AUC', async () => {
    for (const { what, dialect, oneRow } of engines()) {
      const { metrics } = await classifierMetricsInSql(dialect, 'SELECT * FROM (VALUES (1, 0.7), (1, 0.2)) AS t (y, p)', oneRow);
      assert.equal(metrics.roc_auc, null, what);
      assert.equal(metrics.accuracy, 0.5, what);
    }
  });

  it('a regressor’s metrics, and no MAPE when an actual value is 0', async () => {
    for (const withZero of [false, true]) {
      const { y, yhat } = regressorRows(2000, 11, withZero);
      const full = evaluateRegressor(y, yhat);
      const expected = { r2: full.r2, rmse: full.rmse, mae: full.mae, mape: full.mape, explained_variance: full.explained_variance };
      for (const { what, dialect, oneRow } of engines()) {
        const scored = `SELECT * FROM (VALUES ${values([y, yhat])}) AS t (y, yhat)`;
        assertClose((await regressorMetricsInSql(dialect, scored, oneRow)).metrics, expected, `${what}${withZero ? ', a zero actual' : ''}`);
      }
    }
  });
});
