import type { ExportTables } from './scoringTables';

/** A column the scoring query adds, named `xm_<part>_<part>…` so that it does not clash with the input's columns. */
export const scoredColumn = (...parts: string[]): string => ['xm', ...parts].join('_');

/**
 * The columns the scoring query adds that a prediction keeps: the prediction and its probabilities, and with
 * `explain` what sums to the score (base values, the features' contributions and the pair terms', and a binary
 * model's score).
 */
export function scoredColumns(tables: ExportTables, explain: boolean): string[] {
  if (tables.modelType === 'multiclass') {
    const perClass = (what: string) => tables.classes.map((c) => scoredColumn(what, c));
    const terms = (c: string, k: number) => [
      ...tables.features.map((f) => scoredColumn('contribution', c, f)),
      ...tables.classTables[k].pairs.map((p) => scoredColumn('interaction', c, p)),
    ];
    const explained = explain ? [...perClass('base_value'), ...tables.classes.flatMap(terms)] : [];
    return [scoredColumn('prediction'), ...perClass('probability'), ...explained];
  }
  const terms = [...tables.features.map((f) => scoredColumn('contribution', f)), ...tables.pairs.map((p) => scoredColumn('interaction', p))];
  const explained = explain ? [scoredColumn('base_value'), ...terms, scoredColumn('score')] : [];
  return [scoredColumn('prediction'), ...(tables.modelType === 'classifier' ? [scoredColumn('probability')] : []), ...explained];
}
