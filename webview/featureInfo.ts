/** Feature info panel: each feature's type, health figures with warnings, and distribution. */
import type { FeatureInfo, FeatureInfoEntry } from '../src/contract/models.js';
import { formatPercent } from '../src/views/format.js';
import { distributionBars, healthFigures, healthWarnings } from '../src/views/featureHealth.js';
import { axis, ChartSet, themedOptions } from './shared/charts.js';
import { h, icon } from './shared/dom.js';
import type { PanelClient } from './shared/panelClient.js';
import { connectLoadedPanel } from './shared/status.js';
import { fact, notice, table } from './shared/widgets.js';

interface FeatureInfoUi {
  feature: string;
}

type Client = PanelClient<'featureInfo', FeatureInfoUi>;

class FeatureInfoView {
  private readonly charts = new ChartSet();
  private readonly detail = h('section', { class: 'card', 'aria-live': 'polite' });
  private readonly features: FeatureInfoEntry[];

  constructor(
    private readonly root: HTMLElement,
    private readonly client: Client,
    info: FeatureInfo,
  ) {
    this.features = [...info.features].sort((a, b) => b.importance - a.importance || a.feature.localeCompare(b.feature));
  }

  private selected(): FeatureInfoEntry | undefined {
    return this.features.find((f) => f.feature === this.client.ui.feature) ?? this.features[0];
  }

  render(): void {
    const warned = this.features.filter((f) => healthWarnings(f).length > 0).length;
    const overview = table('Features by importance', [
      {
        header: 'Feature',
        cell: (f: FeatureInfoEntry) =>
          h('button', { class: 'link-button', 'data-feature': f.feature, onclick: () => this.select(f.feature), 'aria-label': `Show ${f.feature}` }, f.feature),
      },
      { header: 'Type', cell: (f) => f.type },
      { header: 'Missing', numeric: true, cell: (f) => formatPercent(f.health_info.missing_pct) },
      {
        header: 'Warnings',
        cell: (f) => {
          const warnings = healthWarnings(f);
          return warnings.length
            ? h('span', { title: warnings.map((w) => w.message).join('\n') }, icon('warning'), ` ${warnings.length}`)
            : '';
        },
      },
      { header: 'Importance', numeric: true, cell: (f) => formatPercent(f.importance) },
    ], this.features);
    this.root.replaceChildren(
      h(
        'header',
        { class: 'header' },
        h('div', {}, h('h1', { text: 'Feature info' }), h('p', { class: 'muted', text: 'Types, data health and distributions of the training data' })),
        h('div', { class: 'header-facts' }, fact('Features', String(this.features.length)), fact('With warnings', String(warned))),
      ),
      h('div', { class: 'split split-wide' }, h('nav', { 'aria-label': 'Features' }, overview), this.detail),
    );
    this.renderDetail();
  }

  private select(feature: string): void {
    this.client.saveUi({ feature });
    this.renderDetail();
  }

  private renderDetail(): void {
    this.charts.clear();
    const entry = this.selected();
    if (!entry) {
      this.detail.replaceChildren(h('p', { class: 'muted', text: 'The version has no features.' }));
      return;
    }
    for (const button of this.root.querySelectorAll<HTMLButtonElement>('button[data-feature]')) {
      button.setAttribute('aria-current', button.dataset.feature === entry.feature ? 'true' : 'false');
    }
    const warnings = healthWarnings(entry);
    const bars = distributionBars(entry.distribution);
    const chartTitle = entry.distribution.kind === 'histogram' ? `Distribution of ${entry.feature}` : `Most common values of ${entry.feature}`;
    this.detail.replaceChildren(
      h('h2', { text: entry.feature }),
      h('p', { class: 'muted', text: `${entry.type} · importance ${formatPercent(entry.importance)}` }),
      ...(warnings.length
        ? warnings.map((w) => notice(w.severity, w.message))
        : [h('p', { class: 'muted' }, icon('pass'), ' No data-health warnings.')]),
      h('h3', { text: chartTitle }),
      bars.counts.length
        ? this.charts.create(`${chartTitle}: ${bars.labels.length} bars.`, (p) => ({
            type: 'bar',
            data: {
              labels: bars.labels,
              datasets: [
                {
                  label: 'Rows',
                  data: bars.counts,
                  backgroundColor: p.series[0],
                  ...(entry.distribution.kind === 'histogram' ? { barPercentage: 1, categoryPercentage: 0.98 } : {}),
                },
              ],
            },
            options: themedOptions(p, {
              plugins: { legend: { display: false } },
              scales: { x: axis(p, entry.feature), y: axis(p, 'Rows') },
            }),
          }))
        : h('p', { class: 'muted', text: 'No distribution was recorded for this feature.' }),
      h('h3', { text: 'Health figures' }),
      table(`Health figures of ${entry.feature}`, [
        { header: 'Figure', cell: (f) => f.label },
        { header: 'Value', numeric: true, cell: (f) => f.value },
      ], healthFigures(entry)),
    );
  }
}

connectLoadedPanel<'featureInfo', FeatureInfoUi>(
  { loading: 'Loading feature info…', failed: 'The feature info could not be loaded.' },
  (root, client, info) => new FeatureInfoView(root, client, info).render(),
);
