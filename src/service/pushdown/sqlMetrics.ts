import type { ClassifierMetrics, MulticlassClassMetrics, MulticlassMetrics, RegressorMetrics } from '../../contract';
import { CURVE_POINTS, histogramBins, multiclassMetricsOfCounts, RESIDUAL_BINS, type ClassifierHistograms } from '../../engine';
import { firstMostProbable, type SqlDialect } from '../../modelExport';

const LOG_CLIP = 1e-15;

/** A probability clipped as the engine clips it for the log loss. */
const logClipped = (dialect: SqlDialect, p: string) => dialect.least(`1 - ${LOG_CLIP}`, dialect.greatest(`${LOG_CLIP}`, p));
/** A probability clipped to [0, 1], as the engine ranks it for the AUC. */
const withinUnit = (dialect: SqlDialect, p: string) => dialect.least('1.0', dialect.greatest('0.0', p));

/**
 * The rank AUC's pieces over rows grouped by score `p` (`np` positives and `nn` negatives per group, one group per
 * score): the negatives scoring lower than a group, and the Mann–Whitney U, each positive counting the negatives
 * below it and half of those tied with it.
 */
const negativesBelow = (partitionBy: string) => `COALESCE(SUM(nn) OVER (${partitionBy}ORDER BY p ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)`;
const RANK_U = 'SUM(np * (below + nn / 2.0))';

/** Metrics and the number of rows they were computed on. */
export interface MetricsOfRows<M> {
  metrics: M;
  nTest: number;
}

/** Runs one statement and hands back its rows. */
export type QueryRows = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * A binary classifier's test metrics computed where the rows are, from `scored`: a query whose rows hold `y` (1 for
 * the positive label, 0 for the negative; rows with neither are left out) and `p`, the probability the model gives.
 * The rows are grouped by probability, so every metric, the rank AUC included, comes from one pass over them and
 * equals the engine's `evaluateClassifier` on the same rows.
 */
export async function classifierMetricsInSql(dialect: SqlDialect, scored: string, queryRows: QueryRows): Promise<MetricsOfRows<ClassifierMetrics>> {
  const sql = `
WITH ${dialect.step('usable')}
  SELECT CAST(y AS DOUBLE PRECISION) AS y, ${withinUnit(dialect, 'CAST(p AS DOUBLE PRECISION)')} AS p FROM (${scored}) AS scored WHERE y IN (0, 1)
), ${dialect.step('grouped')}
  SELECT p, SUM(y) AS np, COUNT(*) - SUM(y) AS nn FROM usable GROUP BY p
), ranked AS (
  SELECT p, np, nn, ${negativesBelow('')} AS below FROM grouped
)
SELECT
  SUM(np) AS positives,
  SUM(nn) AS negatives,
  SUM(CASE WHEN p > 0.5 THEN np ELSE 0 END) AS tp,
  SUM(CASE WHEN p > 0.5 THEN nn ELSE 0 END) AS fp,
  SUM(np * (1 - p) * (1 - p) + nn * p * p) AS brier,
  SUM(-np * LN(${logClipped(dialect, 'p')}) - nn * LN(1 - ${logClipped(dialect, 'p')})) AS log_loss,
  ${RANK_U} AS u
FROM ranked`;
  const [row] = await queryRows(sql);
  const positives = Number(row.positives ?? 0);
  const negatives = Number(row.negatives ?? 0);
  const tp = Number(row.tp ?? 0);
  const fp = Number(row.fp ?? 0);
  const fn = positives - tp;
  const tn = negatives - fp;
  const n = positives + negatives;
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const mccDen = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
  const logLoss = Number(row.log_loss) / n;
  const metrics = {
    accuracy: n ? (tp + tn) / n : 0,
    roc_auc: positives > 0 && negatives > 0 ? Number(row.u) / (positives * negatives) : null,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    precision,
    recall,
    log_loss: n && Number.isFinite(logLoss) ? logLoss : null,
    brier: n ? Number(row.brier) / n : 0,
    mcc: mccDen > 0 ? (tp * tn - fp * fn) / mccDen : null,
    confusion_matrix: [
      [tn, fp],
      [fn, tp],
    ],
  };
  return { metrics, nTest: n };
}

