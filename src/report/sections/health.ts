import { healthWarnings } from '../../views/featureHealth';
import { formatPercent } from '../../views/format';
import { numberCell, paragraph, type Block, type Cell } from '../document';
import type { ReportView } from '../view';

export const HEALTH = { id: 'health', text: 'Data health' } as const;

/** The warnings of the health scan of the version's data, column by column, as the feature info panel gives them. */
export function healthSection(view: ReportView): Block[] {
  const entries = view.input.featureInfo;
  const heading: Block = { kind: 'heading', level: 2, ...HEALTH };
  if (!entries.length) return [heading, paragraph('This version carries no health scan of its data: it was uploaded as a fitted model.')];
  const rows = entries.flatMap((entry) =>
    healthWarnings(entry).map((warning): Cell[] => [
      entry.feature,
      entry.type,
      numberCell(formatPercent(entry.health_info.missing_pct), entry.health_info.missing_pct),
      `${warning.severity === 'error' ? 'Error' : 'Warning'}: ${warning.message}`,
    ]),
  );
  const columns = new Set(rows.map((row) => row[0])).size;
  const summary = rows.length
    ? `The health scan of the ${entries.length} columns of its data found ${rows.length} ${rows.length === 1 ? 'problem' : 'problems'} in ${columns} ${columns === 1 ? 'column' : 'columns'}:`
    : `The health scan of the ${entries.length} columns of its data found no problem: no column is mostly missing, of too many categories, dominated by one value, strongly skewed, or of mixed types or letter case.`;
  return [heading, paragraph(summary), ...(rows.length ? [{ kind: 'table', head: ['Column', 'Type', 'Missing', 'Problem'], rows } satisfies Block] : [])];
}
