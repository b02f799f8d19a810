/** Dataset summary panel: the columns with sparklines, and goals, labels and recommendations with actions. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import type { Goal, Label, Recommendation } from '../src/contract/autotrain.js';
import type { DatasetSummaryArgs, SummaryAction } from '../src/views/protocol.js';
import { formatNumber, formatPercent } from '../src/views/format.js';
import { recommendationSteps, summaryRows, type Sparkline, type SummaryRow } from '../src/views/summaryTable.js';
import { h, svg } from './shared/dom.js';
import type { PanelClient } from './shared/panelClient.js';
import { connectLoadedPanel, errorMessage } from './shared/status.js';
import { fact, notice, table } from './shared/widgets.js';

interface SummaryUi {
  chosen: number[];
}

type Client = PanelClient<'datasetSummary', SummaryUi>;

const WIDTH = 120;
const HEIGHT = 18;

function sparklineSvg(line: Sparkline): SVGElement {
  const shapes: SVGElement[] = [svg('rect', { class: 'track', x: 0, y: 8, width: WIDTH, height: 2 })];
  if (line.kind === 'range') {
    shapes.push(
      svg('rect', { class: 'band', x: line.bandLow * WIDTH, y: 4, width: Math.max(1, (line.bandHigh - line.bandLow) * WIDTH), height: 10 }),
      svg('rect', { class: 'mark', x: Math.min(WIDTH - 2, line.mean * WIDTH), y: 1, width: 2, height: 16 }),
    );
  } else {
    shapes.push(
      svg('rect', { class: 'band', x: 0, y: 4, width: Math.max(1, line.distinct * WIDTH), height: 10 }),
      svg('rect', { class: 'missing', x: WIDTH - line.missing * WIDTH, y: 4, width: line.missing * WIDTH, height: 10 }),
    );
  }
  const title = svg('title', {});
  title.textContent = line.description;
  return svg('svg', { class: 'sparkline', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': line.description }, title, ...shapes);
}

function rangeText(row: SummaryRow): string {
  if (row.min === undefined || row.max === undefined) return '';
  const show = (v: number | string) => (typeof v === 'number' ? formatNumber(v, 3) : v);
  return `${show(row.min)} to ${show(row.max)}`;
}

class SummaryView {
  private readonly chosen: Set<number>;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: Client,
    private readonly data: DatasetSummaryArgs,
  ) {
    this.chosen = new Set(client.ui.chosen ?? []);
  }

  render(): void {
    const { summary } = this.data;
    const missingCells = Object.values(summary.missing_values).reduce((sum, n) => sum + n, 0);
    this.root.replaceChildren(
      h(
        'header',
        { class: 'header' },
        h('div', {}, h('h1', { text: summary.name }), h('p', { class: 'muted', text: summary.dataset_description || summary.file_name })),
        h(
          'div',
          { class: 'header-facts' },
          fact('Rows', formatNumber(summary.rows, 0)),
          fact('Columns', String(summary.columns.length)),
          fact('Missing cells', formatNumber(missingCells, 0)),
        ),
      ),
      h('section', { 'aria-label': 'Columns' }, h('h2', { text: 'Columns' }), this.columnsTable()),
      ...[this.labelsSection(), this.goalsSection(), this.recommendationsSection()].filter((s): s is HTMLElement => s !== null),
    );
  }

  private columnsTable(): HTMLElement {
    return table('Summary of each column', [
      { header: 'Column', cell: (r: SummaryRow) => h('strong', { text: r.column }) },
      { header: 'Type', cell: (r) => `${r.dtype}${r.semanticType && r.semanticType !== r.dtype ? ` (${r.semanticType})` : ''}` },
      { header: 'Shape', cell: (r) => sparklineSvg(r.sparkline) },
      { header: 'Range', cell: (r) => rangeText(r) },
      { header: 'Distinct', numeric: true, cell: (r) => formatNumber(r.distinct, 0) },
      { header: 'Missing', numeric: true, cell: (r) => (r.missing ? `${r.missing} (${formatPercent(r.missingShare)})` : '0') },
      { header: 'Samples', cell: (r) => r.samples.map(String).join(', ') },
    ], summaryRows(this.data.summary));
  }

  private async run(action: SummaryAction, button: HTMLElement, status: HTMLElement): Promise<void> {
    button.setAttribute('disabled', '');
    status.replaceChildren();
    try {
      await this.client.request('run', action);
    } catch (error) {
      status.replaceChildren(notice('error', `${errorMessage(error)}`));
    } finally {
      button.removeAttribute('disabled');
    }
  }

  private actionButton(label: string, iconName: string, ariaLabel: string, action: () => SummaryAction, status: HTMLElement): HTMLElement {
    const button = h('vscode-button', { icon: iconName, secondary: true, 'aria-label': ariaLabel }, label);
    button.addEventListener('click', () => void this.run(action(), button, status));
    return button;
  }

  private labelsSection(): HTMLElement | null {
    const labels = this.data.labels ?? [];
    if (!labels.length) return null;
    const status = h('div', { 'aria-live': 'polite' });
    const item = (label: Label) =>
      h(
        'li',
        {},
        h(
          'div',
          {},
          h('strong', { text: label.column }),
          ' ',
          h('span', { class: 'tag', text: label.model_type }),
          h('span', { class: 'tag', text: `confidence ${formatPercent(label.confidence, 0)}` }),
          h('p', { text: label.reasoning }),
          label.alternatives.length ? h('p', { class: 'muted', text: `Alternatives: ${label.alternatives.join(', ')}` }) : null,
        ),
        this.actionButton('Train with this label', 'play', `Train a model that predicts ${label.column}`, () => ({ action: 'trainWithLabel', label }), status),
      );
    return h('section', { 'aria-label': 'Suggested labels' }, h('h2', { text: 'Suggested labels' }), status, h('ul', { class: 'item-list' }, ...labels.map(item)));
  }

  private goalsSection(): HTMLElement | null {
    const goals = this.data.goals ?? [];
    if (!goals.length) return null;
    const status = h('div', { 'aria-live': 'polite' });
    const item = (goal: Goal) =>
      h(
        'li',
        {},
        h(
          'div',
          {},
          h('strong', { text: goal.question }),
          h('p', { class: 'muted', text: goal.visualization }),
          h('p', { text: goal.rationale }),
        ),
        this.actionButton('Visualize this goal', 'graph', `Visualize: ${goal.question}`, () => ({ action: 'visualizeGoal', goal }), status),
      );
    return h('section', { 'aria-label': 'Goals' }, h('h2', { text: 'Goals' }), status, h('ul', { class: 'item-list' }, ...goals.map(item)));
  }

  private recommendationsSection(): HTMLElement | null {
    const recommendations = this.data.recommendations ?? [];
    if (!recommendations.length) return null;
    const status = h('div', { 'aria-live': 'polite' });
    const create = this.actionButton(
      'Create preprocessor from these steps',
      'tools',
      'Create a preprocessor from the chosen steps',
      () => ({ action: 'createPreprocessor', steps: recommendationSteps(recommendations, this.chosen) }),
      status,
    );
    const syncCreate = () => {
      if (this.chosen.size) create.removeAttribute('disabled');
      else create.setAttribute('disabled', '');
    };
    const item = (rec: Recommendation) => {
      const checkbox = h('vscode-checkbox', {
        checked: this.chosen.has(rec.index),
        'aria-label': `Use the step ${rec.feature_name}`,
      });
      checkbox.addEventListener('change', () => {
        if ((checkbox as HTMLElement & { checked: boolean }).checked) this.chosen.add(rec.index);
        else this.chosen.delete(rec.index);
        this.client.saveUi({ chosen: [...this.chosen] });
        syncCreate();
      });
      return h(
        'li',
        {},
        checkbox,
        h(
          'div',
          {},
          h('strong', { text: rec.feature_name }),
          ' ',
          h('span', { class: 'tag', text: `${rec.complexity} complexity` }),
          h('p', { text: rec.description }),
          h('p', { class: 'muted', text: `Expected impact: ${rec.expected_impact}` }),
          h('code', { text: JSON.stringify(rec.step) }),
        ),
      );
    };
    syncCreate();
    return h(
      'section',
      { 'aria-label': 'Feature engineering recommendations' },
      h('h2', { text: 'Feature engineering recommendations' }),
      h('ul', { class: 'item-list' }, ...recommendations.map(item)),
      h('div', { class: 'toolbar' }, create),
      status,
    );
  }
}

connectLoadedPanel<'datasetSummary', SummaryUi>(
  { loading: 'Loading the dataset summary…', failed: 'The dataset summary could not be shown.' },
  (root, client, data) => new SummaryView(root, client, data).render(),
);