/**
 * A regressor's test metrics computed where the rows are, from `scored`: a query whose rows hold the actual `y` and
 * the prediction `yhat` (rows without an actual value are left out); the same sums as the engine's
 * `evaluateRegressor`, in two passes so that the variances keep their precision.
 */
export async function regressorMetricsInSql(dialect: SqlDialect, scored: string, queryRows: QueryRows): Promise<MetricsOfRows<RegressorMetrics>> {
  const sql = `
WITH ${dialect.step('usable')}
  SELECT CAST(y AS DOUBLE PRECISION) AS y, CAST(yhat AS DOUBLE PRECISION) AS yhat FROM (${scored}) AS scored WHERE y IS NOT NULL
), means AS (
  SELECT AVG(y) AS y_mean, AVG(y - yhat) AS e_mean FROM usable
)
SELECT
  COUNT(*) AS n,
  SUM((y - yhat) * (y - yhat)) AS ss_res,
  SUM((y - y_mean) * (y - y_mean)) AS ss_tot,
  SUM((y - yhat - e_mean) * (y - yhat - e_mean)) AS ss_e,
  SUM(ABS(y - yhat)) AS abs_error,
  SUM(CASE WHEN y <> 0 THEN ABS(y - yhat) / ABS(y) ELSE 0 END) AS ape,
  SUM(CASE WHEN y = 0 THEN 1 ELSE 0 END) AS zero_actuals
FROM usable CROSS JOIN means`;
  const [row] = await queryRows(sql);
  const n = Number(row.n);
  const ssRes = Number(row.ss_res);
  const ssTot = Number(row.ss_tot);
  const metrics = {
    r2: ssTot > 0 ? 1 - ssRes / ssTot : null,
    rmse: Math.sqrt(ssRes / n),
    mae: Number(row.abs_error) / n,
    mape: Number(row.zero_actuals) > 0 ? null : Number(row.ape) / n,
    explained_variance: ssTot > 0 ? 1 - Number(row.ss_e) / ssTot : null,
  };
  return { metrics, nTest: n };
}

/**
 * A multiclass model's test metrics computed where the rows are, from `scored`: a query whose rows hold `y`, the index
 * of the row's actual class in `classes` (rows with another value are left out), and `p_0`, `p_1`, … the probability
 * the model gives each class. One statement over the rows: the confusion matrix and log loss grouped by (actual,
 * most probable) class, and each class's one-vs-rest rank AUC from the rows grouped by that class's probability.
 * They equal the engine's `evaluateMulticlass` on the same rows.
 */
