import { parseDate } from './dates';
import { EngineError } from '../base/errors';
import {
  categoryColumn,
  dictionaryEncode,
  numberColumn,
  numericValues,
  textCounts,
  textValue,
  type CategoryColumn,
  type Column,
  type DataFrame,
} from './frame';
import { quantile } from './health';
import { lowerBound } from '../base/search';

export type DatePart = 'year' | 'month' | 'day' | 'weekday' | 'hour';

/** A preprocessor step as the contract writes it. */
export type PreprocessorStep =
  | { type: 'drop_columns'; columns: string[] }
  | { type: 'fill_missing'; column: string; strategy: 'mean' | 'median' | 'mode' | 'constant'; value?: string | number }
  | { type: 'log1p'; column: string }
  | { type: 'clip'; column: string; min?: number; max?: number }
  | { type: 'date_parts'; column: string; parts: DatePart[] }
  | { type: 'condense_categories'; column: string; min_freq: number }
  | { type: 'text_clean'; column: string; lower?: boolean; trim?: boolean }
  | { type: 'quantile_bins'; column: string; bins: number }
  | { type: 'ratio'; numerator: string; denominator: string; name: string };

/** What fitting learnt from the dataset: the fill value, kept categories or inner bin edges. */
export type FittedStep =
  | { step: Extract<PreprocessorStep, { type: 'fill_missing' }>; fill: string | number }
  | { step: Extract<PreprocessorStep, { type: 'condense_categories' }>; keep: string[] }
  | { step: Extract<PreprocessorStep, { type: 'quantile_bins' }>; edges: number[] }
  | { step: Exclude<PreprocessorStep, { type: 'fill_missing' | 'condense_categories' | 'quantile_bins' }> };

/** Plain JSON: store it with the preprocessor version and pass it back to `applyPreprocessor`. */
export interface FittedPreprocessor {
  steps: FittedStep[];
}

/** Label of values that `condense_categories` folds together. */
export const OTHER_CATEGORY = 'Other';
const DATE_PARTS: DatePart[] = ['year', 'month', 'day', 'weekday', 'hour'];
const FILL_STRATEGIES = ['mean', 'median', 'mode', 'constant'];

class StepContext {
  constructor(
    readonly index: number,
    readonly type: string,
  ) {}

  fail(field: string, problem: string): never {
    throw new EngineError(`Step ${this.index + 1} (${this.type}): ${problem}`, `steps[${this.index}].${field}`);
  }

  column(frame: DataFrame, name: string, field = 'column'): Column {
    if (!frame.has(name)) this.fail(field, `column ${name} does not exist; columns are: ${frame.names.join(', ')}`);
    return frame.column(name);
  }

  numeric(frame: DataFrame, name: string, field = 'column'): Float64Array {
    const col = this.column(frame, name, field);
    if (col.storage !== 'number') this.fail(field, `column ${name} must be numeric (it is ${col.type})`);
    return col.values;
  }
}

/**
 * Validates the steps and fits them in order on `frame` (each step sees the previous steps' output). Errors name
 * the step number, its type and the column.
 */
export function fitPreprocessor(frame: DataFrame, steps: readonly unknown[]): FittedPreprocessor {
  if (!Array.isArray(steps)) throw new EngineError('steps must be an array', 'steps');
  const fitted: FittedStep[] = [];
  let current = frame;
  steps.forEach((raw, i) => {
    const step = validateStep(raw, i);
    const f = fitStep(current, step, new StepContext(i, step.type));
    fitted.push(f);
    current = applyStep(current, f, new StepContext(i, step.type));
  });
  return { steps: fitted };
}

/** Applies fitted steps in order. Columns a step needs must exist, except that dropping an absent column is a no-op. */
export function applyPreprocessor(frame: DataFrame, fitted: FittedPreprocessor): DataFrame {
  return fitted.steps.reduce((f, s, i) => applyStep(f, s, new StepContext(i, s.step.type)), frame);
}

