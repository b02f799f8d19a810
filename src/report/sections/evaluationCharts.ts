import type { ClassifierEvaluationMetrics, EvaluationMetrics, MulticlassEvaluationMetrics, RegressorEvaluationMetrics } from '../../contract/models';
import {
  classRocCurves,
  confusionHeat,
  isClassifierMetrics,
  isMulticlassMetrics,
  isRegressorMetrics,
  predictedVsActual,
  prPoints,
  residualHistogram,
  rocPoints,
} from '../../views/evaluationSeries';
import { formatNumber } from '../../views/format';
import { curveChart, histogramChart, scatterChart } from '../charts/plots';
import { numberCell, paragraph, type Block, type Cell } from '../document';
import { binaryLabels, partHeading, type ReportPart, type ReportView } from '../view';

export const EVALUATION = { id: 'evaluation', text: 'Evaluation charts' } as const;

const count = (n: number): Cell => numberCell(formatNumber(n), n);

function named(view: ReportView, part: ReportPart, chart: string): string {
  return view.partitioned ? `${chart} (${part.label})` : chart;
}

function classifierCharts(view: ReportView, part: ReportPart, test: ClassifierEvaluationMetrics): Block[] {
  const [negative, positive] = binaryLabels(view);
  const [[tn, fp], [fn, tp]] = [test.confusion_matrix[0] ?? [0, 0], test.confusion_matrix[1] ?? [0, 0]];
  return [
    {
      kind: 'figure',
      chart: curveChart([{ label: positive, points: rocPoints(test) }], { x: 'false positive rate', y: 'true positive rate', diagonal: true }, named(view, part, 'ROC curve')),
      caption: `ROC curve of the test rows: ROC AUC ${formatNumber(test.roc_auc)}. The dashed line is a model that guesses.`,
    },
    {
      kind: 'figure',
      chart: curveChart([{ label: positive, points: prPoints(test) }], { x: 'recall', y: 'precision', diagonal: false }, named(view, part, 'Precision-recall curve')),
      caption: `Precision against recall of ${positive} over every threshold: PR AUC ${formatNumber(test.auc_pr)}.`,
    },
    paragraph(`Test rows by actual and predicted class at the threshold of 0.5:`),
    {
      kind: 'table',
      head: ['Actual', `Predicted ${negative}`, `Predicted ${positive}`],
      rows: [
        [negative, count(tn), count(fp)],
        [positive, count(fn), count(tp)],
      ],
    },
  ];
}

function regressorCharts(view: ReportView, part: ReportPart, test: RegressorEvaluationMetrics): Block[] {
  const points = predictedVsActual(test);
  return [
    {
      kind: 'figure',
      chart: scatterChart(points, { x: 'actual', y: 'predicted' }, named(view, part, 'Predicted against actual')),
      caption: `Predicted against actual value of ${formatNumber(points.length)} test rows; on the dashed line the prediction is exact.`,
    },
    {
      kind: 'figure',
      chart: histogramChart(residualHistogram(test), { x: 'residual (actual − predicted)', y: 'test rows' }, named(view, part, 'Residuals')),
      caption: 'How far the predictions of the test rows are from the actual values: actual − predicted.',
    },
  ];
}

function multiclassCharts(view: ReportView, part: ReportPart, test: MulticlassEvaluationMetrics): Block[] {
  const curves = classRocCurves(test);
  const heat = confusionHeat(test);
  return [
    {
      kind: 'figure',
      chart: curveChart(curves, { x: 'false positive rate', y: 'true positive rate', diagonal: true }, named(view, part, 'ROC curve of each class against the rest')),
      caption: `ROC curve of each class against the rest, on the test rows: ${curves.map((c) => `${c.label} ${formatNumber(c.auc)}`).join(', ')}.`,
    },
    paragraph('Each class against the rest, on the test rows:'),
    {
      kind: 'table',
      head: ['Class', 'Test rows', 'Precision', 'Recall', 'F1', 'ROC AUC'],
      rows: test.per_class.map((c) => [c.class, count(c.support), ...[c.precision, c.recall, c.f1, c.roc_auc].map((v) => numberCell(formatNumber(v), v))]),
    },
    paragraph('Test rows by actual class (rows) and predicted class (columns):'),
    { kind: 'table', head: ['Actual', ...heat.map((row) => `Predicted ${row.actual}`)], rows: heat.map((row) => [row.actual, ...row.cells.map((c) => count(c.count))]) },
  ];
}

function partCharts(view: ReportView, part: ReportPart): Block[] {
  const test: EvaluationMetrics | undefined = part.evaluation?.test;
  if (!test) return [paragraph('No evaluation is recorded for this partition: the model was uploaded as fitted.')];
  if (isMulticlassMetrics(test)) return multiclassCharts(view, part, test);
  if (isClassifierMetrics(test)) return classifierCharts(view, part, test);
  if (isRegressorMetrics(test)) return regressorCharts(view, part, test);
  return [paragraph('The evaluation of this partition carries no charts.')];
}

/** The test rows' charts of every partition: ROC and precision-recall for classifiers, predicted against actual and residuals for regressors. */
export function evaluationSection(view: ReportView): Block[] {
  return [{ kind: 'heading', level: 2, ...EVALUATION }, ...view.parts.flatMap((part) => [...partHeading(view, EVALUATION.id, part), ...partCharts(view, part)])];
}
