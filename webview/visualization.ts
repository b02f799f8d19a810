/** Visualization code panel: generated Python per library, highlighted, with editor actions and a native preview. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import type { VisualizationLibrary, VisualizationResponse } from '../src/contract/autotrain.js';
import type { CodeParams } from '../src/views/protocol.js';
import { chartPreview, type ChartPreview } from '../src/views/chartPreview.js';
import { lineDiff } from '../src/views/lineDiff.js';
import { formatNumber } from '../src/views/format.js';
import { axis, ChartSet, themedOptions } from './shared/charts.js';
import { controlValue, h } from './shared/dom.js';
import { connectPanel, type PanelClient } from './shared/panelClient.js';
import { errorMessage, loadInto } from './shared/status.js';
import { withAlpha } from './shared/theme.js';
import { notice, select } from './shared/widgets.js';

hljs.registerLanguage('python', python);

interface VisualizationUi {
  library: VisualizationLibrary;
}

type Client = PanelClient<'visualization', VisualizationUi>;

const LIBRARIES: { value: VisualizationLibrary; label: string }[] = [
  { value: 'plotly', label: 'Plotly' },
  { value: 'matplotlib', label: 'Matplotlib' },
  { value: 'seaborn', label: 'Seaborn' },
];

function previewElement(preview: ChartPreview, charts: ChartSet): HTMLElement {
  if (preview.kind === 'empty') return notice('info', preview.reason);
  if (preview.kind === 'heatmap') {
    const span = preview.max - preview.min || 1;
    return h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'heatmap' },
        h('caption', { class: 'muted', text: preview.title }),
        h('thead', {}, h('tr', {}, h('td', {}), ...preview.xLabels.map((c) => h('th', { scope: 'col', text: c })))),
        h(
          'tbody',
          {},
          ...preview.cells.map((row, i) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row', text: preview.yLabels[i] ?? '' }),
              ...row.map((value) => {
                const cell = h('td', { class: 'heat', text: formatNumber(value, 2) });
                if (value !== null) cell.style.setProperty('--heat', String((value - preview.min) / span));
                return cell;
              }),
            ),
          ),
        ),
      ),
    );
  }
  return charts.create(`${preview.title}: ${preview.type} chart of ${preview.yTitle} by ${preview.xTitle}.`, (p) => ({
    type: preview.type,
    data: {
      labels: preview.labels,
      datasets: preview.datasets.map((d, i) => ({
        label: d.label,
        data: d.data,
        borderColor: p.series[i % p.series.length],
        backgroundColor: withAlpha(p.series[i % p.series.length], preview.type === 'bar' ? 0.75 : 0.5),
        pointRadius: preview.type === 'scatter' ? 3 : 0,
        ...(preview.type === 'bar' ? { grouped: false } : {}),
      })),
    } as never,
    options: themedOptions(p, {
      scales: {
        x: { ...(preview.type === 'scatter' ? { type: 'linear' } : {}), ...axis(p, preview.xTitle) },
        y: axis(p, preview.yTitle),
      },
    }),
  }), 'large');
}

class VisualizationView {
  private readonly charts = new ChartSet();
  private readonly content = h('div', {});

  constructor(
    private readonly root: HTMLElement,
    private readonly client: Client,
  ) {}

  private get library(): VisualizationLibrary {
    return this.client.ui.library ?? this.client.args.library ?? 'plotly';
  }

  render(): void {
    const { goal } = this.client.args;
    this.root.setAttribute('aria-busy', 'false');
    this.root.replaceChildren(
      h(
        'header',
        { class: 'header' },
        h('div', {}, h('h1', { text: goal.question }), h('p', { class: 'muted', text: goal.visualization })),
        select('Library', LIBRARIES, this.library, (value) => {
          this.client.saveUi({ library: value as VisualizationLibrary });
          this.load();
        }),
      ),
      this.content,
    );
    this.load();
  }

  private load(): void {
    this.charts.clear();
    void loadInto(
      this.content,
      { loading: `Generating ${this.library} code…`, failed: 'The chart code could not be generated.' },
      () => this.client.request('load', { library: this.library }),
      (response) => this.show(response),
    );
  }

  private action(label: string, iconName: string, method: 'insertAtCursor' | 'openAsNewFile' | 'copy', code: string, status: HTMLElement) {
    const button = h('vscode-button', { icon: iconName, secondary: method !== 'insertAtCursor', 'aria-label': label }, label);
    button.addEventListener('click', async () => {
      status.replaceChildren();
      button.setAttribute('disabled', '');
      try {
        const params: CodeParams = { code };
        const result = await this.client.request(method, params);
        const done =
          method === 'insertAtCursor' && result && typeof result === 'object' && 'fileName' in result
            ? 'cell' in result && typeof result.cell === 'number'
              ? `Added as cell ${result.cell} of ${String(result.fileName)}.`
              : `Inserted into ${String(result.fileName)}.`
            : method === 'copy'
              ? 'Copied to the clipboard.'
              : 'Opened as a new file.';
        status.replaceChildren(notice('info', done));
      } catch (error) {
        status.replaceChildren(notice('error', errorMessage(error)));
      } finally {
        button.removeAttribute('disabled');
      }
    });
    return button;
  }

  /** "Fix this chart": an instruction, then the edited code as a diff to apply or discard; never run. */
  private fixForm(response: VisualizationResponse): HTMLElement {
    const result = h('div', { 'aria-live': 'polite' });
    const input = h('vscode-textfield', { placeholder: 'log scale, only 2020, colour by species…', 'aria-label': 'What to change in the chart' });
    const button = h('vscode-button', { secondary: true, 'aria-label': 'Fix this chart' }, 'Fix this chart');
    const submit = async (): Promise<void> => {
      const instruction = controlValue(input).trim();
      if (!instruction) {
        result.replaceChildren(notice('info', 'Say what to change, for example "log scale", "only 2020" or "colour by species".'));
        return;
      }
      button.setAttribute('disabled', '');
      result.replaceChildren(notice('info', 'Editing the code…'));
      try {
        const edited = await this.client.request('fixChart', { library: response.library, code: response.code, instruction });
        result.replaceChildren(this.diffView(response, edited));
      } catch (error) {
        result.replaceChildren(notice('error', errorMessage(error)));
      } finally {
        button.removeAttribute('disabled');
      }
    };
    button.addEventListener('click', () => void submit());
    input.addEventListener('keydown', (event) => {
      if ((event as KeyboardEvent).key === 'Enter') void submit();
    });
    return h('div', { class: 'fix-chart' }, h('div', { class: 'toolbar' }, input, button), result);
  }

  private diffView(current: VisualizationResponse, edited: VisualizationResponse): HTMLElement {
    const lines = lineDiff(current.code, edited.code).filter((l) => l.kind !== 'same');
    const apply = h('vscode-button', { 'aria-label': 'Replace the code with the edited code' }, 'Apply');
    const discard = h('vscode-button', { secondary: true, 'aria-label': 'Keep the current code' }, 'Discard');
    const view = h(
      'div',
      { class: 'fix-diff' },
      ...edited.warnings.map((w) => notice('warning', w)),
      h('p', { class: 'muted', text: `${lines.length} changed line(s)${edited.source === 'llm' ? ', written by the configured language model' : ''}:` }),
      h('pre', { class: 'code-block diff', tabindex: 0, 'aria-label': 'Changes to the code' }, ...lines.map((l) => h('div', { class: `diff-${l.kind}`, text: `${l.kind === 'added' ? '+' : '-'} ${l.text}` }))),
      h('div', { class: 'toolbar' }, apply, discard),
    );
    apply.addEventListener('click', () => this.show(edited));
    discard.addEventListener('click', () => view.remove());
    return view;
  }

  private show(response: VisualizationResponse): void {
    const status = h('div', { 'aria-live': 'polite' });
    const code = h('code', { class: 'hljs language-python' });
    code.innerHTML = hljs.highlight(response.code, { language: 'python' }).value;
    const preview = chartPreview(response.chart);
    this.content.replaceChildren(
      ...response.warnings.map((w) => notice('warning', w)),
      h(
        'div',
        { class: 'grid-2' },
        h(
          'section',
          { 'aria-label': 'Python code' },
          h('h2', { text: 'Python code' }),
          h('p', { text: response.description }),
          h(
            'div',
            { class: 'toolbar', role: 'toolbar', 'aria-label': 'Code actions' },
            this.action('Insert at cursor', 'insert', 'insertAtCursor', response.code, status),
            this.action('Open as new file', 'new-file', 'openAsNewFile', response.code, status),
            this.action('Copy', 'copy', 'copy', response.code, status),
          ),
          status,
          h('pre', { class: 'code-block', tabindex: 0, 'aria-label': `${response.library} code` }, code),
          this.fixForm(response),
          response.dependencies.length
            ? h('p', { class: 'muted' }, 'Requires: ', h('code', { text: `pip install ${response.dependencies.join(' ')}` }))
            : null,
          h('p', { class: 'muted', text: response.source === 'llm' ? 'Written by the configured language model.' : 'Written from built-in templates.' }),
        ),
        h('section', { 'aria-label': 'Preview' }, h('h2', { text: 'Preview' }), h('p', { class: 'muted', text: response.chart.title }), previewElement(preview, this.charts)),
      ),
    );
  }
}

connectPanel<'visualization', VisualizationUi>((client) => {
  const root = document.getElementById('app') as HTMLElement;
  new VisualizationView(root, client).render();
});