function validateStep(raw: unknown, i: number): PreprocessorStep {
  const ctx = new StepContext(i, typeof raw === 'object' && raw && 'type' in raw ? String(raw.type) : 'unknown');
  if (typeof raw !== 'object' || raw === null) ctx.fail('type', 'must be an object with a type');
  const s = raw as Record<string, unknown>;
  const str = (k: string): string => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : ctx.fail(k, `${k} must be a column name`));
  const optNum = (k: string): void => {
    if (s[k] !== undefined && (typeof s[k] !== 'number' || !Number.isFinite(s[k]))) ctx.fail(k, `${k} must be a number (got ${JSON.stringify(s[k])})`);
  };
  const optBool = (k: string): void => {
    if (s[k] !== undefined && typeof s[k] !== 'boolean') ctx.fail(k, `${k} must be true or false (got ${JSON.stringify(s[k])})`);
  };
  switch (s.type) {
    case 'drop_columns':
      if (!Array.isArray(s.columns) || s.columns.length === 0 || !s.columns.every((c) => typeof c === 'string')) {
        ctx.fail('columns', 'columns must be a non-empty list of column names');
      }
      break;
    case 'fill_missing':
      str('column');
      if (!FILL_STRATEGIES.includes(s.strategy as string)) {
        ctx.fail('strategy', `strategy must be one of ${FILL_STRATEGIES.join(', ')} (got ${JSON.stringify(s.strategy)})`);
      }
      if (s.strategy === 'constant' && typeof s.value !== 'string' && typeof s.value !== 'number') {
        ctx.fail('value', 'the constant strategy needs a value (a string or a number)');
      }
      break;
    case 'log1p':
      str('column');
      break;
    case 'clip':
      str('column');
      optNum('min');
      optNum('max');
      if (s.min === undefined && s.max === undefined) ctx.fail('min', 'give min, max or both');
      if (typeof s.min === 'number' && typeof s.max === 'number' && s.min > s.max) {
        ctx.fail('min', `min (${s.min}) must not exceed max (${s.max})`);
      }
      break;
    case 'date_parts':
      str('column');
      if (!Array.isArray(s.parts) || s.parts.length === 0 || !s.parts.every((p) => DATE_PARTS.includes(p as DatePart))) {
        ctx.fail('parts', `parts must be a non-empty list of ${DATE_PARTS.join(', ')} (got ${JSON.stringify(s.parts)})`);
      }
      break;
    case 'condense_categories':
      str('column');
      if (typeof s.min_freq !== 'number' || !(s.min_freq >= 0 && s.min_freq <= 1)) {
        ctx.fail('min_freq', `min_freq must be a fraction between 0 and 1 (got ${JSON.stringify(s.min_freq)})`);
      }
      break;
    case 'text_clean':
      str('column');
      optBool('lower');
      optBool('trim');
      break;
    case 'quantile_bins':
      str('column');
      if (!Number.isInteger(s.bins) || (s.bins as number) < 2 || (s.bins as number) > 100) {
        ctx.fail('bins', `bins must be a whole number from 2 to 100 (got ${JSON.stringify(s.bins)})`);
      }
      break;
    case 'ratio':
      str('numerator');
      str('denominator');
      str('name');
      break;
    default:
      ctx.fail('type', `unknown step type ${JSON.stringify(s.type)}`);
  }
  return s as unknown as PreprocessorStep;
}

function fitStep(frame: DataFrame, step: PreprocessorStep, ctx: StepContext): FittedStep {
  switch (step.type) {
    case 'drop_columns':
      step.columns.forEach((c, k) => ctx.column(frame, c, `columns[${k}]`));
      return { step };
    case 'fill_missing':
      return { step, fill: fillValue(frame, step, ctx) };
    case 'condense_categories': {
      const counts = textCounts(ctx.column(frame, step.column), frame.nRows);
      const keep = [...counts].filter(([, c]) => c / frame.nRows >= step.min_freq).map(([v]) => v);
      return { step, keep };
    }
    case 'quantile_bins': {
      const values = ctx.numeric(frame, step.column).filter((v) => !Number.isNaN(v)).sort();
      if (values.length === 0) ctx.fail('column', `column ${step.column} has no values to compute quantiles from`);
      const inner = Array.from({ length: step.bins - 1 }, (_, k) => quantile(values, (k + 1) / step.bins));
      return { step, edges: [...new Set(inner)] };
    }
    case 'ratio':
      ctx.numeric(frame, step.numerator, 'numerator');
      ctx.numeric(frame, step.denominator, 'denominator');
      if (frame.has(step.name)) ctx.fail('name', `a column named ${step.name} already exists`);
      return { step };
    case 'log1p':
    case 'clip':
      ctx.numeric(frame, step.column);
      return { step };
    case 'date_parts': {
      const dates = dateValues(ctx.column(frame, step.column));
      if (!dates.some((d) => !Number.isNaN(d))) ctx.fail('column', `column ${step.column} holds no dates`);
      return { step };
    }
    case 'text_clean':
      ctx.column(frame, step.column);
      return { step };
  }
}

