/** Version comparison: both versions' steps per feature overlaid, the features that moved most, the test metrics and the hand edits. */
import type { ChartConfiguration } from 'chart.js';
import type { AppliedEdit } from '../src/contract/edits.js';
import type { CompareData } from '../src/views/protocol.js';
import { formatNumber, formatPercent, partitionLabel } from '../src/views/format.js';
import { BAND_TEXT } from '../src/views/band.js';
import { bandSteps, hasBand, type NumericFeatureSeries } from '../src/views/profileSeries.js';
import {
  bandsText,
  commonChoices,
  comparedParts,
  featureOverlay,
  findPart,
  metricRows,
  rankFeatureChanges,
  type ComparedPart,
  type FeatureChange,
  type FeatureOverlay,
  type MetricRow,
} from '../src/views/versionComparison.js';
import { axis, ChartSet, themedOptions } from './shared/charts.js';
import { h } from './shared/dom.js';
import type { PanelClient } from './shared/panelClient.js';
import { connectLoadedPanel } from './shared/status.js';
import { withAlpha, type Palette } from './shared/theme.js';
import { fact, notice, select, table } from './shared/widgets.js';

interface CompareUi {
  partition: string;
  class: string;
  feature: string;
}

type Client = PanelClient<'compare', CompareUi>;

const signed = (value: number | null) => (value === null ? '—' : `${value > 0 ? '+' : ''}${formatNumber(value)}`);

