import type { DataFrame } from '../../engine';
import { columnNumbers, columnTexts, levelCounts } from '../columns/columns';
import { fmt, round } from '../columns/stats';
import { nameTokens } from '../columns/semantic';

/** Name words of money spent or owed because of something: such a column is often what an outcome cost. */
export const AMOUNT_WORDS = new Set([
  'cost', 'costs', 'amount', 'fee', 'fees', 'charge', 'charges', 'total', 'paid', 'payment', 'payments', 'expense', 'expenses',
  'spend', 'spending', 'loss', 'losses', 'bill', 'billed', 'compensation', 'repair', 'repairs',
]);
/** The amount's non-zero rows must fall in the outcome's other classes at least this often… */
const CONCENTRATION = 0.5;
/** …and this many times as often as all the rows do. */
const CONCENTRATION_LIFT = 2;
/** Share of the amount's rank variance its outcome's classes explain (a rank correlation ratio, η²). */
const EXPLAINED_RANKS = 0.5;
const MIN_ROWS = 10;

/** A categorical candidate label whose name says it is an outcome, and the outcome word it contains. */
export interface OutcomeCandidate {
  column: string;
  keyword: string;
}

export function isAmountName(column: string): boolean {
  return nameTokens(column).some((t) => AMOUNT_WORDS.has(t));
}

interface Pairs {
  classes: string[];
  amounts: number[];
}

/** The rows where both the amount and the outcome have a value. */
function pairs(frame: DataFrame, amount: string, outcome: string): Pairs {
  const x = columnNumbers(frame.column(amount));
  const c = columnTexts(frame.column(outcome));
  const out: Pairs = { classes: [], amounts: [] };
  for (let r = 0; r < frame.nRows; r++) {
    const cls = c[r];
    if (cls === null || !Number.isFinite(x[r])) continue;
    out.classes.push(cls);
    out.amounts.push(x[r]);
  }
  return out;
}

/** Average ranks (ties share their mean rank). */
function ranks(values: readonly number[]): Float64Array {
  const order = Array.from(values.keys()).sort((a, b) => values[a] - values[b]);
  const out = new Float64Array(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    for (let k = i; k <= j; k++) out[order[k]] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}

/** η² of the amount's ranks over the outcome's classes: 1 when the classes order the amounts completely. */
function explainedRanks({ classes, amounts }: Pairs): number {
  const r = ranks(amounts);
  const mean = (r.length - 1) / 2;
  const groups = new Map<string, { sum: number; n: number }>();
  let total = 0;
  classes.forEach((cls, i) => {
    const g = groups.get(cls) ?? { sum: 0, n: 0 };
    g.sum += r[i];
    g.n++;
    groups.set(cls, g);
    total += (r[i] - mean) ** 2;
  });
  let between = 0;
  for (const g of groups.values()) between += g.n * (g.sum / g.n - mean) ** 2;
  return total > 0 ? between / total : 0;
}

/**
 * Whether a numeric amount ("Cost Other", "claim_amount") follows a categorical outcome ("Damage", "claim"), and
 * why: its name repeats the outcome's word, or (with the rows) it is non-zero mostly where the outcome is not its
 * usual class, or the outcome's classes order its values. Such an amount is a consequence of the outcome: the outcome
 * is the label to predict, and the amount would only be known after it.
 */
export function followedOutcome(frame: DataFrame | undefined, amount: string, outcomes: readonly OutcomeCandidate[]): string | null {
  const tokens = new Set(nameTokens(amount));
  for (const o of outcomes) {
    if (o.column !== amount && tokens.has(o.keyword)) return `its name says it is the '${o.keyword}' that '${o.column}' records`;
  }
  if (!frame?.has(amount)) return null;
  for (const o of outcomes) {
    if (o.column === amount || !frame.has(o.column)) continue;
    const rows = pairs(frame, amount, o.column);
    if (rows.amounts.length < MIN_ROWS) continue;
    const usual = levelCounts(rows.classes)[0].value;
    const nonZero = rows.classes.filter((_, i) => rows.amounts[i] !== 0);
    const elsewhere = (classes: readonly string[]) => classes.filter((cls) => cls !== usual).length / Math.max(1, classes.length);
    const inOthers = elsewhere(nonZero);
    const base = elsewhere(rows.classes);
    if (nonZero.length >= MIN_ROWS && inOthers >= CONCENTRATION && inOthers >= CONCENTRATION_LIFT * base) {
      const pct = (v: number) => `${fmt(round(100 * v, 1))}%`;
      return `it is non-zero mostly where '${o.column}' is not '${usual}' (${pct(inOthers)} of its non-zero rows, against ${pct(base)} of all rows)`;
    }
    const explained = explainedRanks(rows);
    if (explained >= EXPLAINED_RANKS) return `the classes of '${o.column}' explain ${fmt(round(100 * explained, 0))}% of the variation of its ranks`;
  }
  return null;
}
