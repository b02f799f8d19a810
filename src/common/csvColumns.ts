import { MAX_CLASSES } from '../engine/model';
import { decodeCsvSample, detectDelimiter } from '../engine/data/csvDialect';
import { readCsvRecords } from './csvRecords';
import { l10n } from '../l10n/l10n';

export type ColumnKind = 'binary' | 'number' | 'category' | 'date' | 'text' | 'id' | 'empty';

export interface ColumnProfile {
  name: string;
  kind: ColumnKind;
  /** Distinct non-empty values in the sample. */
  distinct: number;
  /** Empty cells in the sample. */
  missing: number;
  /** Up to three distinct example values. */
  samples: string[];
  /** A categorical column with 3 to 50 distinct values: those values sorted as text (a multiclass target's classes). */
  classes?: string[];
  /** With `classes`: the sampled rows of each class, in the same order. */
  classRows?: number[];
  /** Set instead of `classes` when only the number of categories is known (a database table's summary). */
  classCount?: number;
}

export interface CsvSample {
  columns: ColumnProfile[];
  rowsSampled: number;
}

const dateLike = /^(\d{4}[-/]\d{1,2}[-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?|[A-Z][a-z]{2} \d{1,2} \d{4}|\d{1,2}\/\d{1,2}\/\d{4})$/;
const targetNames = /^(target|label|labels|class|outcome|y|response|result|churn|default|survived|species|category|grade|weather|is_?\w+)$/i;
const maxCategories = 50;
/** The most classes a classifier takes (the service's limit). */
export { MAX_CLASSES };

/**
 * Parses the start of a CSV (header plus up to `maxRows` rows) and infers each column's kind. Bytes are decoded and
 * the delimiter detected by the engine's csvDialect rules, as the service reads the same file; a byte sample may end
 * mid-row (the cut row is dropped).
 */
export function sniffCsv(content: string | Uint8Array, maxRows = 5000): CsvSample {
  let text = typeof content === 'string' ? content : decodeCsvSample(content);
  if (typeof content !== 'string' && text.includes('\n')) text = text.slice(0, text.lastIndexOf('\n') + 1);
  const records = readCsvRecords(text, { delimiter: detectDelimiter(text), maxRecords: maxRows + 1 });
  const [header, ...rows] = records;
  if (!header || header.length === 0) throw new Error(l10n.t('The file has no header row.'));
  return profileColumns(header, rows);
}

/** Each column's kind, from its name and the sampled rows' fields as text ('' = missing). */
export function profileColumns(header: readonly string[], rows: readonly (readonly string[])[]): CsvSample {
  const columns = header.map((name, index) => profileColumn(name.trim(), rows.map((row) => (row[index] ?? '').trim())));
  return { columns, rowsSampled: rows.length };
}

function profileColumn(name: string, values: string[]): ColumnProfile {
  const present = values.filter((value) => value !== '');
  const distinctValues = [...new Set(present)];
  const distinct = distinctValues.length;
  const kind = inferKind(present, distinct);
  const multiclass = kind === 'category' && distinct >= 3 && distinct <= MAX_CLASSES;
  const classes = multiclass ? [...distinctValues].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [];
  const rows = new Map<string, number>();
  if (multiclass) for (const value of present) rows.set(value, (rows.get(value) ?? 0) + 1);
  return {
    name,
    kind,
    distinct,
    missing: values.length - present.length,
    samples: distinctValues.slice(0, 3),
    ...(multiclass ? { classes, classRows: classes.map((c) => rows.get(c) ?? 0) } : {}),
  };
}

function inferKind(present: string[], distinct: number): ColumnKind {
  if (present.length === 0) return 'empty';
  if (distinct === 2) return 'binary';
  if (present.every((value) => Number.isFinite(Number(value)))) return 'number';
  if (present.every((value) => dateLike.test(value))) return 'date';
  if (distinct <= Math.max(maxCategories, present.length * 0.05)) return 'category';
  if (distinct === present.length) return 'id';
  return 'text';
}

export type ModelKind = 'classifier' | 'regressor';

/** How many classes a multiclass target has; undefined for any other column. */
export function classCountOf(column: ColumnProfile): number | undefined {
  return column.classes?.length ?? column.classCount;
}

/**
 * A classifier needs two classes (binary) or 3 to 50 categories (multiclass); a regressor a numeric target. Other
 * columns cannot be targets.
 */
export function modelTypesFor(column: ColumnProfile): ModelKind[] {
  if (column.kind === 'binary') return column.samples.every((value) => Number.isFinite(Number(value))) ? ['classifier', 'regressor'] : ['classifier'];
  if (column.kind === 'number') return ['regressor'];
  if (classCountOf(column) !== undefined) return ['classifier'];
  return [];
}

/** `Binary classifier`, or `Classifier (3 classes: Adelie, Chinstrap, Gentoo)` for a multiclass target. */
export function classifierLabel(column: ColumnProfile | undefined): string {
  const classes = column?.classes;
  if (column?.classCount !== undefined) return l10n.t('Classifier ({0} classes)', column.classCount);
  if (!classes) return l10n.t('Binary classifier');
  const shown = classes.length > 6 ? `${classes.slice(0, 5).join(', ')}, …` : classes.join(', ');
  return l10n.t('Classifier ({0} classes: {1})', classes.length, shown);
}

/**
 * A class with fewer sampled rows than this may get fewer than 2 of a train's training rows (80 % of the rows, drawn
 * at random), which a multiclass fit refuses: one with 4 rows does so about 3 times in 100.
 */
export const FEW_CLASS_ROWS = 5;

/** The classes of a multiclass target with fewer than FEW_CLASS_ROWS sampled rows, fewest first. */
export function fewRowClasses(column: ColumnProfile | undefined): { value: string; rows: number }[] {
  const { classes = [], classRows = [] } = column ?? {};
  return classes
    .map((value, i) => ({ value, rows: classRows[i] ?? 0 }))
    .filter((c) => c.rows < FEW_CLASS_ROWS)
    .sort((a, b) => a.rows - b.rows);
}

export function suggestModelType(column: ColumnProfile): ModelKind {
  return modelTypesFor(column)[0] ?? 'classifier';
}

/**
 * Orders the columns so the most likely target comes first: usable targets before the rest; binary, then categories
 * with few classes (multiclass), then numbers; a target-like name weighs most.
 */
export function rankTargets(columns: ColumnProfile[]): ColumnProfile[] {
  const score = (column: ColumnProfile, index: number): number => {
    if (modelTypesFor(column).length === 0) return -1;
    const classes = classCountOf(column);
    let points = column.kind === 'binary' ? 4 : classes !== undefined ? (classes <= 10 ? 3 : 2) : 1;
    if (targetNames.test(column.name)) points += 4;
    if (index === columns.length - 1) points += 1;
    return points;
  };
  return columns
    .map((column, index) => ({ column, points: score(column, index), index }))
    .sort((a, b) => b.points - a.points || a.index - b.index)
    .map((entry) => entry.column);
}

/** Columns that are poor features: identifiers, free text, dates and empty columns. */
export function suggestDropColumns(columns: ColumnProfile[]): string[] {
  return columns.filter((column) => ['id', 'text', 'empty'].includes(column.kind)).map((column) => column.name);
}

/** Columns that can split a model into partitions: few distinct values. */
export function partitionCandidates(columns: ColumnProfile[], target: string): ColumnProfile[] {
  return columns.filter((column) => column.name !== target && (column.kind === 'category' || column.kind === 'binary') && column.distinct <= 20);
}
