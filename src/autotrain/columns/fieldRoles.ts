import type { DatasetSummary, SummaryField } from '../../contract/autotrain';

/** Categories worth drawing per level: at least 2 and at most this many. */
export const MAX_LEVELS = 30;

export function isNumericField(f: SummaryField): boolean {
  return f.properties.dtype === 'number' && f.properties.semantic_type !== 'id' && f.properties.num_unique_values > 1;
}

export function isCategoricalField(f: SummaryField): boolean {
  const p = f.properties;
  return (p.dtype === 'category' || p.dtype === 'boolean') && p.num_unique_values >= 2 && p.num_unique_values <= MAX_LEVELS;
}

export function isDateField(f: SummaryField): boolean {
  return f.properties.dtype === 'date' && f.properties.num_unique_values > 1;
}

/** Coefficient of variation (std / |mean|; std alone when the mean is 0). */
export function variation(f: SummaryField): number {
  const { mean, std } = f.properties;
  if (mean === undefined || std === undefined) return 0;
  return mean === 0 ? std : std / Math.abs(mean);
}

export function fieldByName(summary: Pick<DatasetSummary, 'fields'>, name: string): SummaryField | undefined {
  return summary.fields.find((f) => f.column === name);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Column names mentioned in a text, in order of appearance: longest names first, case-insensitive, on word
 * boundaries (so "temp" does not match inside "temp_max").
 */
export function mentionedColumns(text: string, names: readonly string[]): string[] {
  let masked = text;
  const found: { name: string; at: number }[] = [];
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    const re = new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(name)}(?![A-Za-z0-9_])`, 'i');
    const m = re.exec(masked);
    if (!m) continue;
    found.push({ name, at: m.index });
    masked = masked.slice(0, m.index) + ' '.repeat(m[0].length) + masked.slice(m.index + m[0].length);
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.name);
}

/** Maps names to the dataset's exact spelling (case-insensitive); null when one is unknown. */
export function exactColumns(names: readonly unknown[], known: readonly string[]): string[] | null {
  const out: string[] = [];
  for (const n of names) {
    if (typeof n !== 'string') return null;
    const hit = known.find((k) => k === n) ?? known.find((k) => k.toLowerCase() === n.trim().toLowerCase());
    if (!hit) return null;
    if (!out.includes(hit)) out.push(hit);
  }
  return out;
}
