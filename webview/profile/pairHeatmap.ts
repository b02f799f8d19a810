/** A pair term in the profile panel: a heat map over its two features' bins, a legend, hover values and a table. */
import type { Interaction } from '../../src/contract/models.js';
import { BAND_TEXT, PLUS_MINUS_TEXT, plusMinus } from '../../src/views/band.js';
import { formatNumber, formatPercent } from '../../src/views/format.js';
import { pairHeatmap, type HeatCell, type PairHeatmap } from '../../src/views/pairHeatmap.js';
import { h } from '../shared/dom.js';
import { table } from '../shared/widgets.js';

const READOUT_HINT = 'Point at a cell, or focus the map and move with the arrow keys, to read its values.';

/** The detail view of a pair term: heading, heat map, legend and the cells as a table on demand. */
export function pairDetail(interaction: Interaction): HTMLElement[] {
  const map = pairHeatmap(interaction);
  const readout = h('p', { class: 'heat-readout', 'aria-hidden': 'true', text: READOUT_HINT });
  return [
    h('h2', { text: map.label }),
    h('p', {
      class: 'muted',
      text: `Pair · importance ${formatPercent(map.importance)} · what the two features add together; each one's own effect is in its chart.`,
    }),
    h('div', { class: 'table-scroll' }, heatTable(map, readout)),
    readout,
    legend(map),
    h('details', {}, h('summary', { text: 'Cells as a table' }), cellTable(map)),
  ];
}

function heatTable(map: PairHeatmap, readout: HTMLElement): HTMLElement {
  const [first, second] = map.features;
  const body = map.rows.map((row, i) =>
    h(
      'tr',
      { class: row.missing ? 'missing-row' : undefined },
      i === 0 ? h('th', { scope: 'rowgroup', rowspan: map.rows.length, class: 'axis-title rows-title', text: first }) : null,
      h('th', { scope: 'row', class: row.missing ? 'missing' : undefined, title: row.full, text: row.label }),
      ...map.cells[i].map((cell, j) => heatCell(cell, i, j, map.columns[j].missing)),
    ),
  );
  const grid = h(
    'table',
    { class: 'pair-heatmap', role: 'grid', 'aria-label': map.summary },
    h(
      'thead',
      {},
      h('tr', {}, h('td', { colspan: 2 }), h('th', { scope: 'colgroup', colspan: map.columns.length, class: 'axis-title', text: second })),
      h(
        'tr',
        {},
        h('td', { colspan: 2 }),
        ...map.columns.map((column) =>
          h('th', { scope: 'col', class: column.missing ? 'missing missing-column' : undefined, title: column.full, text: column.label }),
        ),
      ),
    ),
    h('tbody', {}, ...body),
  );
  const cellText = (target: EventTarget | null) => (target instanceof HTMLElement ? target.closest('td[data-row]')?.getAttribute('aria-label') : null);
  const show = (event: Event) => {
    readout.textContent = cellText(event.target) ?? readout.textContent;
  };
  grid.addEventListener('mouseover', show);
  grid.addEventListener('focusin', show);
  grid.addEventListener('mouseleave', () => {
    readout.textContent = cellText(document.activeElement) ?? READOUT_HINT;
  });
  grid.addEventListener('keydown', (event) => moveFocus(grid, event));
  return grid;
}

function heatCell(cell: HeatCell, row: number, column: number, missingColumn: boolean): HTMLElement {
  const classes = ['cell', cell.tone, cell.empty ? 'empty' : '', missingColumn ? 'missing-column' : ''].filter(Boolean).join(' ');
  const td = h('td', {
    class: classes,
    tabindex: row === 0 && column === 0 ? '0' : '-1',
    'data-row': row,
    'data-column': column,
    'aria-label': cell.text,
    title: cell.text,
  });
  td.style.setProperty('--heat', cell.strength.toFixed(3));
  return td;
}

/** Arrow keys move between cells, Home and End to a row's ends; one cell at a time is in the tab order. */
function moveFocus(grid: HTMLElement, event: KeyboardEvent): void {
  const current = (event.target as HTMLElement).closest<HTMLElement>('td[data-row]');
  if (!current) return;
  const row = Number(current.dataset.row);
  const column = Number(current.dataset.column);
  const width = grid.querySelectorAll('tbody tr:first-child td[data-row]').length;
  const moves: Record<string, [number, number]> = {
    ArrowUp: [row - 1, column],
    ArrowDown: [row + 1, column],
    ArrowLeft: [row, column - 1],
    ArrowRight: [row, column + 1],
    Home: [row, 0],
    End: [row, width - 1],
  };
  const target = moves[event.key];
  if (!target) return;
  const next = grid.querySelector<HTMLElement>(`td[data-row="${target[0]}"][data-column="${target[1]}"]`);
  if (!next) return;
  event.preventDefault();
  current.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

function legend(map: PairHeatmap): HTMLElement {
  return h(
    'div',
    { class: 'heat-legend', 'aria-hidden': 'true' },
    h('span', { class: 'muted', text: 'Contribution' }),
    h('span', { text: map.scale.low }),
    h('span', { class: 'heat-scale' }),
    h('span', { text: map.scale.high }),
    h('span', { class: 'heat-swatch empty' }),
    h('span', { class: 'muted', text: 'no training rows' }),
    map.banded ? h('span', { class: 'muted', text: PLUS_MINUS_TEXT }) : null,
  );
}

function cellTable(map: PairHeatmap): HTMLElement {
  const [first, second] = map.features;
  const rows = map.cells.flatMap((cells, i) => cells.map((cell, j) => ({ row: map.rows[i].full, column: map.columns[j].full, cell })));
  return table(`Cells of ${map.label}`, [
    { header: first, cell: (r) => r.row },
    { header: second, cell: (r) => r.column },
    { header: 'Contribution', numeric: true, cell: (r) => formatNumber(r.cell.score) },
    ...(map.banded ? [{ header: `Band (${BAND_TEXT})`, numeric: true, cell: (r: (typeof rows)[number]) => plusMinus(r.cell.std) }] : []),
    { header: 'Share of rows', numeric: true, cell: (r) => formatPercent(r.cell.share) },
  ], rows);
}
