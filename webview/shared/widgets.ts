/** Small building blocks the panels share: facts, notices, selects and tables. */
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import { controlValue, h, icon } from './dom.js';

/** A labelled figure in a header ("Base value 0.31"). */
export function fact(label: string, value: string): HTMLElement {
  return h('div', { class: 'fact' }, h('span', { class: 'fact-label', text: label }), h('span', { class: 'fact-value', text: value }));
}

export function notice(severity: 'info' | 'warning' | 'error', message: string): HTMLElement {
  const glyph = severity === 'info' ? 'info' : severity;
  return h('div', { class: `notice notice-${severity}`, role: severity === 'info' ? 'note' : 'alert' }, icon(glyph), h('span', { text: message }));
}

/** A labelled vscode-single-select; `onChange` receives the chosen value. */
export function select(
  label: string,
  options: readonly { value: string; label: string }[],
  selected: string,
  onChange: (value: string) => void,
): HTMLElement {
  const control = h(
    'vscode-single-select',
    { 'aria-label': label, onchange: (event: Event) => onChange(controlValue(event.target as Element)) },
    ...options.map((option) => h('vscode-option', { value: option.value, selected: option.value === selected }, option.label)),
  );
  return h('div', { class: 'toolbar' }, h('label', { text: label }), control);
}

export interface Column<Row> {
  header: string;
  numeric?: boolean;
  cell(row: Row): Node | string;
}

/** A data table with a caption (read by screen readers) and header cells. */
export function table<Row>(caption: string, columns: readonly Column<Row>[], rows: readonly Row[], className = ''): HTMLElement {
  const numeric = (column: Column<Row>) => (column.numeric ? 'number' : undefined);
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: className },
      h('caption', { class: 'muted', text: caption }),
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col', class: numeric(c) }, c.header)))),
      h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map((c) => h('td', { class: numeric(c) }, c.cell(row)))))),
    ),
  );
}