export async function multiclassMetricsInSql(
  dialect: SqlDialect,
  scored: string,
  classes: readonly string[],
  queryRows: QueryRows,
): Promise<MetricsOfRows<MulticlassMetrics> & { perClass: Omit<MulticlassClassMetrics, 'roc'>[] }> {
  const indexes = classes.map((_, k) => k);
  const p = (k: number) => `p_${k}`;
  const clipped = (k: number) => `q_${k}`;
  const actualProbability = `CASE y ${indexes.map((k) => `WHEN ${k} THEN ${p(k)}`).join(' ')} END`;
  const byScore = indexes.map(
    (k) => `  SELECT ${k} AS k, ${clipped(k)} AS p, SUM(CASE WHEN y = ${k} THEN 1 ELSE 0 END) AS np, SUM(CASE WHEN y = ${k} THEN 0 ELSE 1 END) AS nn FROM usable GROUP BY ${clipped(k)}`,
  );
  const sql = `
WITH ${dialect.step('usable')}
  SELECT y, ${indexes.map((k) => `${p(k)}, ${withinUnit(dialect, p(k))} AS ${clipped(k)}`).join(', ')} FROM (
    SELECT CAST(y AS INTEGER) AS y, ${indexes.map((k) => `CAST(${p(k)} AS DOUBLE PRECISION) AS ${p(k)}`).join(', ')} FROM (${scored}) AS scored WHERE y IN (${indexes.join(', ')})
  ) AS typed
), cells AS (
  SELECT y, ${firstMostProbable(indexes.map(p), indexes.map(String))} AS predicted, -LN(${logClipped(dialect, actualProbability)}) AS loss FROM usable
), by_score AS (
${byScore.join('\n  UNION ALL\n')}
), ranked AS (
  SELECT k, np, nn, ${negativesBelow('PARTITION BY k ')} AS below FROM by_score
)
SELECT 'cell' AS part, y AS k, predicted, CAST(COUNT(*) AS DOUBLE PRECISION) AS n, SUM(loss) AS total FROM cells GROUP BY y, predicted
UNION ALL
SELECT 'auc', k, NULL, NULL, CAST(${RANK_U} AS DOUBLE PRECISION) FROM ranked GROUP BY k`;
  const matrix = classes.map(() => new Array<number>(classes.length).fill(0));
  const u = new Array<number>(classes.length).fill(0);
  let logLoss = 0;
  for (const row of await queryRows(sql)) {
    const k = Number(row.k);
    if (row.part === 'auc') u[k] = Number(row.total);
    else {
      matrix[k][Number(row.predicted)] = Number(row.n);
      logLoss += Number(row.total);
    }
  }
  const n = matrix.reduce((s, row) => s + row.reduce((t, v) => t + v, 0), 0);
  const aucs = matrix.map((row, k) => {
    const positives = row.reduce((s, v) => s + v, 0);
    return positives > 0 && positives < n ? u[k] / (positives * (n - positives)) : null;
  });
  const { per_class: perClass, ...metrics } = multiclassMetricsOfCounts(classes, matrix, logLoss, aucs);
  return { metrics, nTest: n, perClass };
}

/**
 * How many of the thresholds 0.00…1.00 a probability `p` within [0, 1] exceeds, exactly as the engine counts it:
 * CEIL(p × 100) moved by one where p × 100 rounded across a whole number, the thresholds being k / 100 in doubles.
 */
function thresholdsBelow(p: string): string {
  const threshold = (k: string) => `CAST(${k} AS DOUBLE PRECISION) / 100`;
  const c = `CAST(CEIL(${p} * 100) AS INTEGER)`;
  return `CASE WHEN ${c} > 0 AND ${threshold(`${c} - 1`)} >= ${p} THEN ${c} - 1 WHEN ${c} <= 100 AND ${threshold(c)} < ${p} THEN ${c} + 1 ELSE ${c} END`;
}

/** The probability bin of `p` within [0, 1]: p × 100 rounded half up, as Math.round does. */
const probabilityBin = (p: string) => `CAST(FLOOR(${p} * 100) AS INTEGER) + CASE WHEN ${p} * 100 - FLOOR(${p} * 100) >= 0.5 THEN 1 ELSE 0 END`;

const emptyHistograms = (): ClassifierHistograms => ({
  above: [new Float64Array(CURVE_POINTS + 1), new Float64Array(CURVE_POINTS + 1)],
  bins: [new Array<number>(CURVE_POINTS).fill(0), new Array<number>(CURVE_POINTS).fill(0)],
});

/**
 * The histograms a classifier's curves are drawn from, counted where the rows are over every row of `scored`: per
 * curve `k`, a query's rows of `k`, `y` (1 for the curve's positive class, else 0) and `p` (its probability, within
 * [0, 1]). One statement, grouped by curve, class, threshold count and probability bin.
 */
