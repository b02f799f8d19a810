import { metricColumns, metricRows, splitTexts, testRowsText } from '../../views/evaluationSeries';
import { formatNumber } from '../../views/format';
import { numberCell, paragraph, type Block, type Cell } from '../document';
import { partHeading, type ReportPart, type ReportView } from '../view';

export const METRICS = { id: 'metrics', text: 'Test metrics and baselines' } as const;

const metric = (value: number | null): Cell => numberCell(formatNumber(value), value);

function partMetrics(part: ReportPart): Block[] {
  const evaluation = part.evaluation;
  if (!evaluation) return [paragraph('No evaluation is recorded for this partition: the model was uploaded as fitted.')];
  const rows = metricRows(evaluation.train, evaluation.test, evaluation.baseline);
  const columns = metricColumns(Boolean(evaluation.baseline));
  const blocks: Block[] = [
    {
      kind: 'table',
      head: ['Metric', ...columns.map((c) => c.header)],
      rows: rows.map((row) => [row.note ? `${row.label} (${row.note})` : row.label, ...columns.map((c) => metric(c.value(row)))]),
    },
  ];
  const testRows = testRowsText(evaluation.split);
  if (testRows) blocks.push(paragraph(testRows));
  if (!evaluation.baseline) blocks.push(paragraph('No baselines are recorded for this partition.'));
  const warnings = evaluation.warnings ?? [];
  if (warnings.length) blocks.push(paragraph('Warnings:'), { kind: 'list', items: warnings.map((w) => [w]) });
  return blocks;
}

/** The test metrics of every partition beside the linear and constant baselines on the same test rows, and the train metrics. */
export function metricsSection(view: ReportView): Block[] {
  return [
    { kind: 'heading', level: 2, ...METRICS },
    paragraph(splitTexts().judgeBy),
    paragraph(
      'Beside them, the test metrics of two yardsticks fitted on the same training rows: a linear model (ridge or logistic regression on standardised numbers and one-hot categories) and a constant (the training mean, or the training share of each class). A model that does not beat them has learnt little.',
    ),
    ...view.parts.flatMap((part) => [...partHeading(view, METRICS.id, part), ...partMetrics(part)]),
  ];
}
