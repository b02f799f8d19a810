import type { AppliedEdit } from '../../contract/edits';
import { paragraph, type Block, type Cell } from '../document';
import { dateText, type ReportView } from '../view';

export const PARAMETERS = { id: 'parameters', text: 'Parameters' } as const;
export const EDITS = { id: 'edits', text: 'Hand edits' } as const;

/** A parameter's value as JSON writes it: exact numbers, strings unquoted, lists and objects as JSON. */
const valueText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/** The parameters the version was fitted with, as it records them. */
export function parametersSection(view: ReportView): Block[] {
  const entries = Object.entries(view.input.version.parameters);
  return [
    { kind: 'heading', level: 2, ...PARAMETERS },
    entries.length
      ? { kind: 'table', head: ['Parameter', 'Value'], rows: entries.map(([name, value]): Cell[] => [name, valueText(value)]) }
      : paragraph('This version records no parameters.'),
  ];
}

const DIRECTION: Readonly<Record<number, string>> = { 1: 'never decreasing', [-1]: 'never increasing' };

function binsText(edit: AppliedEdit): string {
  if (edit.bins === 'missing') return 'the missing value';
  if (edit.bins) return `${edit.bins[0]} to ${edit.bins[1]}`;
  return edit.op === 'reset' ? 'every bin' : edit.op === 'remove' ? '—' : 'every bin but the missing value';
}

function editRow(edit: AppliedEdit, index: number, multiclass: boolean): Cell[] {
  const amount = edit.value !== undefined ? String(edit.value) : edit.direction !== undefined ? DIRECTION[edit.direction] : '—';
  return [String(index + 1), edit.feature, edit.op, binsText(edit), amount, edit.partition ?? 'every partition', edit.class ?? (multiclass ? 'every class' : '—'), edit.applied_by, dateText(edit.applied_at)];
}

/** The hand edits the version applied to its parent's steps, in order; none for most versions. */
export function editsSection(view: ReportView): Block[] {
  const { edits = [], parent_version_id: parent } = view.input.version;
  return [
    { kind: 'heading', level: 2, ...EDITS },
    ...(edits.length
      ? [
          paragraph(`This version applied ${edits.length} hand ${edits.length === 1 ? 'edit' : 'edits'} to the steps of version ${parent ?? '(its parent)'}, in this order (bins are numbered from 0 as the profile lists them):`),
          { kind: 'table', head: ['#', 'Feature', 'Edit', 'Bins', 'Value', 'Partition', 'Class', 'Applied by', 'Applied'], rows: edits.map((edit, i) => editRow(edit, i, view.kind === 'multiclass')) } satisfies Block,
        ]
      : [paragraph('None: this version applied no hand edits.')]),
  ];
}