async function histogramsInSql(scored: string, curves: number, queryRows: QueryRows): Promise<ClassifierHistograms[]> {
  const sql = `
SELECT k, y, t, b, COUNT(*) AS n FROM (
  SELECT k, y, ${thresholdsBelow('p')} AS t, ${probabilityBin('p')} AS b FROM (${scored}) AS curves
) AS counted GROUP BY k, y, t, b`;
  const histograms = Array.from({ length: curves }, emptyHistograms);
  for (const row of await queryRows(sql)) {
    const h = histograms[Number(row.k)];
    const cls = Number(row.y) === 1 ? 1 : 0;
    const n = Number(row.n);
    h.above[cls][Number(row.t)] += n;
    h.bins[cls][Number(row.b)] += n;
  }
  return histograms;
}

/** A binary classifier's histograms over every row of `scored` (rows of `y`, 1 or 0, and the probability `p`). */
export async function classifierHistogramsInSql(dialect: SqlDialect, scored: string, queryRows: QueryRows): Promise<ClassifierHistograms> {
  const usable = `SELECT 0 AS k, y, ${withinUnit(dialect, 'CAST(p AS DOUBLE PRECISION)')} AS p FROM (${scored}) AS scored WHERE y IN (0, 1)`;
  return (await histogramsInSql(usable, 1, queryRows))[0];
}

/**
 * Each class's one-vs-rest histograms over every row of `scored` (rows of `y`, the index of the actual class, and
 * `p_0`, `p_1`, … its probabilities), as the engine draws each class's ROC curve.
 */
export async function multiclassHistogramsInSql(dialect: SqlDialect, scored: string, classes: readonly string[], queryRows: QueryRows): Promise<ClassifierHistograms[]> {
  const usable = `SELECT CAST(y AS INTEGER) AS y, ${classes.map((_, k) => `${withinUnit(dialect, `CAST(p_${k} AS DOUBLE PRECISION)`)} AS p_${k}`).join(', ')} FROM (${scored}) AS scored WHERE y IN (${classes.map((_, k) => k).join(', ')})`;
  const perClass = classes.map((_, k) => `SELECT ${k} AS k, CASE WHEN y = ${k} THEN 1 ELSE 0 END AS y, p_${k} AS p FROM usable`);
  return histogramsInSql(`WITH ${dialect.step('usable')}
  ${usable}
) ${perClass.join(' UNION ALL ')}`, classes.length, queryRows);
}

/**
 * A regressor's residual histogram (y − ŷ) over every row of `scored` (rows of the actual `y` and the prediction
 * `yhat`; rows without an actual value are left out): the residuals' range, then their count per bin, the bins as
 * the engine's `evaluateRegressor` makes them.
 */
export async function residualBinsInSql(dialect: SqlDialect, scored: string, queryRows: QueryRows): Promise<{ edges: number[]; counts: number[] }> {
  const residuals = `SELECT CAST(y AS DOUBLE PRECISION) - CAST(yhat AS DOUBLE PRECISION) AS e FROM (${scored}) AS scored WHERE y IS NOT NULL`;
  const [range] = await queryRows(`SELECT MIN(e) AS lo, MAX(e) AS hi FROM (${residuals}) AS r`);
  if (range?.lo === null || range?.lo === undefined) return { edges: [], counts: [] };
  const lo = Number(range.lo);
  const { edges, width } = histogramBins(lo, Number(range.hi), RESIDUAL_BINS);
  const double = (v: number) => `CAST('${String(v)}' AS DOUBLE PRECISION)`;
  const bin = dialect.least(String(edges.length - 2), `CAST(FLOOR((e - ${double(lo)}) / ${double(width)}) AS INTEGER)`);
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (const row of await queryRows(`SELECT b, COUNT(*) AS n FROM (SELECT ${bin} AS b FROM (${residuals}) AS r) AS binned GROUP BY b`)) counts[Number(row.b)] += Number(row.n);
  return { edges, counts };
}
