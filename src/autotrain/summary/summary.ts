import type { AutotrainDtype, DatasetSummary, FieldProperties, SampleValue, SummaryField } from '../../contract/autotrain';
import { sortedPresent, type Column, type DataFrame, type NumberColumn } from '../../engine';
import { columnNumbers, columnTexts, columnTimes, inferDtype, isoText, levelCounts } from '../columns/columns';
import { enrichSummary } from './llmSummary';
import { rankLabelCandidates } from '../labels/labelRules';
import { semanticType } from '../columns/semantic';
import { finite, finiteStats, fmt, minMax } from '../columns/stats';
import type { TextGenContext } from '../llm/textgen';

export interface DatasetInfo {
  dataset_id: string | null;
  name: string;
  file_name: string;
}

const SAMPLE_COUNT = 3;

function samplesOf(dtype: AutotrainDtype, distinct: readonly string[]): SampleValue[] {
  const first = distinct.slice(0, SAMPLE_COUNT);
  return dtype === 'number' ? first.map(Number) : first;
}

export function describeField(name: string, dtype: AutotrainDtype, props: Omit<FieldProperties, 'description'>, missing: number, top: string | undefined): string {
  const tail = `${props.num_unique_values} unique, ${missing} missing`;
  if (props.num_unique_values === 0) return `Column '${name}' is empty: all ${missing} values are missing.`;
  switch (dtype) {
    case 'number':
      return `Numeric column '${name}' from ${fmt(props.min as number)} to ${fmt(props.max as number)} (mean ${fmt(props.mean as number)}), ${tail}.`;
    case 'date':
      return `Date column '${name}' from ${props.min} to ${props.max}, ${tail}.`;
    case 'boolean':
      return `Boolean column '${name}' (${props.samples.join('/')}), ${missing} missing.`;
    case 'category':
      return `Categorical column '${name}' with ${props.num_unique_values} levels${top ? ` (most common '${top}')` : ''}, ${missing} missing.`;
    default:
      return `Text column '${name}' with ${props.num_unique_values} distinct values, ${missing} missing.`;
  }
}

/** What a column's values tell its summary field. */
interface ColumnFacts {
  dtype: AutotrainDtype;
  /** Distinct non-null trimmed texts in order of first appearance: all of them, or a number column's first few. */
  firstSeen: string[];
  distinctCount: number;
  nonNull: number;
  /** The most common text, when known. */
  top: string | undefined;
  /** Statistics of the finite numbers, when the column is read as numbers. */
  numbers: ReturnType<typeof finiteStats>;
}

/**
 * A numeric column's facts from its numbers, without a text per row: a number's text (String) is told apart from
 * another's exactly when the numbers differ (−0 and 0 read alike), and never reads as a boolean word, an e-mail, a
 * URL, an IP address or a gender, so the first few distinct texts serve where the rules look at texts.
 */
function numericFacts(col: NumberColumn, scratch: Float64Array): ColumnFacts {
  const values = col.values;
  const sorted = sortedPresent(values, scratch);
  let distinctCount = sorted.length ? 1 : 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) distinctCount++;
  const firstSeen: string[] = [];
  for (let i = 0; i < values.length && firstSeen.length < Math.min(SAMPLE_COUNT, distinctCount); i++) {
    const text = String(values[i]);
    if (!Number.isNaN(values[i]) && !firstSeen.includes(text)) firstSeen.push(text);
  }
  const nonNull = sorted.length;
  return { dtype: inferDtype(col, firstSeen, nonNull), firstSeen, distinctCount, nonNull, top: undefined, numbers: finiteStats(values) };
}

/** Any column's facts from the text of each row. */
function textFacts(col: Column): ColumnFacts {
  const texts = columnTexts(col);
  const counts = levelCounts(texts);
  const firstSeen = [...new Set(texts.filter((t): t is string => t !== null))];
  const nonNull = texts.length - texts.filter((t) => t === null).length;
  const dtype = inferDtype(col, firstSeen, nonNull);
  const numbers = dtype === 'number' ? finiteStats(columnNumbers(col)) : null;
  return { dtype, firstSeen, distinctCount: firstSeen.length, nonNull, top: counts[0]?.value, numbers };
}

