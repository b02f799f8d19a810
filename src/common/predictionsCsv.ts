import { detectDelimiter } from '../engine/data/csvDialect';
import { readCsvRecords } from './csvRecords';
import { l10n } from '../l10n/l10n';

/** The prediction columns, as the service returns them (column arrays in input row order). */
export interface PredictionColumns {
  n: number;
  predictions: (string | number | boolean | null)[];
  scores?: (number | null)[];
  probabilities?: (number | null)[];
  contributions?: Record<string, (number | null)[]>;
  /** Multiclass: per class, each row's probability. */
  class_probabilities?: Record<string, (number | null)[]>;
  /** Multiclass with explain: per class, per feature, each row's contribution. */
  class_contributions?: Record<string, Record<string, (number | null)[]>>;
}

/**
 * The input CSV with the prediction columns appended: prediction, score, probability, contribution_<feature>; for a
 * multiclass model prediction (the class), probability_<class> per class and contribution_<class>_<feature>.
 */
export function buildPredictionsCsv(inputCsv: string, result: PredictionColumns): string {
  const [header, ...rows] = readCsvRecords(inputCsv, { delimiter: detectDelimiter(inputCsv) });
  if (!header) throw new Error(l10n.t('The input file has no header row.'));
  return predictionsCsvText(header, rows, result);
}

/** The input's header and rows (fields as text) with the prediction columns appended, as CSV text. */
export function predictionsCsvText(header: readonly string[], rows: readonly (readonly string[])[], result: PredictionColumns): string {
  if (rows.length !== result.n || result.predictions.length !== rows.length) {
    throw new Error(l10n.t('The service returned {0} predictions for {1} rows.', result.predictions.length, rows.length));
  }
  const added = predictionColumns(header, result);
  const lines = [[...header, ...added.map(([name]) => name)].map(csvCell).join(',')];
  rows.forEach((row, index) => {
    const padded = header.map((_, column) => row[column] ?? '');
    lines.push([...padded, ...added.map(([, values]) => values[index])].map(csvCell).join(','));
  });
  return `${lines.join('\n')}\n`;
}

/**
 * The columns appended to the input's (named `header`): prediction, score, probability, contribution_<feature>; for
 * a multiclass model probability_<class> and contribution_<class>_<feature>; a name the input has gets a suffix.
 */
export function predictionColumns(header: readonly string[], result: PredictionColumns): [string, readonly unknown[]][] {
  const added: [string, readonly unknown[]][] = [['prediction', result.predictions]];
  if (result.scores) added.push(['score', result.scores]);
  if (result.probabilities) added.push(['probability', result.probabilities]);
  for (const [feature, values] of Object.entries(result.contributions ?? {})) added.push([`contribution_${feature}`, values]);
  for (const [cls, values] of Object.entries(result.class_probabilities ?? {})) added.push([`probability_${cls}`, values]);
  for (const [cls, features] of Object.entries(result.class_contributions ?? {})) {
    for (const [feature, values] of Object.entries(features)) added.push([`contribution_${cls}_${feature}`, values]);
  }
  const taken = new Set(header);
  return added.map(([name, values]) => [uniqueName(name, taken), values]);
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let suffix = 2; taken.has(candidate); suffix++) candidate = `${name}_${suffix}`;
  taken.add(candidate);
  return candidate;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `data.csv` -> `data.predictions.csv`; `data.parquet` -> `data.predictions.parquet` (or `.csv` when `format` says so). */
export function predictionsFileName(inputName: string, format: 'csv' | 'parquet' = 'csv'): string {
  return inputName.replace(/(\.csv|\.parquet)?$/i, `.predictions.${format}`);
}
