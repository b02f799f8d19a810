import type { AutotrainDtype } from '../../contract/autotrain';
import type { Column } from '../../engine';

/** Every row's trimmed text (null = missing), whatever the column's storage. Dates come back as ISO strings. */
export function columnTexts(col: Column): (string | null)[] {
  if (col.storage === 'number') {
    return Array.from(col.values, (v) => (Number.isNaN(v) ? null : col.type === 'date' ? isoText(v) : String(v)));
  }
  const levels = col.levels.map((l) => l.trim());
  return Array.from(col.codes, (c) => (c < 0 || levels[c] === '' ? null : levels[c]));
}

const BOOLEAN_TEXTS = new Set(['true', 'false', 'yes', 'no']);
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DAY_FIRST_RE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const MONTH_NAME_FIRST_RE = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/;
const DAY_MONTH_NAME_RE = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/;

function monthIndex(name: string): number {
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return i >= 0 && name.length >= 3 ? i : -1;
}

function validDay(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  if (month < 0 || month > 11 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return NaN;
  const t = Date.UTC(year, month, day, hour, minute, second);
  return new Date(t).getUTCDate() === day ? t : NaN;
}

/**
 * Epoch milliseconds of a value in an explicit date pattern (ISO date or datetime, Y/M/D, D/M/Y — or M/D/Y when the
 * column says so — and month names), NaN otherwise. Version strings such as "6.4.3" are not dates.
 */
export function parseDateText(text: string, monthFirst = false): number {
  let m = ISO_RE.exec(text);
  if (m) return validDay(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  m = DAY_FIRST_RE.exec(text);
  if (m) return monthFirst ? validDay(+m[3], +m[1] - 1, +m[2]) : validDay(+m[3], +m[2] - 1, +m[1]);
  m = MONTH_NAME_FIRST_RE.exec(text);
  if (m) return validDay(+m[3], monthIndex(m[1]), +m[2]);
  m = DAY_MONTH_NAME_RE.exec(text);
  if (m) return validDay(+m[3], monthIndex(m[2]), +m[1]);
  return NaN;
}

/** A column of `a/b/yyyy` values is month-first only when some second part cannot be a month. */
function isMonthFirst(texts: readonly string[]): boolean {
  return texts.some((t) => {
    const m = DAY_FIRST_RE.exec(t);
    return !!m && +m[2] > 12 && +m[1] <= 12;
  });
}

/** True for `a/b/yyyy` dates, whose day/month order has to be guessed from the column. */
export function isAmbiguousDate(text: string): boolean {
  return DAY_FIRST_RE.test(text);
}

/** True when dates written a/b/yyyy are day-first, so pandas needs `dayfirst=True` to read them. */
export function needsDayFirst(samples: readonly string[]): boolean {
  return samples.some(isAmbiguousDate) && !isMonthFirst(samples);
}

/** Epoch milliseconds per row (NaN = missing or not a date). */
export function columnTimes(col: Column): Float64Array {
  if (col.storage === 'number') return col.type === 'date' ? col.values : new Float64Array(col.values.length).fill(NaN);
  const levels = col.levels.map((l) => l.trim());
  const monthFirst = isMonthFirst(levels);
  const times = levels.map((l) => parseDateText(l, monthFirst));
  return Float64Array.from(col.codes, (c) => (c < 0 ? NaN : times[c]));
}

/** Numbers per row (NaN = missing or not a number); dates as epoch milliseconds. */
export function columnNumbers(col: Column): Float64Array {
  if (col.storage === 'number') return col.values;
  const parsed = col.levels.map((l) => {
    const t = l.trim();
    return NUMBER_RE.test(t) ? Number(t) : NaN;
  });
  return Float64Array.from(col.codes, (c) => (c < 0 ? NaN : parsed[c]));
}

export function isoText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/**
 * The autotrain dtype (autotrain.md §7.1), judged on the distinct non-null trimmed values: all true/false/yes/no →
 * boolean; all finite numbers → number; every value in an explicit date pattern → date; else category when
 * distinct/non-null < 0.5, else string.
 */
export function inferDtype(col: Column, distinct: readonly string[], nonNull: number): AutotrainDtype {
  if (distinct.length > 0 && distinct.every((t) => BOOLEAN_TEXTS.has(t.toLowerCase()))) return 'boolean';
  if (col.storage === 'number') return col.type === 'date' ? 'date' : 'number';
  if (distinct.length > 0 && distinct.every((t) => NUMBER_RE.test(t) && Number.isFinite(Number(t)))) return 'number';
  const monthFirst = isMonthFirst(distinct);
  if (distinct.length > 0 && distinct.every((t) => !Number.isNaN(parseDateText(t, monthFirst)))) return 'date';
  return nonNull > 0 && distinct.length / nonNull < 0.5 ? 'category' : 'string';
}

/** Level counts in descending count order, ties by first appearance. */
export function levelCounts(texts: readonly (string | null)[]): { value: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const t of texts) if (t !== null) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}
