/** What the edits do to the version: its train and test metrics before → after, or why they are not known; and the save. */
import type { SplitMetrics } from '../../src/contract/models.js';
import { bandVerdict } from '../../src/views/editText.js';
import { formatNumber } from '../../src/views/format.js';
import type { FeatureSeries } from '../../src/views/profileSeries.js';
import { metricDeltas, type MetricChange } from '../../src/views/metricDeltas.js';
import type { EditsPreview } from '../../src/views/protocol.js';
import { h } from '../shared/dom.js';
import { notice, table } from '../shared/widgets.js';
import type { PreviewState, SaveState } from './editSession.js';

function changeCell(change: MetricChange): HTMLElement {
  if (change.before === null && change.after === null) return h('span', { class: 'muted', text: '—' });
  const trend = change.trend === 'same' ? '' : `, ${change.trend}`;
  return h(
    'span',
    {},
    `${formatNumber(change.before)} → ${formatNumber(change.after)} `,
    change.delta ? h('span', { class: `delta ${change.trend}`, text: `(${change.delta}${trend})` }) : null,
  );
}

function metricsTable(before: SplitMetrics, after: SplitMetrics, baseValue: { before: number; after: number } | undefined): HTMLElement {
  const rows = metricDeltas(before, after);
  return h(
    'div',
    {},
    table('Train and test metrics before → after the edits', [
      { header: 'Metric', cell: (row: (typeof rows)[number]) => row.label },
      { header: 'Train', cell: (row) => changeCell(row.train) },
      { header: 'Test', cell: (row) => changeCell(row.test) },
    ], rows, 'metric-deltas'),
    baseValue && baseValue.before !== baseValue.after
      ? h('p', { class: 'muted', text: `Base value ${formatNumber(baseValue.before)} → ${formatNumber(baseValue.after)} (the edited steps' mean moved into it).` })
      : null,
  );
}

function previewView(preview: EditsPreview, baseValue: (preview: EditsPreview) => { before: number; after: number } | undefined): HTMLElement {
  return preview.kind === 'metrics' ? metricsTable(preview.before, preview.after, baseValue(preview)) : notice('info', preview.message);
}

/** The metrics part of the editor for a preview state (`baseValue` reads the shown part's base value from a preview). */
export function previewOutcome(
  state: PreviewState,
  baseValue: (preview: EditsPreview) => { before: number; after: number } | undefined,
): HTMLElement {
  switch (state.kind) {
    case 'none':
      return h('p', { class: 'muted', text: 'Select bins on the chart and edit them to see the train and test metrics change.' });
    case 'waiting':
      return state.previous
        ? h('div', { class: 'stale', 'aria-busy': 'true' }, previewView(state.previous, baseValue))
        : h('p', { class: 'muted', role: 'status', text: 'Computing the metrics after the edits…' });
    case 'ready':
      return previewView(state.preview, baseValue);
    case 'failed':
      return notice('error', `The preview failed: ${state.message} Undo the last edit, or change it.`);
  }
}

/** The outcome of Save as new version, or nothing before one. */
export function saveOutcome(state: SaveState): HTMLElement | null {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'saving':
      return h('p', { class: 'muted', role: 'status', text: 'Saving the edits as a new version…' });
    case 'saved': {
      const { versionNumber } = state.outcome;
      const name = versionNumber !== undefined ? `version ${versionNumber}` : 'a new version';
      return notice('info', `Saved as ${name}, selected in the XModels view; this panel shows the version it was edited from, without edits.`);
    }
    case 'failed':
      return notice('error', `Saving failed: ${state.message} Change the edits and save again.`);
  }
}

/** Whether the edited steps stay inside the fitted band, or nothing when that says nothing (no band, no change). */
export function bandOutcome(fitted: FeatureSeries, edited: FeatureSeries): HTMLElement | '' {
  const verdict = bandVerdict(fitted, edited);
  return verdict ? h('p', { class: 'band-verdict', text: verdict }) : '';
}
