import type { Baseline, Metrics } from '../../contract';

/** How far below a baseline a test score may fall before the user is told (noise on small test sets). */
const BELOW_LINEAR = { r2: 0.02, roc_auc: 0.01 };
/** Train–test gaps that signal memorised training rows. */
const OVERFIT_GAP = { r2: 0.15, roc_auc: 0.08 };

const fmt = (v: number): string => v.toFixed(3);

/**
 * Plain-word warnings about a fitted model's test score: worse than always predicting the average, worse than a
 * linear model fitted on the same rows, or much worse than its training score (overfitting).
 */
export function generalisationWarnings(train: Metrics, test: Metrics, baseline: Baseline | null): string[] {
  const warnings: string[] = [];
  if ('r2' in test && 'r2' in train) {
    const r2 = test.r2;
    if (r2 === null) return warnings;
    if (r2 < 0) {
      warnings.push(`The model predicts the test rows worse than always predicting the training average (test R² ${fmt(r2)} is below 0).`);
    } else if (baseline?.linear && 'r2' in baseline.linear && baseline.linear.r2 !== null && r2 < baseline.linear.r2 - BELOW_LINEAR.r2) {
      warnings.push(`A plain linear model fitted on the same rows scores better on the test rows (R² ${fmt(baseline.linear.r2)} against ${fmt(r2)}).`);
    }
    if (train.r2 !== null && train.r2 - r2 > OVERFIT_GAP.r2) {
      warnings.push(`The model fits its training rows much better than new rows (R² ${fmt(train.r2)} on training, ${fmt(r2)} on test): it is overfitting.`);
    }
    return warnings;
  }
  if (!('roc_auc' in test) || !('roc_auc' in train)) return warnings;
  const auc = test.roc_auc;
  const constantLoss = baseline?.constant && 'log_loss' in baseline.constant ? baseline.constant.log_loss : null;
  if (test.log_loss !== null && constantLoss !== null && test.log_loss > constantLoss) {
    warnings.push(
      `The model's probabilities are worse on the test rows than always predicting the training rate (log loss ${fmt(test.log_loss)} against ${fmt(constantLoss)}).`,
    );
  }
  const linear = baseline?.linear && 'roc_auc' in baseline.linear ? baseline.linear.roc_auc : null;
  if (auc !== null && linear !== null && auc < linear - BELOW_LINEAR.roc_auc) {
    warnings.push(`A plain logistic regression fitted on the same rows ranks the test rows better (AUC ${fmt(linear)} against ${fmt(auc)}).`);
  }
  if (auc !== null && train.roc_auc !== null && train.roc_auc - auc > OVERFIT_GAP.roc_auc) {
    warnings.push(`The model fits its training rows much better than new rows (AUC ${fmt(train.roc_auc)} on training, ${fmt(auc)} on test): it is overfitting.`);
  }
  return warnings;
}
