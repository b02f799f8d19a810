import { parse } from 'csv-parse/sync';

/**
 * Why a CSV's header cannot name a dataset's columns, or null when it can: a name given twice (after trimming, as
 * the engine reads names) would otherwise be renamed silently, and a model would train on a column the user never
 * named. Empty names are left to the engine, which numbers them.
 */
export function duplicateColumnsProblem(columns: readonly string[], label: string): string | null {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const raw of columns) {
    const name = raw.trim();
    if (name === '') continue;
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size === 0) return null;
  const names = [...repeated].join(', ');
  return `${label} has duplicate column names: ${names} ${repeated.size === 1 ? 'appears' : 'appear'} more than once in the header.`;
}

export const NO_ROWS_HINT = 'Add at least one data row below the header.';

export function noRowsProblem(label: string): string {
  return `${label} has a header but no rows`;
}

/** The header of CSV text (its first record), without reading the rest. */
export function headerOf(text: string): string[] {
  const records = parse(text, { bom: true, to: 1, skip_empty_lines: true, relax_column_count: true }) as string[][];
  return records[0] ?? [];
}
