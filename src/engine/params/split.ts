/**
 * How a train's rows are split into training and test rows (the wire's `split`):
 * - `"random"`: a seeded shuffle of the rows (the default);
 * - `{time_column}`: the latest `test_size` share of the rows by that numeric or date column are the test rows;
 * - `{group_column}`: every value of that column (a customer, a patient, a store) wholly in train or in test.
 */
export type SplitSpec = 'random' | { time_column: string } | { group_column: string };

export const DEFAULT_SPLIT: SplitSpec = 'random';

/** The column a split goes by, with the wire field that names it; null for the random split. */
export function splitColumn(split: SplitSpec | undefined): { kind: 'time' | 'group'; column: string; field: string } | null {
  if (split === undefined || split === 'random') return null;
  return 'time_column' in split
    ? { kind: 'time', column: split.time_column, field: 'split.time_column' }
    : { kind: 'group', column: split.group_column, field: 'split.group_column' };
}

/** What a version records of its split, besides the split itself. */
export interface SplitFacts {
  split: SplitSpec;
  test_size: number;
  n_test: number;
  /** A time split: the earliest time among the test rows (an ISO date for a date column). */
  test_from?: number | string | null;
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
const count = (n: number) => n.toLocaleString('en-US');
/** An ISO timestamp at midnight UTC reads as its date alone. */
const timeText = (t: number | string) => (typeof t === 'string' ? t.replace(/T00:00:00(\.000)?Z$/, '') : String(t));

/** How the test rows were chosen, in words: "tested on the latest 20% by `date`, from 2024-03-02 (1,234 rows)". */
export function splitSentence(facts: SplitFacts): string {
  const by = splitColumn(facts.split);
  const rows = `${count(facts.n_test)} row${facts.n_test === 1 ? '' : 's'}`;
  if (by?.kind === 'time') {
    const from = facts.test_from === undefined || facts.test_from === null ? '' : `, from ${timeText(facts.test_from)}`;
    return `tested on the latest ${percent(facts.test_size)} by \`${by.column}\`${from} (${rows})`;
  }
  if (by?.kind === 'group') return `tested on about ${percent(facts.test_size)} of the \`${by.column}\` groups, each wholly in train or test (${rows})`;
  return `tested on a random ${percent(facts.test_size)} of the rows (${rows})`;
}
