import { EngineError } from '../base/errors';
import type { FeatureTypeSpec } from '../params/terms';
import { categoryColumn, dictionaryEncode, numberColumn, numericValues, numberKey, textValue, type Column, type DataFrame } from '../data/frame';

/**
 * The frame with each named column read as the user said: `categorical` (numbers as category keys, as predict
 * matches them), `numeric` (text parsed as numbers; a value that is not one is a 422 naming it), or ordinal (a
 * category column whose levels are the given categories in their order; a category not listed is a 422).
 */
export function withFeatureTypes(frame: DataFrame, types: Readonly<Record<string, FeatureTypeSpec>> | undefined): DataFrame {
  const entries = Object.entries(types ?? {});
  if (entries.length === 0) return frame;
  return frame.withColumns(entries.map(([name, spec]) => typedColumn(frame, name, spec)));
}

function typedColumn(frame: DataFrame, name: string, spec: FeatureTypeSpec): Column {
  const field = `feature_types.${name}`;
  if (!frame.has(name)) throw new EngineError(`${field}: there is no column ${name}; columns are: ${frame.names.join(', ')}`, field);
  const col = frame.column(name);
  const n = frame.nRows;
  if (spec === 'categorical') {
    if (col.storage === 'category') return categoryColumn(name, col.codes, col.levels);
    const { codes, levels } = dictionaryEncode(n, (r) => numberKey(col.values[r]));
    return categoryColumn(name, codes, levels);
  }
  if (spec === 'numeric') {
    const values = numericValues(col);
    for (let r = 0; r < n; r++) {
      const text = textValue(col, r);
      if (text !== null && Number.isNaN(values[r])) throw new EngineError(`${field}: ${name} holds ${JSON.stringify(text)}, which is not a number`, field);
    }
    return numberColumn(name, values);
  }
  if (typeof spec !== 'object' || spec === null || !Array.isArray(spec.ordinal) || spec.ordinal.length < 2) {
    throw new EngineError(`${field} must be "categorical", "numeric" or {"ordinal": [two or more categories in order]} (got ${JSON.stringify(spec)})`, field);
  }
  const order = spec.ordinal.map(String);
  const index = new Map(order.map((c, i) => [c, i]));
  if (index.size !== order.length) throw new EngineError(`${field}: the ordinal categories list a category twice`, field);
  const codes = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const text = textValue(col, r);
    const code = text === null ? -1 : index.get(text);
    if (code === undefined) throw new EngineError(`${field}: ${name} holds the category ${JSON.stringify(text)}, which the ordinal order does not list (${order.join(', ')})`, field);
    codes[r] = code;
  }
  return categoryColumn(name, codes, order);
}
