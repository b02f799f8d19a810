import type { Edit, Metrics, ModelInfo, ModelVersion, PreviewEditsResult } from '../../contract';
import { l10n } from '../../l10n/l10n';
import { escapeMarkdown as md, headlineMetric } from '../../tree/nodeText';
import type { EditsFile, FileEdit } from './editsFile';
import { bound, scope, type MappedEdit } from './mapEdits';

/** A file applied to a version: what the report and the confirmation describe. */
export interface EditsApplication {
  fileName: string;
  file: EditsFile;
  model: ModelInfo;
  /** The version the edits are applied to. */
  version: ModelVersion;
  mapped: MappedEdit[];
  /** The target's steps and metrics with the edits that fit; absent when none fits. */
  preview?: PreviewEditsResult;
}

export const fitting = (mapped: readonly MappedEdit[]) => mapped.filter((m) => m.problem === undefined);

/** The edits to send: those of every edit that fits, in the file's order. */
export const editsToSend = (mapped: readonly MappedEdit[]): Edit[] => fitting(mapped).flatMap((m) => m.edits);

/** An edit in words: `shift Horsepower (47 to 50.5) by 1.5`, `set Origin (USA, Japan) to 2`. */
export function describeEdit(edit: FileEdit): string {
  const what = `${edit.feature}${binsText(edit)}${scope(edit.partition, edit.class ?? null)}`;
  switch (edit.op) {
    case 'shift':
      return l10n.t('shift {0} by {1}', what, edit.value ?? 0);
    case 'set':
      return l10n.t('set {0} to {1}', what, edit.value ?? 0);
    case 'monotone':
      return edit.direction === -1 ? l10n.t('make {0} never increasing', what) : l10n.t('make {0} never decreasing', what);
    case 'interpolate':
      return l10n.t('interpolate {0}', what);
    case 'merge':
      return l10n.t('merge {0}', what);
    case 'reset':
      return l10n.t('reset {0}', what);
    case 'remove':
      return l10n.t('remove {0}', what);
  }
}

function binsText(edit: FileEdit): string {
  if (edit.bins === undefined) return edit.op === 'remove' ? '' : l10n.t(' (every bin)');
  if (edit.bins === 'missing') return l10n.t(' (missing values)');
  if (edit.bounds) return l10n.t(' ({0} to {1})', bound(edit.bounds[0][0], 'lower'), bound(edit.bounds[edit.bounds.length - 1][1], 'upper'));
  if (edit.categories) return ` (${edit.categories.join(', ')})`;
  return l10n.t(' bins [{0}, {1}]', edit.bins[0], edit.bins[1]);
}

/** Where an edit lands on the target: `bins [0, 1]`, `bins [0, 0] and [2, 2]`; nothing for an edit without a range. */
function landedText(edits: Edit[]): string {
  const ranges = edits.flatMap((e) => (Array.isArray(e.bins) ? [`[${e.bins.join(', ')}]${scope(e.partition, e.class ?? null)}`] : []));
  return ranges.length ? ` → ${l10n.t('bins {0}', ranges.join(l10n.t(' and ')))}` : '';
}

/** `R² 0.812 → 0.805`: the headline metric before and after, named once. */
function metricChange(before: Metrics, after: Metrics): string | undefined {
  const [was, is] = [headlineMetric(before), headlineMetric(after)];
  if (!was || !is) return undefined;
  const name = was.slice(0, was.lastIndexOf(' ') + 1);
  return is.startsWith(name) ? `${was} → ${is.slice(name.length)}` : `${was} → ${is}`;
}

/** One line on what the previewed edits do to the metrics: `test R² 0.812 → 0.805 (train R² 0.850 → 0.841)`. */
export function metricsText(preview: PreviewEditsResult): string | undefined {
  const test = metricChange(preview.before.test_metrics, preview.after.test_metrics);
  const train = metricChange(preview.before.train_metrics, preview.after.train_metrics);
  if (!test) return train && l10n.t('train {0}', train);
  return train ? l10n.t('test {0} (train {1})', test, train) : l10n.t('test {0}', test);
}

/** The report as Markdown: the edits that do not fit first, with why, then those that fit, with where they land. */
export function editsReportMarkdown(application: EditsApplication): string {
  const { file, model, version, mapped, preview } = application;
  const fit = fitting(mapped);
  const misfits = mapped.filter((m) => m.problem !== undefined);
  const source = file.source;
  const item = (m: MappedEdit, text: string) => `- ${m.index + 1}. ${md(describeEdit(m.edit))}${text}`;
  const lines = [
    `# ${l10n.t('Edits from {0} on {1} v{2}', md(application.fileName), md(model.model_name), version.version_number)}`,
    '',
    l10n.t('Made on {0} v{1} (`{2}`); applied to v{3} (`{4}`): {5} of {6} edits fit.', md(source.model_name), source.version_number, source.version_id, version.version_number, version.version_id, fit.length, mapped.length),
  ];
  const metrics = preview && metricsText(preview);
  if (metrics) lines.push('', l10n.t('With the edits that fit: {0}.', metrics));
  if (misfits.length) {
    lines.push('', `## ${l10n.t('Edits that do not fit ({0})', misfits.length)}`, '', ...misfits.map((m) => item(m, `: ${md(m.problem ?? '')}.`)));
  }
  if (fit.length) {
    lines.push('', `## ${l10n.t('Edits that fit ({0})', fit.length)}`, '');
    for (const m of fit) {
      lines.push(`${item(m, md(landedText(m.edits)))}.`, ...m.notes.map((note) => `  - ${md(note)}.`));
    }
  }
  if (!fit.length) lines.push('', l10n.t('Nothing can be saved: no edit fits v{0}.', version.version_number));
  return `${lines.join('\n')}\n`;
}