function overlayChart(overlay: FeatureOverlay, palette: Palette, names: [string, string]): ChartConfiguration {
  const color = palette.series[0];
  const faded = withAlpha(color, 0.45);
  const { newer, older, scales } = overlay;
  const scoreAxis = { ...axis(palette, 'Contribution'), min: scales.score[0], max: scales.score[1] };
  if (newer?.kind !== 'categorical' && older?.kind !== 'categorical') {
    const line = (steps: { x: number; y: number }[], label: string, solid: boolean) => ({
      label,
      data: steps,
      stepped: 'before' as const,
      borderColor: solid ? color : faded,
      borderWidth: solid ? 2 : 1.5,
      ...(solid ? {} : { borderDash: [6, 4] }),
      pointRadius: 0,
      fill: false,
    });
    // Each version's band as two step lines without a stroke, the space between them filled; unlabelled, so left
    // out of the legend and the tooltip.
    const band = (series: NumericFeatureSeries | undefined, alpha: number) => {
      if (!series || !hasBand(series)) return [];
      const { low, high } = bandSteps(series);
      const edge = (steps: { x: number; y: number }[], fill: string | false) => ({
        label: '',
        data: steps,
        stepped: 'before' as const,
        borderWidth: 0,
        pointRadius: 0,
        backgroundColor: withAlpha(color, alpha),
        fill,
      });
      return [edge(high, '+1'), edge(low, false)];
    };
    const domain = scales.domain ?? [0, 1];
    return {
      type: 'line',
      data: {
        datasets: [
          ...(newer ? [line(newer.scoreSteps, names[0], true)] : []),
          ...(older ? [line(older.scoreSteps, names[1], false)] : []),
          ...band(newer, 0.16),
          ...band(older, 0.08),
        ],
      },
      options: themedOptions(palette, {
        parsing: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: { x: { type: 'linear', min: domain[0], max: domain[1], ...axis(palette, overlay.feature) }, y: scoreAxis },
        plugins: {
          legend: { labels: { filter: (item) => Boolean(item.text) } },
          tooltip: { filter: (item) => Boolean(item.dataset.label), callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatNumber(item.parsed.y)}` } },
        },
      }),
    };
  }
  return {
    type: 'bar',
    data: {
      labels: overlay.categories,
      datasets: [
        { label: names[0], data: overlay.newerScores, backgroundColor: color, borderColor: color, borderWidth: 1 },
        { label: names[1], data: overlay.olderScores, backgroundColor: withAlpha(color, 0.25), borderColor: faded, borderWidth: 1 },
      ],
    },
    options: themedOptions(palette, { scales: { x: axis(palette, overlay.feature), y: scoreAxis } }),
  };
}

function describeOverlay(overlay: FeatureOverlay, names: [string, string]): string {
  const text = (series: FeatureOverlay['newer']) => {
    if (!series) return 'no steps';
    return series.kind === 'numeric'
      ? series.bins.map((b) => `${b.label}: ${formatNumber(b.score)}`).join('; ')
      : series.categories.map((c) => `${c.category}: ${formatNumber(c.score)}`).join('; ');
  };
  return `Contribution of ${overlay.feature}. ${names[0]}: ${text(overlay.newer)}. ${names[1]}: ${text(overlay.older)}.`;
}

function editSteps(edit: AppliedEdit): string {
  if (edit.bins === undefined) return 'all';
  if (edit.bins === 'missing') return 'missing';
  return edit.bins[0] === edit.bins[1] ? String(edit.bins[0]) : `${edit.bins[0]}–${edit.bins[1]}`;
}

function editValue(edit: AppliedEdit): string {
  if (edit.value !== undefined) return formatNumber(edit.value);
  if (edit.direction !== undefined) return edit.direction === 1 ? 'increasing' : 'decreasing';
  return '';
}

class CompareView {
  private readonly charts = new ChartSet();
  private readonly body = h('div', {});
  private readonly detail = h('section', { class: 'card', 'aria-live': 'polite' });
  private readonly newerParts: ComparedPart[];
  private readonly olderParts: ComparedPart[];
  private readonly names: [string, string];

  constructor(
    private readonly root: HTMLElement,
    private readonly client: Client,
    private readonly data: CompareData,
  ) {
    this.newerParts = comparedParts(data.newer.profile);
    this.olderParts = comparedParts(data.older.profile);
    this.names = [`v${data.newer.version.version_number} (newer)`, `v${data.older.version.version_number} (older)`];
  }

  render(): void {
    const { newer, older } = this.data;
    const choices = commonChoices(this.newerParts, this.olderParts);
    const partition = choices.partitions.includes(this.client.ui.partition ?? '') ? this.client.ui.partition! : choices.partitions[0];
    const cls = choices.classes.length ? (choices.classes.includes(this.client.ui.class ?? '') ? this.client.ui.class! : choices.classes[0]) : undefined;
    const pickers: HTMLElement[] = [
      ...(choices.partitions.length > 1
        ? [
            select('Partition', choices.partitions.map((p) => ({ value: p, label: partitionLabel(p) })), partition ?? '', (value) => this.choose({ partition: value })),
          ]
        : []),
      ...(cls !== undefined ? [select('Class', choices.classes.map((c) => ({ value: c, label: c })), cls, (value) => this.choose({ class: value }))] : []),
    ];
    const edits = newer.version.edits ?? [];
    this.root.replaceChildren(
      h(
        'header',
        { class: 'header' },
        h('div', {}, h('h1', { text: `Compare ${this.data.modelName} v${newer.version.version_number} with v${older.version.version_number}` }),
          h('p', { class: 'muted', text: `The newer version's steps are drawn solid, the older one's dashed and faded; shaded around each, its band (${BAND_TEXT}). A step that moved but stays inside both versions' bands is not distinguishable from the bags' noise.` })),
        h('div', { class: 'header-facts' }, fact('Newer', `v${newer.version.version_number} · ${newer.version.source}`), fact('Older', `v${older.version.version_number} · ${older.version.source}`), fact('Hand edits', String(edits.length))),
      ),
      h('section', { class: 'card' }, h('h2', { text: 'Test metrics' }), this.metricsTable()),
      ...(edits.length ? [h('section', { class: 'card' }, h('h2', { text: `Hand edits of v${newer.version.version_number}` }), this.editsTable(edits))] : []),
      ...pickers,
      this.body,
    );
    this.renderPart(partition, cls);
  }

  private choose(ui: Partial<CompareUi>): void {
    this.client.saveUi(ui);
    this.render();
  }

  private metricsTable(): HTMLElement {
    const rows = metricRows(this.data.newer.version.test_metrics, this.data.older.version.test_metrics);
    if (!rows.length) return h('p', { class: 'muted', text: 'Neither version has test metrics (a version uploaded without a test split has none).' });
    return table<MetricRow>('Test metrics of both versions', [
      { header: 'Metric', cell: (r) => r.metric },
      { header: this.names[0], numeric: true, cell: (r) => formatNumber(r.newer) },
      { header: this.names[1], numeric: true, cell: (r) => formatNumber(r.older) },
      { header: 'Change', numeric: true, cell: (r) => signed(r.change) },
      { header: 'Better', cell: (r) => (r.better === 'newer' ? this.names[0] : r.better === 'older' ? this.names[1] : r.better === 'same' ? 'same' : '—') },
    ], rows);
  }

  private editsTable(edits: readonly AppliedEdit[]): HTMLElement {
    return table<AppliedEdit>('The hand edits the newer version applied, in order', [
      { header: 'Feature', cell: (e) => e.feature },
      { header: 'Edit', cell: (e) => e.op },
      { header: 'Steps', cell: editSteps },
      { header: 'Value', cell: editValue },
      { header: 'Partition', cell: (e) => (e.partition === undefined ? 'all' : partitionLabel(e.partition)) },
      ...(this.data.newer.profile.model_type === 'multiclass_classification' ? [{ header: 'Class', cell: (e: AppliedEdit) => e.class ?? 'all' }] : []),
      { header: 'Applied', cell: (e) => `${e.applied_at.slice(0, 16).replace('T', ' ')} by ${e.applied_by}` },
    ], edits);
  }

  private renderPart(partition: string | undefined, cls: string | undefined): void {
    this.charts.clear();
    const newer = partition === undefined ? undefined : findPart(this.newerParts, partition, cls);
    const older = partition === undefined ? undefined : findPart(this.olderParts, partition, cls);
    if (!newer || !older) {
      this.body.replaceChildren(notice('info', 'The two versions share no partition (or class) to compare steps on. Compare versions trained on the same partitions.'));
      return;
    }
    const changes = rankFeatureChanges(newer, older, this.data.newer.version.edits ?? []);
    const selected = changes.find((c) => c.feature === this.client.ui.feature) ?? changes[0];
    const ranking = table<FeatureChange>('Features by how much their steps moved (frequency-weighted mean absolute difference)', [
      {
        header: 'Feature',
        cell: (c) => h('button', { class: 'link-button', 'data-feature': c.feature, 'aria-current': c === selected ? 'true' : 'false', onclick: () => this.selectFeature(newer, older, c.feature), 'aria-label': `Show ${c.feature}` }, c.feature),
      },
      { header: 'Moved', numeric: true, cell: (c) => formatNumber(c.difference) },
      ...(changes.some((c) => c.banded) ? [{ header: 'Steps beyond the bands', cell: (c: FeatureChange) => bandsText(c) }] : []),
      { header: 'Importance', numeric: true, cell: (c) => `${formatPercent(c.newerImportance)} / ${formatPercent(c.olderImportance)}` },
      { header: 'Edits', numeric: true, cell: (c) => (c.edits ? String(c.edits) : '') },
    ], changes);
    this.body.replaceChildren(h('div', { class: 'split split-wide' }, h('nav', { 'aria-label': 'Features' }, ranking), this.detail));
    if (selected) this.renderFeature(newer, older, selected.feature);
    else this.detail.replaceChildren(h('p', { class: 'muted', text: 'Neither version has features.' }));
  }

  private selectFeature(newer: ComparedPart, older: ComparedPart, feature: string): void {
    this.client.saveUi({ feature });
    for (const button of this.body.querySelectorAll<HTMLButtonElement>('button[data-feature]')) {
      button.setAttribute('aria-current', button.dataset.feature === feature ? 'true' : 'false');
    }
    this.charts.clear();
    this.renderFeature(newer, older, feature);
  }

  private renderFeature(newer: ComparedPart, older: ComparedPart, feature: string): void {
    const overlay = featureOverlay(newer.profile, older.profile, feature);
    const missing = (series: FeatureOverlay['newer']) => (series?.missing ? formatNumber(series.missing.score) : '—');
    const absent = !overlay.newer ? this.names[0] : !overlay.older ? this.names[1] : undefined;
    this.detail.replaceChildren(
      h('h2', { text: feature }),
      ...(absent ? [notice('info', `${absent} has no steps for ${feature} (its contribution is 0).`)] : []),
      this.charts.create(describeOverlay(overlay, this.names), (palette) => overlayChart(overlay, palette, this.names), 'large'),
      h('p', { class: 'muted', text: `Missing values: ${this.names[0]} ${missing(overlay.newer)}, ${this.names[1]} ${missing(overlay.older)}.` }),
    );
  }
}

connectLoadedPanel<'compare', CompareUi>(
  { loading: 'Loading both versions…', failed: 'The comparison could not be loaded.' },
  (root, client, data) => new CompareView(root, client, data).render(),
);
