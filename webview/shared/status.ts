/** Loading and error states shared by every panel. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { PanelApis, PanelError, ParamsOf, ResultOf } from '../../src/views/protocol.js';
import { h } from './dom.js';
import { connectPanel, SupersededError, type PanelClient } from './panelClient.js';

export function showLoading(root: HTMLElement, label: string): void {
  root.setAttribute('aria-busy', 'true');
  root.replaceChildren(
    h('div', { class: 'status', role: 'status' }, h('vscode-progress-ring', { 'aria-hidden': 'true' }), h('span', { text: label })),
  );
}

/** The sentence of a failed request (a PanelError from the host), or the text of anything else thrown. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as PanelError).message === 'string') {
    return (error as PanelError).message;
  }
  return String(error);
}

export function showError(root: HTMLElement, title: string, error: unknown, retry: () => void): void {
  root.setAttribute('aria-busy', 'false');
  const button = h('vscode-button', { icon: 'refresh', onclick: retry, 'aria-label': `Retry: ${title}` }, 'Retry');
  root.replaceChildren(
    h(
      'div',
      { class: 'status status-error', role: 'alert' },
      h('span', { class: 'codicon codicon-error', 'aria-hidden': 'true' }),
      h('div', {}, h('strong', { text: title }), h('p', { text: errorMessage(error) })),
      button,
    ),
  );
  button.focus();
}

/**
 * Shows the loading state, fetches, then renders or shows the error with Retry (which runs it all again).
 * A superseded request renders nothing: the newer one owns the view.
 */
export async function loadInto<T>(
  root: HTMLElement,
  labels: { loading: string; failed: string },
  fetch: () => Promise<T>,
  render: (value: T) => void,
): Promise<void> {
  showLoading(root, labels.loading);
  try {
    const value = await fetch();
    root.setAttribute('aria-busy', 'false');
    render(value);
  } catch (error) {
    if (error instanceof SupersededError) return;
    showError(root, labels.failed, error, () => void loadInto(root, labels, fetch, render));
  }
}

type LoadedPanelKind = 'profile' | 'evaluation' | 'featureInfo' | 'datasetSummary' | 'compare';
type LoadResult<K extends LoadedPanelKind> = ResultOf<PanelApis[K], 'load'>;

/** Starts a panel whose view is drawn from the host's `load` answer, with the loading and error-with-Retry states. */
export function connectLoadedPanel<K extends LoadedPanelKind, Ui>(
  labels: { loading: string; failed: string },
  render: (root: HTMLElement, client: PanelClient<K, Ui>, data: LoadResult<K>) => void,
): void {
  connectPanel<K, Ui>((client) => {
    const root = document.getElementById('app') as HTMLElement;
    const load = () => client.request('load', client.args as ParamsOf<PanelApis[K], 'load'>) as Promise<LoadResult<K>>;
    void loadInto(root, labels, load, (data) => render(root, client, data));
  });
}
