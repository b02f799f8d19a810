import assert from 'node:assert/strict';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Client } from 'pg';
import { classifierCurves, evaluateClassifier, evaluateMulticlass, evaluateRegressor, mulberry32 } from '../../../../src/engine';
import { SQL_DIALECTS } from '../../../../src/modelExport';
import { classifierHistogramsInSql, classifierMetricsInSql, multiclassHistogramsInSql, multiclassMetricsInSql, regressorMetricsInSql, residualBinsInSql, type QueryRows } from '../../../../src/service/pushdown/sqlMetrics';
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

const CLASSES = ['a', 'b', 'c', 'd'];

/**
 * Rows of (y, p_0 … p_3): y the index of the actual class among CLASSES, never 3 (a class absent from the rows), and
 * for a few rows no class (NULL) or an index of none; probabilities on a coarse grid, so that the most probable class
 * ties and each class's probabilities tie across rows, some of them 0 (clipped for the log loss) or outside [0, 1].
 */
function multiclassRows(n: number, seed: number): (number | null)[][] {
  const random = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => {
    const actual = Math.floor(random() * 3);
    const y = i % 89 === 0 ? null : i % 97 === 0 ? 7 : actual;
    const p = CLASSES.map((_, k) => Math.round((0.3 * (k === actual ? 1 : 0) + 0.75 * random() - 0.03) * 20) / 20);
    return [y, ...p];
  });
}

