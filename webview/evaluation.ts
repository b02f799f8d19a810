/** Evaluation panel: train vs test metrics; classifier curves and threshold; regressor fit and residuals. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type {
  ClassifierEvaluationMetrics,
  Evaluation,
  EvaluationMetrics,
  MulticlassEvaluationMetrics,
  RegressorEvaluationMetrics,
} from '../src/contract/models.js';
import { formatNumber, formatSignificant, partitionLabel } from '../src/views/format.js';
import {
  classRocCurves,
  confusionHeat,
  isClassifierMetrics,
  isMulticlassMetrics,
  isRegressorMetrics,
  metricColumns,
  metricRows,
  type MetricRow,
  predictedVsActual,
  probabilityDistributions,
  prPoints,
  residualHistogram,
  rocPoints,
  splitTexts,
  testRowsText,
  thresholdView,
} from '../src/views/evaluationSeries.js';
import { axis, ChartSet, percentTicks, themedOptions } from './shared/charts.js';
import { h } from './shared/dom.js';
import type { PanelClient } from './shared/panelClient.js';
import { connectLoadedPanel } from './shared/status.js';
import { withAlpha } from './shared/theme.js';
import { fact, notice, select, table } from './shared/widgets.js';

type Split = 'test' | 'train';

interface EvaluationUi {
  threshold: number;
  split: Split;
}

type Client = PanelClient<'evaluation', EvaluationUi>;

class EvaluationView {
  private readonly charts = new ChartSet();
  private readonly body = h('div', {});

  constructor(
    private readonly root: HTMLElement,
    private readonly client: Client,
    private readonly evaluation: Evaluation,
  ) {}

  private get split(): Split {
    return this.client.ui.split ?? 'test';
  }

  render(): void {
    const { evaluation } = this;
    const classifier = evaluation.model_type !== 'regression';
    const test = evaluation.test;
    const multiclass = isMulticlassMetrics(test) ? test : null;
    const headline = classifier
      ? fact(multiclass ? 'Test ROC AUC (macro)' : 'Test ROC AUC', formatNumber((test as ClassifierEvaluationMetrics).roc_auc, 3))
      : fact('Test R²', formatNumber((test as RegressorEvaluationMetrics).r2, 3));
    const texts = splitTexts();
    const testRows = testRowsText(evaluation.split);
    const kind = multiclass
      ? `Multiclass classifier (${multiclass.confusion_matrix.labels.length} classes, one-vs-rest)`
      : classifier
        ? 'Binary classifier'
        : 'Regressor';
    this.root.replaceChildren(
      h(
        'header',
        { class: 'header' },
        h(
          'div',
          {},
          h('h1', { text: `Evaluation: ${partitionLabel(evaluation.partition)}` }),
          h('p', { class: 'muted', text: kind }),
        ),
        h('div', { class: 'header-facts' }, headline),
      ),
      ...this.generalisationWarnings(),
      h(
        'section',
        { 'aria-label': 'Metrics' },
        h('h2', { text: texts.heading }),
        h('p', { class: 'muted', text: texts.judgeBy }),
        this.metricsTable(),
        testRows === undefined ? '' : h('p', { class: 'muted test-rows', text: testRows }),
      ),
      h(
        'div',
        { class: 'toolbar' },
        select(
          'Charts for',
          [
            { value: 'test', label: texts.testCharts },
            { value: 'train', label: texts.trainCharts },
          ],
          this.split,
          (value) => {
            this.client.saveUi({ split: value === 'train' ? 'train' : 'test' });
            this.renderCharts();
          },
        ),
      ),
      this.body,
    );
    this.renderCharts();
  }

  /** The service's plain-word warnings (test score below a baseline, overfitting), with a way to do better. */
  private generalisationWarnings(): HTMLElement[] {
    const warnings = this.evaluation.warnings ?? [];
    if (warnings.length === 0) return [];
    const autotrain = h('vscode-button', { secondary: true }, 'Autotrain this dataset…');
    autotrain.addEventListener('click', () => void this.client.request('autotrain', null));
    return [
      h(
        'section',
        { class: 'generalisation', 'aria-label': 'Warnings' },
        ...warnings.map((w) => notice('warning', w)),
        h('p', { class: 'muted', text: 'Autotrain searches the parameters and suggests features on this data.' }),
        autotrain,
      ),
    ];
  }

  private metricsTable(): HTMLElement {
    const baseline = this.evaluation.baseline;
    const rows = metricRows(this.evaluation.train, this.evaluation.test, baseline);
    return table(splitTexts().caption, [
      { header: 'Metric', cell: (r: MetricRow) => (r.note ? `${r.label} (${r.note})` : r.label) },
      ...metricColumns(Boolean(baseline)).map((column) => ({ header: column.header, numeric: true, cell: (r: MetricRow) => formatNumber(column.value(r)) })),
    ], rows);
  }

  private renderCharts(): void {
    this.charts.clear();
    const metrics: EvaluationMetrics = this.evaluation[this.split];
    if (isClassifierMetrics(metrics)) this.body.replaceChildren(...this.classifierCharts(metrics));
    else if (isMulticlassMetrics(metrics)) this.body.replaceChildren(...this.multiclassCharts(metrics));
    else if (isRegressorMetrics(metrics)) this.body.replaceChildren(...this.regressorCharts(metrics));
    else this.body.replaceChildren(notice('warning', 'This evaluation has no chart data.'));
  }

  private classifierCharts(metrics: ClassifierEvaluationMetrics): HTMLElement[] {
    const roc = rocPoints(metrics);
    const pr = prPoints(metrics);
    const rocTitle = `ROC curve (AUC ${formatNumber(metrics.roc_auc, 3)})`;
    const prTitle = `Precision-recall curve (AUC ${formatNumber(metrics.auc_pr, 3)})`;
    const curve = (title: string, points: { x: number; y: number }[], xTitle: string, yTitle: string, diagonal: boolean) =>
      this.charts.create(`${title}, ${points.length} points.`, (p) => ({
        type: 'line',
        data: {
          datasets: [
            { label: title, data: points, borderColor: p.series[0], backgroundColor: withAlpha(p.series[0], 0.12), fill: 'origin', pointRadius: 0, borderWidth: 2 },
            ...(diagonal
              ? [{ label: 'Chance', data: [{ x: 0, y: 0 }, { x: 1, y: 1 }], borderColor: p.muted, borderDash: [4, 4], pointRadius: 0, borderWidth: 1 }]
              : []),
          ],
        },
        options: themedOptions(p, {
          parsing: false,
          scales: {
            x: { type: 'linear', min: 0, max: 1, ...axis(p, xTitle) },
            y: { min: 0, max: 1, ...axis(p, yTitle) },
          },
        }),
      }));
    return [
      h(
        'div',
        { class: 'grid-2' },
        h('section', { class: 'card', 'aria-label': rocTitle }, h('h3', { text: rocTitle }), curve(rocTitle, roc, 'False positive rate', 'True positive rate', true)),
        h('section', { class: 'card', 'aria-label': prTitle }, h('h3', { text: prTitle }), curve(prTitle, pr, 'Recall', 'Precision', false)),
      ),
      this.thresholdSection(metrics),
      this.distributionSection(metrics),
    ];
  }

  private multiclassCharts(metrics: MulticlassEvaluationMetrics): HTMLElement[] {
    const heat = confusionHeat(metrics);
    const heatTitle = 'Confusion matrix (rows: actual class, columns: predicted class)';
    const heatTable = h(
      'table',
      { class: 'confusion heat' },
      h('caption', { class: 'muted', text: 'Each cell\u2019s shade is its share of the actual class\u2019s rows.' }),
      h('thead', {}, h('tr', {}, h('td', {}), ...heat.map((r) => h('th', { scope: 'col', text: `Predicted ${r.actual}` })))),
      h(
        'tbody',
        {},
        ...heat.map((row) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row', text: `Actual ${row.actual} (${row.total})` }),
            ...row.cells.map((cell) => {
              const td = h('td', {
                class: cell.predicted === row.actual ? 'hit' : 'miss',
                'aria-label': `Actual ${row.actual}, predicted ${cell.predicted}: ${cell.count} (${Math.round(cell.share * 100)}%)`,
              }, String(cell.count));
              td.style.setProperty('--heat', cell.share.toFixed(3));
              return td;
            }),
          ),
        ),
      ),
    );
    const curves = classRocCurves(metrics);
    const rocTitle = 'One-vs-rest ROC curve of each class';
    const roc = this.charts.create(`${rocTitle}: ${curves.map((c) => `${c.label} AUC ${formatNumber(c.auc, 3)}`).join(', ')}.`, (p) => ({
      type: 'line',
      data: {
        datasets: [
          ...curves.map((c, i) => ({
            label: `${c.label} (AUC ${formatNumber(c.auc, 3)})`,
            data: c.points,
            borderColor: p.series[i % p.series.length],
            pointRadius: 0,
            borderWidth: 2,
          })),
          { label: 'Chance', data: [{ x: 0, y: 0 }, { x: 1, y: 1 }], borderColor: p.muted, borderDash: [4, 4], pointRadius: 0, borderWidth: 1 },
        ],
      },
      options: themedOptions(p, {
        parsing: false,
        scales: { x: { type: 'linear', min: 0, max: 1, ...axis(p, 'False positive rate') }, y: { min: 0, max: 1, ...axis(p, 'True positive rate') } },
      }),
    }));
    const perClass = table('Metrics of each class against the rest', [
      { header: 'Class', cell: (c) => c.class },
      { header: 'Rows', numeric: true, cell: (c) => String(c.support) },
      { header: 'ROC AUC', numeric: true, cell: (c) => formatNumber(c.roc_auc, 3) },
      { header: 'Precision', numeric: true, cell: (c) => formatNumber(c.precision, 3) },
      { header: 'Recall', numeric: true, cell: (c) => formatNumber(c.recall, 3) },
      { header: 'F1', numeric: true, cell: (c) => formatNumber(c.f1, 3) },
    ], metrics.per_class);
    return [
      h(
        'div',
        { class: 'grid-2' },
        h('section', { class: 'card', 'aria-label': heatTitle }, h('h3', { text: heatTitle }), heatTable),
        h('section', { class: 'card', 'aria-label': rocTitle }, h('h3', { text: rocTitle }), roc),
      ),
      h('section', { class: 'card', 'aria-label': 'Per-class metrics' }, h('h3', { text: 'Per-class metrics' }), perClass),
    ];
  }

  private thresholdSection(metrics: ClassifierEvaluationMetrics): HTMLElement {
    const output = h('output', { for: 'threshold', class: 'fact-value' });
    const results = h('div', { 'aria-live': 'polite' });
    const slider = h('input', {
      id: 'threshold',
      type: 'range',
      min: 0,
      max: 1,
      step: 0.01,
      value: String(this.client.ui.threshold ?? 0.5),
      'aria-label': 'Decision threshold',
    });
    const update = () => {
      const view = thresholdView(metrics.scores, Number(slider.value));
      if (!view) {
        results.replaceChildren(notice('warning', 'The evaluation has no threshold scores.'));
        return;
      }
      output.textContent = view.threshold.toFixed(2);
      slider.setAttribute('aria-valuetext', `Threshold ${view.threshold.toFixed(2)}`);
      const [[tn, fp], [fn, tp]] = view.confusion;
      const cell = (value: number, kind: 'hit' | 'miss', label: string) => h('td', { class: kind, 'aria-label': `${label}: ${value}` }, String(value));
      results.replaceChildren(
        h(
          'div',
          { class: 'grid-2' },
          h(
            'table',
            { class: 'confusion' },
            h('caption', { class: 'muted', text: `Confusion matrix at threshold ${view.threshold.toFixed(2)}` }),
            h('thead', {}, h('tr', {}, h('td', {}), h('th', { scope: 'col', text: 'Predicted negative' }), h('th', { scope: 'col', text: 'Predicted positive' }))),
            h(
              'tbody',
              {},
              h('tr', {}, h('th', { scope: 'row', text: 'Actual negative' }), cell(tn, 'hit', 'True negatives'), cell(fp, 'miss', 'False positives')),
              h('tr', {}, h('th', { scope: 'row', text: 'Actual positive' }), cell(fn, 'miss', 'False negatives'), cell(tp, 'hit', 'True positives')),
            ),
          ),
          h(
            'div',
            { class: 'header-facts' },
            fact('Precision', formatNumber(view.precision, 3)),
            fact('Recall', formatNumber(view.recall, 3)),
            fact('F1', formatNumber(view.f1, 3)),
            fact('Accuracy', formatNumber(view.accuracy, 3)),
          ),
        ),
      );
    };
    slider.addEventListener('input', update);
    slider.addEventListener('change', () => this.client.saveUi({ threshold: Number(slider.value) }));
    update();
    return h(
      'section',
      { class: 'card', 'aria-label': 'Threshold' },
      h('h3', { text: 'Decision threshold' }),
      h('div', { class: 'threshold-row' }, h('label', { for: 'threshold', text: 'Threshold' }), slider, output),
      results,
    );
  }

  private distributionSection(metrics: ClassifierEvaluationMetrics): HTMLElement {
    const { labels, classes } = probabilityDistributions(metrics);
    const title = 'Predicted probability by actual class';
    return h(
      'section',
      { class: 'card', 'aria-label': title },
      h('h3', { text: title }),
      this.charts.create(`${title}: ${classes.map((c) => c.label).join(' and ')}.`, (p) => ({
        type: 'line',
        data: {
          labels,
          datasets: classes.map((c, i) => ({
            label: `Class ${c.label}`,
            data: c.shares,
            borderColor: p.series[i % p.series.length],
            backgroundColor: withAlpha(p.series[i % p.series.length], 0.15),
            fill: 'origin',
            pointRadius: 0,
            borderWidth: 2,
            tension: 0.2,
          })),
        },
        options: themedOptions(p, {
          scales: {
            x: { ...axis(p, 'Predicted probability'), ticks: { color: p.foreground, maxTicksLimit: 10 } },
            y: { min: 0, ...axis(p, 'Share of the class'), ticks: { color: p.foreground, callback: percentTicks } },
          },
        }),
      })),
    );
  }

  private regressorCharts(metrics: RegressorEvaluationMetrics): HTMLElement[] {
    const points = predictedVsActual(metrics);
    const residuals = residualHistogram(metrics);
    const low = Math.min(...points.map((p) => Math.min(p.x, p.y)));
    const high = Math.max(...points.map((p) => Math.max(p.x, p.y)));
    const scatterTitle = `Predicted against actual (${points.length} rows)`;
    const residualTitle = 'Residuals (actual − predicted)';
    return [
      h(
        'div',
        { class: 'grid-2' },
        h(
          'section',
          { class: 'card', 'aria-label': scatterTitle },
          h('h3', { text: scatterTitle }),
          this.charts.create(scatterTitle, (p) => ({
            type: 'scatter',
            data: {
              datasets: [
                { label: 'Rows', data: points, backgroundColor: withAlpha(p.series[0], 0.5), pointRadius: 2 },
                {
                  type: 'line',
                  label: 'Perfect prediction',
                  data: points.length ? [{ x: low, y: low }, { x: high, y: high }] : [],
                  borderColor: p.muted,
                  borderDash: [4, 4],
                  pointRadius: 0,
                  borderWidth: 1,
                },
              ],
            },
            options: themedOptions(p, { parsing: false, scales: { x: { type: 'linear', ...axis(p, 'Actual') }, y: axis(p, 'Predicted') } }),
          }), 'large'),
        ),
        h(
          'section',
          { class: 'card', 'aria-label': residualTitle },
          h('h3', { text: residualTitle }),
          this.charts.create(`${residualTitle} in ${residuals.length} bins.`, (p) => ({
            type: 'bar',
            data: {
              labels: residuals.map((b) => formatSignificant((b.lower + b.upper) / 2)),
              datasets: [{ label: 'Rows', data: residuals.map((b) => b.count), backgroundColor: p.series[1], barPercentage: 1, categoryPercentage: 1 }],
            },
            options: themedOptions(p, { plugins: { legend: { display: false } }, scales: { x: axis(p, 'Residual'), y: axis(p, 'Rows') } }),
          }), 'large'),
        ),
      ),
    ];
  }
}

connectLoadedPanel<'evaluation', EvaluationUi>(
  { loading: 'Loading the evaluation…', failed: 'The evaluation could not be loaded.' },
  (root, client, evaluation) => new EvaluationView(root, client, evaluation).render(),
);
