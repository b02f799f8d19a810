/** Loading and error states shared by every panel. */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { PanelError } from '../../src/panels/protocol.js';
import { h } from './dom.js';
import { SupersededError } from './panelClient.js';

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
