import type { ClassifierMetrics, RegressorMetrics } from '../../contract';
import type { SqlDialect } from '../../modelExport';

const LOG_CLIP = 1e-15;

/** Metrics and the number of rows they were computed on. */
export interface MetricsOfRows<M> {
  metrics: M;
  nTest: number;
}

/** Runs one aggregate statement and hands back its single row. */
export type OneRow = (sql: string) => Promise<Record<string, unknown>>;

/**
 * A binary classifier's test metrics computed where the rows are, from `scored`: a query whose rows hold `y` (1 for
 * the positive label, 0 for the negative; rows with neither are left out) and `p`, the probability the model gives.
 * The rows are grouped by probability, so every metric, the rank AUC included, comes from one pass over them and
 * equals the engine's `evaluateClassifier` on the same rows.
 */
export async function classifierMetricsInSql(dialect: SqlDialect, scored: string, oneRow: OneRow): Promise<MetricsOfRows<ClassifierMetrics>> {
  const clip = (v: string) => dialect.least(`1 - ${LOG_CLIP}`, dialect.greatest(`${LOG_CLIP}`, v));
  const sql = `
WITH ${dialect.step('usable')}
  SELECT CAST(y AS DOUBLE PRECISION) AS y, ${dialect.least('1.0', dialect.greatest('0.0', 'CAST(p AS DOUBLE PRECISION)'))} AS p FROM (${scored}) AS scored WHERE y IN (0, 1)
), ${dialect.step('grouped')}
  SELECT p, SUM(y) AS np, COUNT(*) - SUM(y) AS nn FROM usable GROUP BY p
), ranked AS (
  SELECT p, np, nn, COALESCE(SUM(nn) OVER (ORDER BY p ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS below FROM grouped
)
SELECT
  SUM(np) AS positives,
  SUM(nn) AS negatives,
  SUM(CASE WHEN p > 0.5 THEN np ELSE 0 END) AS tp,
  SUM(CASE WHEN p > 0.5 THEN nn ELSE 0 END) AS fp,
  SUM(np * (1 - p) * (1 - p) + nn * p * p) AS brier,
  SUM(-np * LN(${clip('p')}) - nn * LN(1 - ${clip('p')})) AS log_loss,
  SUM(np * (below + nn / 2.0)) AS u
FROM ranked`;
  const row = await oneRow(sql);
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
export async function regressorMetricsInSql(dialect: SqlDialect, scored: string, oneRow: OneRow): Promise<MetricsOfRows<RegressorMetrics>> {
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
  const row = await oneRow(sql);
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
