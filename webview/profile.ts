/** Profile panel: base value, importances, each feature's contribution chart, partition switcher and refit. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { Edit } from '../src/contract/edits.js';
import type { FeatureParams, PartitionProfile } from '../src/contract/models.js';
import type { ProfileData, RefitOutcome } from '../src/views/protocol.js';
import type { EditScope } from '../src/views/classProfiles.js';
import { BAND_LEGEND, BAND_TEXT, plusMinus } from '../src/views/band.js';
import { isHistoryKey } from '../src/views/editActions.js';
import { formatNumber, formatPercent, partitionLabel } from '../src/views/format.js';
import { listTerms, pairTerm, type ListedTerm } from '../src/views/pairHeatmap.js';
import {
  featureSeries,
  hasBand,
  pickPartition,
  sharedScales,
  type FeatureSeries,
  type FeatureSort,
  type SharedScales,
} from '../src/views/profileSeries.js';
import { initialRefitValues, parseRefitForm, refitFields } from '../src/views/refitForm.js';
import { BinChart } from './charts/binChart.js';
import { importanceChart } from './charts/importanceChart.js';
import { ChartList } from './charts/svgChart.js';
import { controlValue, h } from './shared/dom.js';
import { missingBin } from './profile/missingBin.js';
import { pairDetail } from './profile/pairHeatmap.js';
import { connectLoadedPanel, errorMessage } from './shared/status.js';
import { fact, notice, select, table } from './shared/widgets.js';
import { EditSession, type ProfileClient, type ProfileUi } from './profile/editSession.js';
import { StepEditor } from './profile/stepEditor.js';
import { editApplies } from '../src/views/stepEdits.js';

function describeSeries(series: FeatureSeries): string {
  const parts =
    series.kind === 'numeric'
      ? series.bins.map((b) => `${b.label}: ${formatNumber(b.score)}${withSpread(b.std)}`)
      : series.categories.map((c) => `${c.category}: ${formatNumber(c.score)}${withSpread(c.std)}`);
  const band = hasBand(series) ? ` The band: ${BAND_TEXT}.` : '';
  return `Contribution of ${series.feature} by ${series.kind === 'numeric' ? 'range' : 'category'}. ${parts.join('; ')}.${band}`;
}

function withSpread(std: number): string {
  return std > 0 ? ` ${plusMinus(std)}` : '';
}

function binsTable(series: FeatureSeries): HTMLElement {
  const rows =
    series.kind === 'numeric'
      ? series.bins.map((b) => ({ label: b.label, score: b.score, std: b.std, freq: b.freq, mean: b.mean }))
      : series.categories.map((c) => ({ label: c.category, score: c.score, std: c.std, freq: c.freq, mean: c.mean }));
  if (series.missing) rows.push({ label: 'Missing', ...series.missing });
  return table(`Bins of ${series.feature}`, [
    { header: series.kind === 'numeric' ? 'Range' : 'Category', cell: (r) => r.label },
    { header: 'Contribution', numeric: true, cell: (r) => formatNumber(r.score) },
    ...(hasBand(series) ? [{ header: `Band (${BAND_TEXT})`, numeric: true, cell: (r: (typeof rows)[number]) => plusMinus(r.std) }] : []),
    { header: 'Frequency', numeric: true, cell: (r) => formatPercent(r.freq) },
    { header: 'Mean target', numeric: true, cell: (r) => formatNumber(r.mean) },
  ], rows);
}

class ProfileView {
  private readonly charts = new ChartList();
  private readonly detailCharts = new ChartList();
  private partition: PartitionProfile;
  /** The partition's features and pairs by importance, computed once per partition rather than on every render. */
  private ranked: ListedTerm[];
  private readonly list = h('ul', { class: 'feature-list', 'aria-label': 'Features' });
  private readonly detail = h('section', { class: 'card' });
  private refit: { feature: string; outcome: RefitOutcome } | undefined;
  /** The hand edits of the version, when it can be edited here. */
  private readonly session: EditSession | undefined;
  private editor: StepEditor | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: ProfileClient,
    private readonly data: ProfileData,
  ) {
    const fromNode = data.partitions.find((p) => p.partition_id === client.args.partitionId)?.partition;
    this.partition = pickPartition(data.profile.partitions, client.ui.partition ?? fromNode) ?? {
      partition: '__dataset__',
      base_value: 0,
      feature_importances: [],
      numeric: {},
      categorical: {},
    };
    this.ranked = listTerms(this.partition, '', 'importance');
    this.list.addEventListener('keydown', (event) => this.moveFocus(event));
    if (data.editing && client.args.modelId) {
      const session = new EditSession(client, data.profile.version_id);
      this.session = session;
      session.subscribe((change) => {
        if (change === 'edits') this.markEdited();
      });
      // Undo and redo anywhere in the panel; a text field keeps its own.
      document.addEventListener('keydown', (event) => {
        const target = event.target as Element | null;
        if (!isHistoryKey(event) || target?.closest('vscode-textfield, input, textarea')) return;
        event.preventDefault();
        if (event.shiftKey || event.key.toLowerCase() === 'y') session.redo();
        else session.undo();
      });
    }
  }

  /** The part of the version the picked partition (or class) shows, when its steps can be edited. */
  private get scope(): EditScope | undefined {
    return this.session ? this.data.editing?.scopes[this.partition.partition] : undefined;
  }

  private isEdited(feature: string): boolean {
    const scope = this.scope;
    return Boolean(scope && this.session?.edits.some((edit) => editApplies(edit, feature, scope)));
  }

  private get sort(): FeatureSort {
    return this.client.ui.sort ?? 'importance';
  }

  private get query(): string {
    return this.client.ui.query ?? '';
  }

  private selectedFeature(): string | undefined {
    const wanted = this.client.ui.feature;
    return this.ranked.find((f) => f.feature === wanted)?.feature ?? this.ranked[0]?.feature;
  }

  render(): void {
    this.charts.clear();
    const { profile, version } = this.data;
    const partitionOptions = profile.partitions.map((p) => ({ value: p.partition, label: partitionLabel(p.partition) }));
    const header = h(
      'header',
      { class: 'header' },
      h(
        'div',
        {},
        h('h1', { text: `Profile: ${profile.target_name}` }),
        h('p', { class: 'muted', text: `${modelKind(profile.model_type, this.data.classes)} · version ${version?.version_number ?? profile.version_id}` }),
      ),
      h(
        'div',
        { class: 'header-facts' },
        // The all-classes view of a multiclass model has no single base value (JSON carries its NaN as null).
        fact('Base value', Number.isFinite(this.partition.base_value) ? formatNumber(this.partition.base_value) : 'per class'),
        fact('Features', String(this.ranked.filter((f) => !f.pair).length)),
        this.partition.interactions?.length ? fact('Pairs', String(this.partition.interactions.length)) : null,
        partitionOptions.length > 1
          ? select(this.data.classes ? 'Class' : 'Partition', partitionOptions, this.partition.partition, (value) => this.switchPartition(value))
          : null,
      ),
    );
    const controls = h(
      'div',
      { class: 'feature-controls' },
      h('vscode-textfield', {
        placeholder: 'Search features',
        'aria-label': 'Search features',
        value: this.query,
        oninput: (event: Event) => {
          this.client.saveUi({ query: controlValue(event.target as Element) });
          this.renderList();
        },
      }),
      select(
        'Sort by',
        [
          { value: 'importance', label: 'Importance' },
          { value: 'name', label: 'Name' },
        ],
        this.sort,
        (value) => {
          this.client.saveUi({ sort: value === 'name' ? 'name' : 'importance' });
          this.renderList();
        },
      ),
    );
    this.root.replaceChildren(
      header,
      h('section', { 'aria-label': 'Feature importances' }, h('h2', { text: 'Feature importances' }), this.importanceChart()),
      h('div', { class: 'split' }, h('nav', { 'aria-label': 'Feature list' }, controls, this.list), this.detail),
    );
    this.renderList();
    this.renderDetail();
  }

  private importanceChart(): HTMLElement {
    const top = this.ranked.slice(0, 15);
    const description = `Top ${top.length} feature importances: ${top.map((f) => `${f.feature} ${formatPercent(f.importance)}`).join(', ')}.`;
    return this.charts.add(importanceChart(description, top)).element;
  }

  private switchPartition(value: string): void {
    const next = this.data.profile.partitions.find((p) => p.partition === value);
    if (!next) return;
    this.partition = next;
    this.ranked = listTerms(next, '', 'importance');
    this.refit = undefined;
    this.client.saveUi({ partition: value });
    this.render();
  }

  private renderList(): void {
    const selected = this.selectedFeature();
    const features = listTerms(this.partition, this.query, this.sort);
    const top = Math.max(...features.map((f) => f.importance), 0);
    if (!features.length) {
      this.list.replaceChildren(h('li', { class: 'muted', text: `No feature matches "${this.query}".` }));
      return;
    }
    this.list.replaceChildren(
      ...features.map((f) => {
        const bar = h('span', { class: 'importance-bar', 'aria-hidden': 'true' });
        bar.style.setProperty('--share', String(top > 0 ? f.importance / top : 0));
        return h(
          'li',
          {},
          h(
            'button',
            {
              class: this.isEdited(f.feature) ? 'edited' : undefined,
              'aria-current': f.feature === selected ? 'true' : 'false',
              'aria-label': `${f.feature}, importance ${formatPercent(f.importance)}`,
              'data-feature': f.feature,
              onclick: () => this.selectFeature(f.feature),
            },
            h('span', { class: 'feature-name' }, f.feature, h('span', { class: 'edited-tag', text: 'edited' })),
            h('span', { class: 'muted', text: formatPercent(f.importance) }),
            bar,
          ),
        );
      }),
    );
  }

  /** Marks the listed features the edits change in the part shown. */
  private markEdited(): void {
    for (const button of this.list.querySelectorAll('button')) {
      button.classList.toggle('edited', this.isEdited(button.dataset.feature ?? ''));
    }
  }

  private moveFocus(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...this.list.querySelectorAll('button')];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[index + (event.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  private selectFeature(feature: string): void {
    this.client.saveUi({ feature });
    for (const button of this.list.querySelectorAll('button')) {
      button.setAttribute('aria-current', button.dataset.feature === feature ? 'true' : 'false');
    }
    this.renderDetail();
  }

  private renderDetail(): void {
    this.detailCharts.clear();
    this.editor?.dispose();
    this.editor = undefined;
    const feature = this.selectedFeature();
    const series = feature ? featureSeries(this.partition, feature) : undefined;
    const pair = feature && !series ? pairTerm(this.partition, feature) : undefined;
    if (pair) {
      this.detail.replaceChildren(...pairDetail(pair));
      return;
    }
    if (!feature || !series) {
      const text = this.data.classes ? 'Pick a class to see how each feature moves its probability, and edit its steps.' : 'This partition has no features.';
      this.detail.replaceChildren(h('p', { class: 'muted', text }));
      return;
    }
    const importance = this.ranked.find((f) => f.feature === feature)?.importance ?? 0;
    const refitSeries = this.refitSeries(feature);
    const scales = refitSeries ? sharedScales([series, refitSeries]) : undefined;
    const current = this.currentChart(feature, series, scales);
    const comparison = refitSeries && scales ? this.comparison(feature, refitSeries, scales) : undefined;
    this.detail.replaceChildren(
      h('h2', { text: feature }),
      h('p', { class: 'muted', text: `${series.kind === 'numeric' ? 'Numeric' : 'Categorical'} · importance ${formatPercent(importance)}` }),
      comparison
        ? h('div', { class: 'grid-2' }, h('div', {}, h('h3', { text: 'This version' }), current), comparison)
        : current,
      hasBand(series) ? h('p', { class: 'muted', text: BAND_LEGEND }) : '',
      missingBin(series),
      h('details', {}, h('summary', { text: 'Bins as a table' }), binsTable(series)),
      this.refitSection(feature),
    );
  }

  /** This version's chart of the feature: with the step editor when the part shown can be edited. */
  private currentChart(feature: string, series: FeatureSeries, scales: SharedScales | undefined): HTMLElement {
    const { session, scope } = this;
    const editing = this.data.editing;
    const modelId = this.client.args.modelId;
    if (session && scope && editing && modelId) {
      this.editor = new StepEditor({
        session,
        partition: this.partition,
        feature,
        scope,
        method: editing.method,
        modelId,
        ...(scales ? { scales } : {}),
        describe: describeSeries,
        binLabels: (edit) => this.binLabels(edit, scope),
      });
      return this.editor.element;
    }
    const chart = this.detailCharts.add(new BinChart(describeSeries(series), { series, scales, title: feature })).element;
    const why = this.data.editUnavailable;
    return why ? h('div', {}, chart, h('p', { class: 'muted', text: `Editing the steps: ${why}` })) : chart;
  }

  /** The labels of the bins an edit names, from the part of the version it edits (the one shown when it names none). */
  private binLabels(edit: Edit, shown: EditScope): readonly string[] {
    const scopes = this.data.editing?.scopes ?? {};
    const partition = edit.partition ?? shown.partition;
    const cls = edit.class ?? shown.class;
    const entry = Object.keys(scopes).find((name) => scopes[name].partition === partition && scopes[name].class === cls);
    const series = entry ? featureSeries(pickPartition(this.data.profile.partitions, entry) ?? this.partition, edit.feature) : undefined;
    if (!series) return [];
    return series.kind === 'numeric' ? series.bins.map((b) => b.label) : series.categories.map((c) => c.category);
  }

  /** The refit version's series of this feature, when the feature was just refit. */
  private refitSeries(feature: string): FeatureSeries | undefined {
    if (!this.refit || this.refit.feature !== feature) return undefined;
    const partition = pickPartition(this.refit.outcome.profile.partitions, this.partition.partition);
    return partition ? featureSeries(partition, feature) : undefined;
  }

  private comparison(feature: string, series: FeatureSeries, scales: SharedScales): HTMLElement {
    const outcome = this.refit?.outcome;
    const changes = Object.entries(outcome?.parametersChanged[feature] ?? {}).map(
      ([param, change]) => `${param}: ${String(change.from)} → ${String(change.to)}`,
    );
    const title = outcome?.versionNumber ? `New version ${outcome.versionNumber}` : 'New version';
    return h(
      'div',
      {},
      h('h3', { text: title }),
      this.detailCharts.add(new BinChart(`${title}. ${describeSeries(series)}`, { series, scales, title: feature })).element,
      h('p', { class: 'muted', text: changes.length ? `Changed ${changes.join(', ')}` : 'No parameter changed.' }),
    );
  }

  private refitSection(feature: string): HTMLElement {
    const section = h('details', { class: 'refit' }, h('summary', { text: 'Refit this feature' }));
    if (this.data.refitUnavailable || !this.client.args.modelId) {
      section.append(notice('info', this.data.refitUnavailable ?? 'Refit is unavailable for this version.'));
      return section;
    }
    const modelType = this.data.profile.model_type;
    const parameters = this.data.version?.parameters ?? {};
    const values = initialRefitValues(modelType, parameters);
    const fields = refitFields(modelType, parameters).map((field) => {
      const input = h('vscode-textfield', { type: 'number', value: values[field.name], label: field.label, name: field.name, 'aria-label': field.label });
      const error = h('span', { class: 'field-error', role: 'alert' });
      return { field, input, error, element: h('label', {}, h('span', { text: field.label }), input, h('span', { class: 'muted', text: field.help }), error) };
    });
    const outcome = h('div', { 'aria-live': 'polite' });
    const button = h('vscode-button', { icon: 'debug-restart' }, `Refit ${feature}`);
    button.addEventListener('click', () => {
      const result = parseRefitForm(modelType, Object.fromEntries(fields.map((f) => [f.field.name, controlValue(f.input)])), parameters);
      for (const f of fields) {
        const problem = result.ok ? undefined : result.errors.find((e) => e.field === f.field.name);
        f.error.textContent = problem?.message ?? '';
        if (problem) f.input.setAttribute('invalid', '');
        else f.input.removeAttribute('invalid');
      }
      if (!result.ok) return;
      void this.runRefit(feature, result.params, button, outcome);
    });
    section.append(h('div', { class: 'refit-form' }, ...fields.map((f) => f.element)), button, outcome);
    return section;
  }

  private async runRefit(
    feature: string,
    params: FeatureParams,
    button: HTMLElement,
    outcome: HTMLElement,
  ): Promise<void> {
    const modelId = this.client.args.modelId;
    if (!modelId) return;
    button.setAttribute('disabled', '');
    outcome.replaceChildren(notice('info', `Refitting ${feature}…`));
    try {
      const result = await this.client.request('refit', { versionId: this.data.profile.version_id, modelId, feature, params });
      this.refit = { feature, outcome: result };
      this.renderDetail();
    } catch (error) {
      outcome.replaceChildren(notice('error', `Refit failed: ${errorMessage(error)} Change the parameters and refit again.`));
    } finally {
      button.removeAttribute('disabled');
    }
  }
}

connectLoadedPanel<'profile', ProfileUi>(
  { loading: 'Loading the profile…', failed: 'The profile could not be loaded.' },
  (root, client, data) => new ProfileView(root, client, data).render(),
);

function modelKind(type: string, classes: readonly string[] | undefined): string {
  if (classes) return `Multiclass classifier (${classes.length} classes, one-vs-rest)`;
  return type === 'regression' ? 'Regressor' : 'Binary classifier';
}