/** The engine's evaluation of the rows whose y is a class, as the metrics on the wire. */
function multiclassExpected(rows: (number | null)[][]): Record<string, unknown> {
  const usable = rows.filter(([y]) => y !== null && y < CLASSES.length);
  const probabilities = Object.fromEntries(CLASSES.map((c, k) => [c, usable.map((r) => r[k + 1] as number)]));
  const { per_class: _perClass, ...metrics } = evaluateMulticlass(usable.map(([y]) => CLASSES[y as number]), probabilities, CLASSES);
  return metrics;
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
    { what: 'PostgreSQL', dialect: SQL_DIALECTS.postgres, queryRows: (async (sql) => (await pg.query(sql)).rows) as QueryRows },
    { what: 'DuckDB', dialect: SQL_DIALECTS.duckdb, queryRows: (async (sql) => (await duck.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[]) as QueryRows },
  ];

  it('a classifier’s metrics, rank AUC with ties and log loss included, leaving out rows of neither class', async () => {
    const { y, p } = classifierRows(3000, 7);
    const usable = y.map((v, i) => [v, p[i]]).filter(([v]) => v === 0 || v === 1);
    const full = evaluateClassifier(usable.map(([v]) => v), usable.map(([, q]) => q));
    const expected = { accuracy: full.accuracy, roc_auc: full.roc_auc, f1: full.f1, precision: full.precision, recall: full.recall, log_loss: full.log_loss, brier: full.brier, mcc: full.mcc, confusion_matrix: full.confusion_matrix };
    for (const { what, dialect, queryRows } of engines()) {
      const scored = `SELECT * FROM (VALUES ${values([y, p])}) AS t (y, p)`;
      const { metrics, nTest } = await classifierMetricsInSql(dialect, scored, queryRows);
      assertClose(metrics, expected, what);
      assert.equal(nTest, usable.length, what);
    }
  });

  it('a classifier’s curves from histograms counted in the database, probabilities on the thresholds and outside [0, 1] included', async () => {
    const { y, p } = classifierRows(3000, 7);
    const onThresholds = p.filter((q) => q >= 0 && q <= 1 && Math.abs(q * 100 - Math.round(q * 100)) < 1e-9 && Math.ceil(q * 100) !== Math.round(q * 100)).length;
    assert.ok(onThresholds > 10, `${onThresholds} probabilities fall on a threshold whose × 100 rounds above it`);
    const usable = y.map((v, i) => [v, p[i]]).filter(([v]) => v === 0 || v === 1);
    const { scores, roc, precision_recall_curve, auc_pr, probability_bins } = evaluateClassifier(usable.map(([v]) => v), usable.map(([, q]) => q), { labels: ['no', 'yes'] });
    for (const { what, dialect, queryRows } of engines()) {
      const curves = classifierCurves(await classifierHistogramsInSql(dialect, `SELECT * FROM (VALUES ${values([y, p])}) AS t (y, p)`, queryRows), ['no', 'yes']);
      assert.deepEqual(curves, { scores, roc, precision_recall_curve, auc_pr, probability_bins }, what);
    }
  });

  it('a multiclass model’s ROC curve of every class from histograms counted in the database', async () => {
    const rows = multiclassRows(3000, 13);
    const usable = rows.filter(([y]) => y !== null && y < CLASSES.length);
    const probabilities = Object.fromEntries(CLASSES.map((c, k) => [c, usable.map((r) => r[k + 1] as number)]));
    const expected = evaluateMulticlass(usable.map(([y]) => CLASSES[y as number]), probabilities, CLASSES).per_class.map((c) => c.roc);
    for (const { what, dialect, queryRows } of engines()) {
      const histograms = await multiclassHistogramsInSql(dialect, multiclassScored(rows), CLASSES, queryRows);
      assert.deepEqual(histograms.map((h) => classifierCurves(h).roc), expected, what);
    }
  });

  it('a regressor’s residual histogram counted in the database', async () => {
    const { y, yhat } = regressorRows(3000, 5, false);
    const expected = evaluateRegressor(y, yhat).residual_bins;
    for (const { what, dialect, queryRows } of engines()) {
      const got = await residualBinsInSql(dialect, `SELECT * FROM (VALUES ${values([y, yhat])}, (NULL, 3.5)) AS t (y, yhat)`, queryRows);
      assert.deepEqual(got, expected, what);
    }
  });

  it('a classifier with one class only has no AUC', async () => {
    for (const { what, dialect, queryRows } of engines()) {
      const { metrics } = await classifierMetricsInSql(dialect, 'SELECT * FROM (VALUES (1, 0.7), (1, 0.2)) AS t (y, p)', queryRows);
      assert.equal(metrics.roc_auc, null, what);
      assert.equal(metrics.accuracy, 0.5, what);
    }
  });

  const multiclassScored = (rows: (number | null)[][]) => `SELECT * FROM (VALUES ${rows.map((r) => `(${r.map(String).join(', ')})`).join(', ')}) AS t (y, ${CLASSES.map((_, k) => `p_${k}`).join(', ')})`;

  it('a multiclass model’s metrics, with ties, a class absent from the rows, and rows of no class left out', async () => {
    const rows = multiclassRows(3000, 13);
    const expected = multiclassExpected(rows);
    const ties = rows.filter(([y, ...p]) => y !== null && p.filter((v) => v === Math.max(...(p as number[]))).length > 1).length;
    assert.ok(ties > 100, `the most probable class ties on ${ties} rows`);
    assert.equal((expected.confusion_matrix as { matrix: number[][] }).matrix[3].join(), '0,0,0,0', 'class d is absent from the rows');
    for (const { what, dialect, queryRows } of engines()) {
      const { metrics, nTest } = await multiclassMetricsInSql(dialect, multiclassScored(rows), CLASSES, queryRows);
      assertClose(metrics, expected, what);
      assert.deepEqual(Object.keys(metrics).sort(), Object.keys(expected).sort(), what);
      assert.equal(nTest, rows.filter(([y]) => y !== null && y < CLASSES.length).length, what);
    }
  });

  it('a multiclass model on rows of one class has no AUC or MCC, and on no rows no log loss', async () => {
    const oneClass = multiclassRows(200, 17).map(([y, ...p]) => [y === null ? null : 1, ...p]);
    const noClass = multiclassRows(50, 19).map(([, ...p], i) => [i % 2 ? null : 7, ...p]);
    for (const rows of [oneClass, noClass]) {
      const expected = multiclassExpected(rows);
      for (const { what, dialect, queryRows } of engines()) {
        const { metrics } = await multiclassMetricsInSql(dialect, multiclassScored(rows), CLASSES, queryRows);
        assertClose(metrics, expected, what);
        assert.equal(metrics.roc_auc, null, what);
        assert.equal(metrics.mcc, null, what);
      }
    }
  });

  it('a regressor’s metrics, and no MAPE when an actual value is 0', async () => {
    for (const withZero of [false, true]) {
      const { y, yhat } = regressorRows(2000, 11, withZero);
      const full = evaluateRegressor(y, yhat);
      const expected = { r2: full.r2, rmse: full.rmse, mae: full.mae, mape: full.mape, explained_variance: full.explained_variance };
      for (const { what, dialect, queryRows } of engines()) {
        const scored = `SELECT * FROM (VALUES ${values([y, yhat])}) AS t (y, yhat)`;
        assertClose((await regressorMetricsInSql(dialect, scored, queryRows)).metrics, expected, `${what}${withZero ? ', a zero actual' : ''}`);
      }
    }
  });
});
