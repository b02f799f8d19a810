import type { ExportTables } from './scoringTables';

/** A column the scoring query adds, named `xm_<part>_<part>…` so that it does not clash with the input's columns. */
export const scoredColumn = (...parts: string[]): string => ['xm', ...parts].join('_');

/**
 * The columns the scoring query adds that a prediction keeps: the prediction and its probabilities, and with
 * `explain` what sums to the score (base values and contributions, and a binary model's score).
 */
export function scoredColumns(tables: ExportTables, explain: boolean): string[] {
  if (tables.modelType === 'multiclass') {
    const perClass = (what: string) => tables.classes.map((c) => scoredColumn(what, c));
    const explained = explain ? [...perClass('base_value'), ...tables.classes.flatMap((c) => tables.features.map((f) => scoredColumn('contribution', c, f)))] : [];
    return [scoredColumn('prediction'), ...perClass('probability'), ...explained];
  }
  const explained = explain ? [scoredColumn('base_value'), ...tables.features.map((f) => scoredColumn('contribution', f)), scoredColumn('score')] : [];
  return [scoredColumn('prediction'), ...(tables.modelType === 'classifier' ? [scoredColumn('probability')] : []), ...explained];
}