function summarizeColumn(col: Column, rows: number, scratch: () => Float64Array): { field: SummaryField; missing: number } {
  const facts = col.storage === 'number' && col.type === 'numeric' ? numericFacts(col, scratch()) : textFacts(col);
  const { dtype, firstSeen, nonNull, numbers } = facts;
  const missing = rows - nonNull;
  const base: Omit<FieldProperties, 'description'> = {
    dtype,
    samples: samplesOf(dtype, firstSeen),
    num_unique_values: facts.distinctCount,
    semantic_type: '',
  };
  if (numbers) Object.assign(base, { min: numbers.min, max: numbers.max, mean: numbers.mean, std: numbers.std });
  else if (dtype === 'date') {
    const range = minMax(finite(columnTimes(col)));
    if (nonNull > 0) Object.assign(base, { min: isoText(range.min), max: isoText(range.max) });
  }
  base.semantic_type = semanticType({
    name: col.name,
    dtype,
    distinct: firstSeen,
    distinctCount: facts.distinctCount,
    nonNull,
    min: typeof base.min === 'number' ? base.min : undefined,
    max: typeof base.max === 'number' ? base.max : undefined,
    integer: numbers !== null && numbers.integer,
  });
  const description = describeField(col.name, dtype, base, missing, facts.top);
  return { field: { column: col.name, properties: { ...base, description } }, missing };
}

function describeDataset(summary: Omit<DatasetSummary, 'dataset_description'>): string {
  const byType = new Map<AutotrainDtype, number>();
  for (const f of summary.fields) byType.set(f.properties.dtype, (byType.get(f.properties.dtype) ?? 0) + 1);
  const types = [...byType.entries()].map(([t, k]) => `${k} ${t}`).join(', ');
  const targets = rankLabelCandidates(summary)
    .slice(0, 3)
    .map((c) => `'${c.column}' (${c.model_type})`);
  const totalMissing = Object.values(summary.missing_values).reduce((a, b) => a + b, 0);
  return (
    `${summary.name}: ${summary.rows} rows × ${summary.columns.length} columns (${types}); ${totalMissing} missing values.` +
    (targets.length ? ` Likely targets: ${targets.join(', ')}.` : ' No column looks like a trainable target.')
  );
}

/** The part of a summary read from the rows alone, the same for every request on the dataset (so it is cached). */
export type SummaryRules = Pick<DatasetSummary, 'rows' | 'columns' | 'dtypes' | 'missing_values' | 'field_names' | 'fields' | 'sample_rows'>;

/** Summarises every row of the frame with deterministic rules. */
export function summaryRules(frame: DataFrame): SummaryRules {
  const fields: SummaryField[] = [];
  const dtypes: Record<string, AutotrainDtype> = {};
  const missingValues: Record<string, number> = {};
  // One buffer sorts each numeric column's values in turn, rather than a copy per column.
  let sortBuffer: Float64Array | null = null;
  const scratch = () => (sortBuffer ??= new Float64Array(frame.nRows));
  for (const col of frame.columns) {
    const { field, missing } = summarizeColumn(col, frame.nRows, scratch);
    fields.push(field);
    dtypes[col.name] = field.properties.dtype;
    missingValues[col.name] = missing;
  }
  return { rows: frame.nRows, columns: frame.names, dtypes, missing_values: missingValues, field_names: frame.names, fields };
}

/** The dataset's summary from its rules part; an LLM only adds descriptions and semantic types. */
export function completeSummary(rules: SummaryRules, info: DatasetInfo, ctx: TextGenContext): Promise<DatasetSummary> {
  const named = { dataset_id: info.dataset_id, name: info.name, file_name: info.file_name };
  return enrichSummary({ ...named, dataset_description: describeDataset({ ...named, ...rules }), ...rules }, ctx);
}

export function summarizeDataset(frame: DataFrame, info: DatasetInfo, ctx: TextGenContext): Promise<DatasetSummary> {
  return completeSummary(summaryRules(frame), info, ctx);
}