function fillValue(frame: DataFrame, step: Extract<PreprocessorStep, { type: 'fill_missing' }>, ctx: StepContext): string | number {
  if (step.strategy === 'constant') return step.value as string | number;
  const col = ctx.column(frame, step.column);
  if (step.strategy === 'mode') {
    const counts = new Map<string | number, number>();
    for (let r = 0; r < frame.nRows; r++) {
      const v = col.storage === 'number' ? col.values[r] : textValue(col, r);
      if (v === null || (typeof v === 'number' && Number.isNaN(v))) continue;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    let best: string | number | null = null;
    let bestCount = 0;
    for (const [v, c] of counts) {
      if (c > bestCount) {
        best = v;
        bestCount = c;
      }
    }
    return best ?? ctx.fail('column', `column ${step.column} has no values to take the mode of`);
  }
  const values = ctx.numeric(frame, step.column).filter((v) => !Number.isNaN(v)).sort();
  if (values.length === 0) ctx.fail('column', `column ${step.column} has no values to take the ${step.strategy} of`);
  if (step.strategy === 'median') return quantile(values, 0.5);
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function dateValues(col: Column): Float64Array {
  if (col.storage === 'number') return col.type === 'date' ? col.values : new Float64Array(col.values.length).fill(NaN);
  const parsed = col.levels.map(parseDate);
  return Float64Array.from(col.codes, (c) => (c < 0 ? NaN : parsed[c]));
}

function mapNumbers(values: Float64Array, fn: (v: number) => number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = fn(values[i]);
  return out;
}

/** Rewrites each text value; values that become equal are merged. Missing stays missing. */
function mapLevels(col: Column, fn: (level: string) => string | null): CategoryColumn {
  const n = col.storage === 'number' ? col.values.length : col.codes.length;
  const { codes, levels } = dictionaryEncode(n, (r) => {
    const v = textValue(col, r);
    return v === null ? null : fn(v);
  });
  return categoryColumn(col.name, codes, levels);
}

const DATE_PART_OF: Record<DatePart, (d: Date) => number> = {
  year: (d) => d.getUTCFullYear(),
  month: (d) => d.getUTCMonth() + 1,
  day: (d) => d.getUTCDate(),
  weekday: (d) => (d.getUTCDay() + 6) % 7,
  hour: (d) => d.getUTCHours(),
};

function applyStep(frame: DataFrame, fitted: FittedStep, ctx: StepContext): DataFrame {
  const { step } = fitted;
  switch (step.type) {
    case 'drop_columns':
      return frame.drop(step.columns.filter((c) => frame.has(c)));
    case 'fill_missing': {
      const fill = (fitted as { fill: string | number }).fill;
      const col = ctx.column(frame, step.column);
      if (col.storage === 'number' && typeof fill === 'number') {
        return frame.withColumns([numberColumn(col.name, mapNumbers(col.values, (v) => (Number.isNaN(v) ? fill : v)), col.type)]);
      }
      return frame.withColumns([fillCategory(mapLevels(col, (v) => v), String(fill))]);
    }
    case 'log1p':
      return frame.withColumns([numberColumn(step.column, mapNumbers(ctx.numeric(frame, step.column), (v) => (v > -1 ? Math.log1p(v) : NaN)))]);
    case 'clip': {
      const lo = step.min ?? -Infinity;
      const hi = step.max ?? Infinity;
      return frame.withColumns([numberColumn(step.column, mapNumbers(ctx.numeric(frame, step.column), (v) => (Number.isNaN(v) ? v : Math.min(hi, Math.max(lo, v)))))]);
    }
    case 'date_parts': {
      const dates = dateValues(ctx.column(frame, step.column));
      return frame.withColumns(
        step.parts.map((part) =>
          numberColumn(`${step.column}_${part}`, mapNumbers(dates, (t) => (Number.isNaN(t) ? NaN : DATE_PART_OF[part](new Date(t))))),
        ),
      );
    }
    case 'condense_categories': {
      const keep = new Set((fitted as { keep: string[] }).keep);
      return frame.withColumns([mapLevels(ctx.column(frame, step.column), (v) => (keep.has(v) ? v : OTHER_CATEGORY))]);
    }
    case 'text_clean': {
      const lower = step.lower ?? true;
      const trim = step.trim ?? true;
      const clean = (v: string): string => {
        const t = trim ? v.trim().replace(/\s+/g, ' ') : v;
        return lower ? t.toLowerCase() : t;
      };
      return frame.withColumns([mapLevels(ctx.column(frame, step.column), clean)]);
    }
    case 'quantile_bins': {
      // Bin = number of inner edges strictly below v: bins are right-closed, (e[k-1], e[k]].
      const edges = (fitted as { edges: number[] }).edges;
      const values = numericValues(ctx.column(frame, step.column));
      return frame.withColumns([numberColumn(step.column, mapNumbers(values, (v) => (Number.isNaN(v) ? NaN : lowerBound(edges, v))))]);
    }
    case 'ratio': {
      const num = ctx.numeric(frame, step.numerator, 'numerator');
      const den = ctx.numeric(frame, step.denominator, 'denominator');
      const out = new Float64Array(frame.nRows);
      for (let r = 0; r < out.length; r++) out[r] = den[r] === 0 ? NaN : num[r] / den[r];
      return frame.withColumns([numberColumn(step.name, out)]);
    }
  }
}


function fillCategory(col: CategoryColumn, fill: string): CategoryColumn {
  let code = col.levels.indexOf(fill);
  const levels = code < 0 ? [...col.levels, fill] : col.levels;
  if (code < 0) code = levels.length - 1;
  return categoryColumn(col.name, col.codes.map((c) => (c < 0 ? code : c)), levels);
}
